import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import type { PageResult } from '@app/platform';
import { CRM_STATUSES, type CrmStatus, type LeadConsent } from '../domain/lead.entity';
import { CHANNELS, type Channel } from '../domain/records';
import {
  NEXT_CURSOR_DOC,
  removedEntry,
  RemovedJson,
  RemovedLeadView,
  SYNC_HAS_MORE_DOC,
  SyncPageJson,
} from './sync.view';

/** A lead as every route answers it: the JSON shape, its mapper from the SQL row, its OpenAPI class. */

export interface LeadTagJson {
  id: string;
  name: string;
  color: string;
  leadCount: number;
}

/** A row of `GET /v1/leads`. */
export interface LeadListItemJson {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  phoneNumber: string;
  language: string | null;
  companyName: string | null;
  crmStatus: CrmStatus;
  assigneeIds: string[];
  purchasedAt: string;
  totalCalls: number;
  lastCallAt: string | null;
  pendingTasks: number;
  nextTaskDueAt: string | null;
  leadGroup: string | null;
  tags: LeadTagJson[];
}

/** A single lead: the list item plus source, type, creation time, linked chat channels, origin and consent. */
export interface LeadJson extends LeadListItemJson {
  source: string;
  leadType: string | null;
  createdAt: string;
  channels: Channel[];
  origin: string | null;
  consent: LeadConsent | null;
}

/** A row of a lead sync: the list item plus when it last changed. */
export interface LeadSyncItemJson extends LeadListItemJson {
  updatedAt: string;
}

export type LeadSyncEntryJson = LeadSyncItemJson | RemovedJson<number>;

export interface WrappedLeadJson {
  lead: LeadJson;
}

export type LeadCounts = Record<CrmStatus, number> & { unassigned?: number };

export interface BulkLeadStatusJson {
  updated: number;
}

/** One row as `LEAD_COLUMNS` (lead-list.sql.ts) selects it (snake_case). */
export interface LeadRow {
  id: string | number;
  first_name: string;
  last_name: string;
  email: string;
  phone_number: string;
  language: string | null;
  company_name: string | null;
  crm_status: CrmStatus;
  assignee_ids: string[];
  tag_ids: string[];
  purchased_at: Date;
  total_calls: number;
  last_call_at: Date | null;
  pending_tasks: string | number;
  next_task_due_at: Date | null;
  lead_group: string | null;
  source: string;
  lead_type: string | null;
  created_at: Date;
  tags: { id: string; name: string; color: string; leadCount: number | string }[];
  /** Selected for the single lead only. */
  origin?: string | null;
  consent?: LeadConsent | null;
  channels?: Channel[];
}

/** A row of the lead sync statement (sync.sql.ts): a lead row, or a removal with nulls. */
export interface LeadSyncRow extends LeadRow {
  removed: boolean;
  entry_id: string | number;
  /** Its time to the microsecond, `YYYY-MM-DDTHH:MM:SS.ffffffZ`: the sync position. */
  position: string;
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export function toLeadListItemJson(row: LeadRow): LeadListItemJson {
  return {
    id: Number(row.id),
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    phoneNumber: row.phone_number,
    language: row.language,
    companyName: row.company_name,
    crmStatus: row.crm_status,
    assigneeIds: row.assignee_ids,
    purchasedAt: iso(row.purchased_at)!,
    totalCalls: row.total_calls,
    lastCallAt: iso(row.last_call_at),
    pendingTasks: Number(row.pending_tasks),
    nextTaskDueAt: iso(row.next_task_due_at),
    leadGroup: row.lead_group,
    tags: row.tags.map((tag) => ({ ...tag, leadCount: Number(tag.leadCount) })),
  };
}

export function toLeadJson(row: LeadRow): LeadJson {
  return {
    ...toLeadListItemJson(row),
    source: row.source,
    leadType: row.lead_type,
    createdAt: iso(row.created_at)!,
    channels: row.channels ?? [],
    origin: row.origin ?? null,
    consent: row.consent ?? null,
  };
}

/** `updatedAt`: the entry's sync position to the millisecond (sync-cursor.ts `toMillis`). */
export function toLeadSyncEntryJson(row: LeadSyncRow, updatedAt: string): LeadSyncEntryJson {
  return row.removed
    ? removedEntry(Number(row.entry_id), updatedAt)
    : { ...toLeadListItemJson(row), updatedAt };
}

/** A tag on a lead (the full tag row is on `/v1/tags`). */
export class LeadTagView implements LeadTagJson {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ example: '#6B7280' }) color: string;
  @ApiProperty({ type: 'integer', description: "How many of the agency's leads carry it." })
  leadCount: number;
}

/** A row of `GET /v1/leads` (spec: Lead list item). */
export class LeadListItemView implements LeadListItemJson {
  @ApiProperty({ type: 'integer', example: 1042 }) id: number;
  @ApiProperty() firstName: string;
  @ApiProperty() lastName: string;
  @ApiProperty() email: string;
  @ApiProperty() phoneNumber: string;
  @ApiProperty({ type: String, nullable: true, example: 'en-GB', description: 'BCP 47' }) language:
    string | null;
  @ApiProperty({ type: String, nullable: true }) companyName: string | null;

  @ApiProperty({ enum: CRM_STATUSES, description: '`lead` is shown to people as New.' })
  crmStatus: CrmStatus;

  @ApiProperty({ type: [String], description: 'User ids of the owners; [] when unassigned.' })
  assigneeIds: string[];

  @ApiProperty({ format: 'date-time' }) purchasedAt: string;
  @ApiProperty({ type: 'integer' }) totalCalls: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastCallAt: string | null;
  @ApiProperty({ type: 'integer', description: 'Tasks still pending.' }) pendingTasks: number;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Earliest due pending task.',
  })
  nextTaskDueAt: string | null;

  @ApiProperty({ type: String, nullable: true }) leadGroup: string | null;
  @ApiProperty({ type: [LeadTagView] }) tags: LeadTagView[];
}

/** A single lead: the list item plus source, type, creation time and linked chat channels. */
export class LeadView extends LeadListItemView implements LeadJson {
  @ApiProperty({ example: 'api', description: 'Where the lead came from (`api` for leads created here).' })
  source: string;

  @ApiProperty({ type: String, nullable: true, example: 'buyer' }) leadType: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({
    enum: CHANNELS,
    isArray: true,
    description:
      'Linked chat channels: each channel the lead has at least one chat message on (stored by a ' +
      'connector, `PUT /integrations/v1/messages/{externalId}`), once, by name; [] without messages.',
  })
  channels: Channel[];

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'portal:idealista',
    description: 'How the lead reached the agency (set by a connector’s intake); null otherwise.',
  })
  origin: string | null;

  @ApiProperty({
    type: 'object',
    nullable: true,
    properties: {
      contact: { type: 'boolean', description: 'Agreed to be contacted about the inquiry.' },
      marketing: { type: 'boolean', description: 'Agreed to marketing.' },
      capturedAt: { type: 'string', format: 'date-time' },
      wording: { type: 'string', nullable: true, maxLength: 2000 },
    },
    required: ['contact', 'marketing', 'capturedAt', 'wording'],
    description: 'Consent captured by an intake; null when none was.',
  })
  consent: LeadConsent | null;
}

/** `{data: Lead[], hasMore, page, limit, total}`, newest first; `total` is exact. */
export class LeadPageView implements PageResult<LeadListItemJson> {
  @ApiProperty({ type: [LeadListItemView] }) data: LeadListItemView[];
  @ApiProperty() hasMore: boolean;
  @ApiProperty({ type: 'integer', minimum: 1 }) page: number;
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 100 }) limit: number;
  @ApiProperty({ type: 'integer', description: 'Exact number of leads matching the filters.' }) total: number;
}

/** A row of a lead sync: the list item plus `updatedAt`. */
export class LeadSyncItemView extends LeadListItemView implements LeadSyncItemJson {
  @ApiProperty({
    format: 'date-time',
    description:
      'When the database recorded the lead’s last change (its fields, status, tags or owners, counters ' +
      'included); the sync order is `updatedAt`, then `id`.',
  })
  updatedAt: string;
}

/** The answer of `GET /v1/leads` in sync mode (`updatedSince` or `cursor`). */
@ApiExtraModels(LeadSyncItemView, RemovedLeadView)
export class LeadSyncPageView implements SyncPageJson<LeadSyncEntryJson> {
  @ApiProperty({
    type: 'array',
    items: { oneOf: [{ $ref: getSchemaPath(LeadSyncItemView) }, { $ref: getSchemaPath(RemovedLeadView) }] },
    description:
      'Leads changed since the position, oldest change first (`updatedAt`, then `id`). For a member, a lead ' +
      'they were taken off appears once as `{id, updatedAt, removed: true}`.',
  })
  data: (LeadSyncItemView | RemovedLeadView)[];

  @ApiProperty(SYNC_HAS_MORE_DOC) hasMore: boolean;
  @ApiProperty(NEXT_CURSOR_DOC) nextCursor: string;
}

/** `{lead}`: a created lead, or a lead whose owners changed. */
export class WrappedLeadView implements WrappedLeadJson {
  @ApiProperty({ type: LeadView }) lead: LeadView;
}

/** Leads per `crmStatus`; a member counts only their own leads. */
export class LeadCountsView implements LeadCounts {
  @ApiProperty({ type: 'integer' }) lead: number;
  @ApiProperty({ type: 'integer' }) potential: number;
  @ApiProperty({ type: 'integer' }) bad_timing: number;
  @ApiProperty({ type: 'integer' }) client: number;
  @ApiProperty({ type: 'integer' }) unqualified: number;
  @ApiPropertyOptional({ type: 'integer', description: 'Leads with no owner; admins only.' })
  unassigned?: number;
}

/** `POST /v1/leads/status`. */
export class BulkLeadStatusResultView implements BulkLeadStatusJson {
  @ApiProperty({
    type: 'integer',
    description: "How many of the agency's leads among `leadIds` were set (unknown ids are skipped).",
  })
  updated: number;
}
