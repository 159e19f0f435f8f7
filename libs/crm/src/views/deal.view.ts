import { ApiProperty } from '@nestjs/swagger';
import type { ListResult } from '@app/platform';
import { COMMISSION_MODES, type CommissionMode } from '../domain/commission';
import {
  DEAL_STAGES,
  DEAL_STATUSES,
  type Deal,
  type DealStage,
  type DealStatus,
} from '../domain/deal.entity';
import { PARTICIPANT_ROLES, type ParticipantRole } from '../domain/deal-participants';
import { DECIMAL_PATTERN, formatDecimal, PERCENT_PATTERN } from '../domain/money';

/** A deal as every route answers it: the JSON shape, its mappers, its OpenAPI class. */

export interface DealParticipantJson {
  userId: string;
  role: ParticipantRole;
  percent: string;
}

/** Spec: Deal. Money as two-decimal strings. */
export interface DealJson {
  id: string;
  leadId: number;
  assigneeIds: string[];
  title: string;
  status: DealStatus;
  stage: DealStage;
  amount: string | null;
  currency: string;
  propertyListingId: string | null;
  expectedCloseAt: string | null;
  wonAt: string | null;
  lostAt: string | null;
  lostReason: string | null;
  stageChangedAt: string;
  createdAt: string;
  updatedAt: string;
  participants: DealParticipantJson[];
  commissionMode: CommissionMode;
  commissionAmount: string | null;
  commissionPercent: string | null;
  invoiceNumber: string | null;
  estimatedCollectionAt: string | null;
  collectedAt: string | null;
}

/** `dealsById` in a lead's timeline: each deal named by a `deal` entry of the page. */
export interface DealSummaryJson {
  id: string;
  title: string;
  status: DealStatus;
  stage: DealStage;
  amount: string | null;
  currency: string;
}

/** A row of the deal list statement (deal-list.sql.ts). */
export interface DealRow {
  id: string;
  lead_id: string | number;
  assignee_ids: string[];
  title: string;
  status: DealStatus;
  stage: DealStage;
  amount: string | null;
  currency: string;
  property_listing_id: string | null;
  expected_close_at: Date | null;
  won_at: Date | null;
  lost_at: Date | null;
  lost_reason: string | null;
  stage_changed_at: Date;
  created_at: Date;
  updated_at: Date;
  commission_mode: CommissionMode;
  commission_amount: string | null;
  commission_percent: string | null;
  invoice_number: string | null;
  estimated_collection_at: Date | null;
  collected_at: Date | null;
}

/** A row of the participants statement, in list order. */
export interface DealParticipantRow {
  deal_id: string;
  user_id: string;
  role: ParticipantRole;
  percent: string;
}

const iso = (value: Date | null): string | null => (value === null ? null : new Date(value).toISOString());

export function toDealJson(deal: Deal): DealJson {
  return {
    id: deal.id,
    leadId: Number(deal.leadId),
    assigneeIds: deal.assigneeIds,
    title: deal.title,
    status: deal.status,
    stage: deal.stage,
    amount: formatDecimal(deal.amount),
    currency: deal.currency,
    propertyListingId: deal.propertyListingId,
    expectedCloseAt: iso(deal.expectedCloseAt),
    wonAt: iso(deal.wonAt),
    lostAt: iso(deal.lostAt),
    lostReason: deal.lostReason,
    stageChangedAt: deal.stageChangedAt.toISOString(),
    createdAt: deal.createdAt.toISOString(),
    updatedAt: deal.updatedAt.toISOString(),
    participants: deal.participants
      .getItems()
      .map((p) => ({ userId: p.userId, role: p.role, percent: formatDecimal(p.percent)! })),
    commissionMode: deal.commissionMode,
    commissionAmount: formatDecimal(deal.commissionAmount),
    commissionPercent: formatDecimal(deal.commissionPercent),
    invoiceNumber: deal.invoiceNumber,
    estimatedCollectionAt: iso(deal.estimatedCollectionAt),
    collectedAt: iso(deal.collectedAt),
  };
}

export function toDealRowJson(row: DealRow, participants: DealParticipantRow[]): DealJson {
  return {
    id: row.id,
    leadId: Number(row.lead_id),
    assigneeIds: row.assignee_ids,
    title: row.title,
    status: row.status,
    stage: row.stage,
    amount: formatDecimal(row.amount),
    currency: row.currency,
    propertyListingId: row.property_listing_id,
    expectedCloseAt: iso(row.expected_close_at),
    wonAt: iso(row.won_at),
    lostAt: iso(row.lost_at),
    lostReason: row.lost_reason,
    stageChangedAt: iso(row.stage_changed_at)!,
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
    participants: participants.map((p) => ({
      userId: p.user_id,
      role: p.role,
      percent: formatDecimal(p.percent)!,
    })),
    commissionMode: row.commission_mode,
    commissionAmount: formatDecimal(row.commission_amount),
    commissionPercent: formatDecimal(row.commission_percent),
    invoiceNumber: row.invoice_number,
    estimatedCollectionAt: iso(row.estimated_collection_at),
    collectedAt: iso(row.collected_at),
  };
}

export const toDealSummaryJson = (deal: Deal): DealSummaryJson => ({
  id: deal.id,
  title: deal.title,
  status: deal.status,
  stage: deal.stage,
  amount: formatDecimal(deal.amount),
  currency: deal.currency,
});

const MONEY_DOC = {
  type: String,
  nullable: true,
  pattern: DECIMAL_PATTERN,
  example: '250000.00',
} as const;
const PERCENT_DOC = { type: String, pattern: PERCENT_PATTERN, example: '3.50' } as const;
const DATE_TIME = { type: String, format: 'date-time', nullable: true } as const;

/** A commission participant: who shares the commission, in which role, for what percent. */
export class DealParticipantView implements DealParticipantJson {
  @ApiProperty({ format: 'uuid', description: 'A member of the organization.' }) userId: string;
  @ApiProperty({ enum: PARTICIPANT_ROLES }) role: ParticipantRole;
  @ApiProperty({ ...PERCENT_DOC, description: 'Percent 0-100 as a two-decimal string.' }) percent: string;
}

/** A deal on a lead (spec: Deal). Money fields are two-decimal strings, never numbers. */
export class DealView implements DealJson {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: 'integer' }) leadId: number;
  @ApiProperty({ type: [String], description: 'User ids of the people on the deal.' }) assigneeIds: string[];
  @ApiProperty({ minLength: 1, maxLength: 255 }) title: string;
  @ApiProperty({ enum: DEAL_STATUSES }) status: DealStatus;

  @ApiProperty({
    enum: DEAL_STAGES,
    description: 'In pipeline order (`qualified` is shown to people as Interested); kept while closed.',
  })
  stage: DealStage;

  @ApiProperty({ ...MONEY_DOC, description: 'Two-decimal string, or null.' }) amount: string | null;
  @ApiProperty({ example: 'EUR', description: 'ISO 4217, upper case.' }) currency: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) propertyListingId: string | null;

  @ApiProperty({ ...DATE_TIME, description: 'A date-only value comes back as midnight UTC of that date.' })
  expectedCloseAt: string | null;

  @ApiProperty(DATE_TIME) wonAt: string | null;
  @ApiProperty(DATE_TIME) lostAt: string | null;
  @ApiProperty({ type: String, nullable: true, maxLength: 2000 }) lostReason: string | null;
  @ApiProperty({ format: 'date-time' }) stageChangedAt: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;

  @ApiProperty({ type: [DealParticipantView], description: 'Commission participants, in the order set.' })
  participants: DealParticipantView[];

  @ApiProperty({
    enum: COMMISSION_MODES,
    description: 'Which commission field is kept; the other is derived.',
  })
  commissionMode: CommissionMode;

  @ApiProperty({ ...MONEY_DOC, description: 'Kept in `exact` mode, derived in `percentage` mode.' })
  commissionAmount: string | null;

  @ApiProperty({
    ...PERCENT_DOC,
    nullable: true,
    description: 'Kept in `percentage` mode, derived in `exact` mode (null when amount is null or 0).',
  })
  commissionPercent: string | null;

  @ApiProperty({ type: String, nullable: true, maxLength: 255 }) invoiceNumber: string | null;
  @ApiProperty(DATE_TIME) estimatedCollectionAt: string | null;
  @ApiProperty(DATE_TIME) collectedAt: string | null;
}

/** `{data: Deal[], hasMore}`: at most 1,000 deals, most recently active first. */
export class DealListView implements ListResult<DealJson> {
  @ApiProperty({ type: [DealView] }) data: DealView[];
  @ApiProperty({ description: 'True when more than 1,000 deals match: narrow the filters.' })
  hasMore: boolean;
}

/** A deal as `dealsById` shows it. */
export class DealSummaryView implements DealSummaryJson {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() title: string;
  @ApiProperty({ enum: DEAL_STATUSES }) status: DealStatus;
  @ApiProperty({ enum: DEAL_STAGES }) stage: DealStage;
  @ApiProperty(MONEY_DOC) amount: string | null;
  @ApiProperty() currency: string;
}
