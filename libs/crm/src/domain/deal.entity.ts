import {
  ArrayType,
  BigIntType,
  Collection,
  Entity,
  EntityRepositoryType,
  ManyToOne,
  OneToMany,
  PrimaryKey,
  Property,
} from '@mikro-orm/core';
import { conflict } from '@app/platform/core';
import { v7 as uuidv7 } from 'uuid';
import { type CommissionMode, deriveCommission } from './commission';
import type { ParticipantInput, ParticipantRole } from './deal-participants';
import { DealRepository } from './deal.repository';

export const DEAL_STATUSES = ['open', 'won', 'lost'] as const;
export type DealStatus = (typeof DEAL_STATUSES)[number];

/** Spec: stages in order (`qualified` is shown to people as Interested). */
export const DEAL_STAGES = ['qualified', 'viewing', 'offer', 'reserved', 'under_contract'] as const;
export type DealStage = (typeof DEAL_STAGES)[number];

/** What a stage change did, so the service knows which history row to write (none for `none`). */
export type StageMove = 'none' | 'stage-changed' | 'reopened';

/** The fields PATCH may change (never stage or status); undefined leaves a field as it is. */
export interface DealEdit {
  title?: string;
  amount?: string | null;
  currency?: string;
  propertyListingId?: string | null;
  expectedCloseAt?: Date | null;
  commissionMode?: CommissionMode;
  commissionAmount?: string | null;
  commissionPercent?: string | null;
  invoiceNumber?: string | null;
  estimatedCollectionAt?: Date | null;
  collectedAt?: Date | null;
}

/**
 * A deal on a lead: the sales pipeline (spec: Deal, and its state table). Status `open`, `won`
 * or `lost`; `stage` keeps its value while the deal is closed. Marking a deal won or lost writes
 * no history row; creating, moving the stage and reopening do (the service writes them).
 */
@Entity({ tableName: 'deals', repository: () => DealRepository })
export class Deal {
  [EntityRepositoryType]?: DealRepository;

  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  @Property({ type: 'uuid' })
  organizationId: string;

  @Property({ type: new BigIntType('number') })
  leadId: number;

  @Property({ type: ArrayType })
  assigneeIds: string[] = [];

  @Property({ type: 'uuid' })
  createdBy: string;

  @Property({ type: 'text' })
  title: string;

  @Property({ type: 'text' })
  status: DealStatus = 'open';

  @Property({ type: 'text' })
  stage: DealStage;

  @Property({ type: 'decimal', precision: 14, scale: 2, nullable: true })
  amount: string | null = null;

  @Property({ type: 'text' })
  currency: string;

  @Property({ type: 'uuid', nullable: true })
  propertyListingId: string | null = null;

  @Property({ type: 'datetime', nullable: true })
  expectedCloseAt: Date | null = null;

  @Property({ type: 'datetime', nullable: true })
  wonAt: Date | null = null;

  @Property({ type: 'datetime', nullable: true })
  lostAt: Date | null = null;

  @Property({ type: 'text', nullable: true })
  lostReason: string | null = null;

  @Property({ type: 'datetime' })
  stageChangedAt: Date;

  @Property({ type: 'text' })
  commissionMode: CommissionMode = 'percentage';

  @Property({ type: 'decimal', precision: 14, scale: 2, nullable: true })
  commissionAmount: string | null = null;

  @Property({ type: 'decimal', precision: 5, scale: 2, nullable: true })
  commissionPercent: string | null = null;

  @Property({ type: 'text', nullable: true })
  invoiceNumber: string | null = null;

  @Property({ type: 'datetime', nullable: true })
  estimatedCollectionAt: Date | null = null;

  @Property({ type: 'datetime', nullable: true })
  collectedAt: Date | null = null;

  @Property({ type: 'datetime' })
  createdAt: Date;

  @Property({ type: 'datetime' })
  updatedAt: Date;

  /** The record's version: 1 on create, +1 per change that emits an event (its `recordVersion`). */
  @Property({ type: 'integer' })
  version: number = 1;

  @OneToMany(() => DealParticipant, (participant) => participant.deal, {
    orphanRemoval: true,
    orderBy: { position: 'asc' },
  })
  participants = new Collection<DealParticipant>(this);

  /** Spec: a new deal is open, at the given stage or `qualified`, with no participants. */
  constructor(
    props: {
      organizationId: string;
      leadId: number;
      createdBy: string;
      title: string;
      stage?: DealStage;
      amount?: string | null;
      currency: string;
      propertyListingId?: string | null;
      expectedCloseAt?: Date | null;
      assigneeIds: string[];
    },
    now: Date,
  ) {
    this.organizationId = props.organizationId;
    this.leadId = props.leadId;
    this.createdBy = props.createdBy;
    this.title = props.title;
    this.stage = props.stage ?? 'qualified';
    this.amount = props.amount ?? null;
    this.currency = props.currency;
    this.propertyListingId = props.propertyListingId ?? null;
    this.expectedCloseAt = props.expectedCloseAt ?? null;
    this.assigneeIds = [...new Set(props.assigneeIds)];
    this.stageChangedAt = now;
    this.createdAt = now;
    this.updatedAt = now;
  }

  /** Spec: a member reaches a deal they are on (or whose lead they reach: `LeadAccess`). */
  isOn(userId: string): boolean {
    return this.assigneeIds.includes(userId);
  }

  /**
   * State table: on an open deal, moves the stage (the same stage changes nothing); on a won or
   * lost deal, reopens it at `stage`.
   */
  changeStage(stage: DealStage, now: Date): StageMove {
    if (this.status !== 'open') {
      this.reopenAt(stage, now);
      return 'reopened';
    }
    if (stage === this.stage) return 'none';
    this.moveTo(stage, now);
    this.updatedAt = now;
    return 'stage-changed';
  }

  /** State table: from any status; `wonAt` set, the lost fields cleared. No history row. */
  markWon(now: Date, at: Date = now): void {
    this.status = 'won';
    this.wonAt = at;
    this.lostAt = null;
    this.lostReason = null;
    this.updatedAt = now;
  }

  /** State table: from any status; `lostAt` set, `wonAt` cleared. No history row. */
  markLost(reason: string | null, now: Date, at: Date = now): void {
    this.status = 'lost';
    this.lostAt = at;
    this.lostReason = reason;
    this.wonAt = null;
    this.updatedAt = now;
  }

  /** State table: a won or lost deal opens again at `stage` or the stage it held; an open one → 409. */
  reopen(now: Date, stage: DealStage = this.stage): void {
    if (this.status === 'open') throw conflict('The deal is already open.');
    this.reopenAt(stage, now);
  }

  /** PATCH: never stage or status. The commission's other field is derived again on every write. */
  edit(changes: DealEdit, now: Date): void {
    if (changes.title !== undefined) this.title = changes.title;
    if (changes.amount !== undefined) this.amount = changes.amount;
    if (changes.currency !== undefined) this.currency = changes.currency;
    if (changes.propertyListingId !== undefined) this.propertyListingId = changes.propertyListingId;
    if (changes.expectedCloseAt !== undefined) this.expectedCloseAt = changes.expectedCloseAt;
    if (changes.invoiceNumber !== undefined) this.invoiceNumber = changes.invoiceNumber;
    if (changes.estimatedCollectionAt !== undefined)
      this.estimatedCollectionAt = changes.estimatedCollectionAt;
    if (changes.collectedAt !== undefined) this.collectedAt = changes.collectedAt;
    const commission = deriveCommission(this.amount, {
      mode: changes.commissionMode ?? this.commissionMode,
      amount: changes.commissionAmount !== undefined ? changes.commissionAmount : this.commissionAmount,
      percent: changes.commissionPercent !== undefined ? changes.commissionPercent : this.commissionPercent,
    });
    this.commissionMode = commission.mode;
    this.commissionAmount = commission.amount;
    this.commissionPercent = commission.percent;
    this.updatedAt = now;
  }

  /** Returns who was added and who was taken off. */
  setAssignees(userIds: string[], now: Date): { added: string[]; removed: string[] } {
    const next = [...new Set(userIds)];
    const change = {
      added: next.filter((id) => !this.assigneeIds.includes(id)),
      removed: this.assigneeIds.filter((id) => !next.includes(id)),
    };
    this.assigneeIds = next;
    this.updatedAt = now;
    return change;
  }

  /** The full new list of participants (rules checked by `participantIssues`). */
  setParticipants(rows: ParticipantInput[], now: Date): void {
    this.participants.set(rows.map((row, i) => new DealParticipant(this, row, i)));
    this.updatedAt = now;
  }

  private reopenAt(stage: DealStage, now: Date): void {
    this.status = 'open';
    this.wonAt = null;
    this.lostAt = null;
    this.lostReason = null;
    if (stage !== this.stage) this.moveTo(stage, now);
    this.updatedAt = now;
  }

  private moveTo(stage: DealStage, now: Date): void {
    this.stage = stage;
    this.stageChangedAt = now;
  }
}

/** One commission participant of a deal (`{userId, role, percent}`), in the order they were given. */
@Entity({ tableName: 'deal_participants' })
export class DealParticipant {
  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  @ManyToOne(() => Deal, { fieldName: 'deal_id', deleteRule: 'cascade' })
  deal: Deal;

  @Property({ type: 'uuid' })
  userId: string;

  @Property({ type: 'text' })
  role: ParticipantRole;

  @Property({ type: 'decimal', precision: 5, scale: 2 })
  percent: string;

  @Property({ type: 'smallint' })
  position: number;

  constructor(deal: Deal, row: ParticipantInput, position: number) {
    this.deal = deal;
    this.userId = row.userId;
    this.role = row.role;
    this.percent = row.percent;
    this.position = position;
  }
}
