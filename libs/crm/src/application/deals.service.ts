import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import {
  Clock,
  DomainError,
  eventActorOf,
  EventType,
  forbidden,
  isAdmin,
  notFound,
  Outbox,
  Principal,
  validationFailed,
  viewChanges,
} from '@app/platform';
import { MembersService, OrganizationsService } from '@app/identity';
import type { CommissionMode } from '../domain/commission';
import { Deal, DealStage } from '../domain/deal.entity';
import { DealRepository } from '../domain/deal.repository';
import { participantIssues, ParticipantRole } from '../domain/deal-participants';
import { parseMoney, parsePercent } from '../domain/money';
import { DealJson, toDealJson } from '../views/deal.view';
import { parseDueDate } from './due-date';
import { LeadAccess } from './lead-access';
import { LeadFactsService } from './lead-facts.service';
import { LeadHistoryRecorder } from './lead-history.recorder';
import { ListingReadabilityCheck } from '../extension-points/listing-readability';

/** Money comes in as a JSON number or a decimal string (money.ts). */
export type MoneyInput = number | string;

export interface CreateDeal {
  leadId: number;
  title: string;
  amount?: MoneyInput | null;
  currency?: string;
  stage?: DealStage;
  expectedCloseAt?: string | null;
  propertyListingId?: string | null;
  assigneeIds?: string[];
  teamIds?: string[];
}

export interface ChangeDeal {
  title?: string;
  amount?: MoneyInput | null;
  currency?: string;
  propertyListingId?: string | null;
  expectedCloseAt?: string | null;
  commissionMode?: CommissionMode;
  commissionAmount?: MoneyInput | null;
  commissionPercent?: MoneyInput | null;
  invoiceNumber?: string | null;
  estimatedCollectionAt?: string | null;
  collectedAt?: string | null;
  participants?: { userId: string; role: ParticipantRole; percent: MoneyInput }[];
  assigneeIds?: string[];
  teamIds?: string[];
}

const when = (value: string | null | undefined, field: string): Date | null | undefined =>
  value === undefined ? undefined : value === null ? null : parseDueDate(value, field);
const money = (value: MoneyInput | null | undefined, field: string): string | null | undefined =>
  value === undefined ? undefined : value === null ? null : parseMoney(value, field);
const percent = (value: MoneyInput | null | undefined, field: string): string | null | undefined =>
  value === undefined ? undefined : value === null ? null : parsePercent(value, field);

/**
 * Deal writes and the single read (spec: Deal state table, Deals routes). Each write is one unit
 * of work: load, call the aggregate, one flush (one transaction) with its history rows.
 */
@Injectable()
export class DealsService {
  constructor(
    private readonly em: EntityManager,
    private readonly deals: DealRepository,
    private readonly access: LeadAccess,
    private readonly history: LeadHistoryRecorder,
    private readonly members: MembersService,
    private readonly organizations: OrganizationsService,
    private readonly facts: LeadFactsService,
    private readonly listings: ListingReadabilityCheck,
    private readonly clock: Clock,
    private readonly outbox: Outbox,
  ) {}

  async get(actor: Principal, dealId: string): Promise<DealJson> {
    return toDealJson(await this.reachableDeal(actor, dealId));
  }

  /**
   * On a lead the caller reaches (else 404 `Lead not found.`); the owner is the key's person. A
   * member may name only themselves and no team (403 FORBIDDEN).
   */
  async create(actor: Principal, input: CreateDeal): Promise<DealJson> {
    await this.access.reachableLead(actor, input.leadId);
    if (input.propertyListingId)
      await this.listings.assertReadable(actor.organizationId, input.propertyListingId);
    const userIds = input.assigneeIds ?? [];
    const teamIds = input.teamIds ?? [];
    if (!isAdmin(actor) && (teamIds.length > 0 || userIds.some((id) => id !== actor.userId))) {
      throw forbidden('A member can create deals only for themselves.');
    }
    const assigneeIds =
      userIds.length + teamIds.length > 0
        ? await this.access.resolvePeople(actor, userIds, teamIds)
        : [actor.userId];
    const now = this.clock.now();
    const deal = new Deal(
      {
        organizationId: actor.organizationId,
        leadId: input.leadId,
        createdBy: actor.userId,
        title: input.title,
        stage: input.stage,
        amount: money(input.amount, 'amount'),
        currency: input.currency ?? (await this.organizations.currencyOf(actor.organizationId)),
        propertyListingId: input.propertyListingId,
        expectedCloseAt: when(input.expectedCloseAt, 'expectedCloseAt'),
        assigneeIds,
      },
      now,
    );
    await this.withWorkFacts(actor, deal.leadId, now, (em) => {
      this.em.persist(deal);
      this.history.deal(
        actor,
        deal.leadId,
        { dealId: deal.id, action: 'created', stage: deal.stage, assigneeIds: deal.assigneeIds },
        now,
      );
      this.event(em, actor, deal, 'deal.created', now);
    });
    return toDealJson(deal);
  }

  /** Never the stage or status; people on the deal by admins only (403 ORG_ADMIN_REQUIRED). */
  async change(actor: Principal, dealId: string, changes: ChangeDeal): Promise<DealJson> {
    const deal = await this.reachableDeal(actor, dealId);
    const peopleChange = changes.assigneeIds !== undefined || changes.teamIds !== undefined;
    if (peopleChange && !isAdmin(actor)) {
      throw new DomainError('ORG_ADMIN_REQUIRED', 'Only an organization admin can change who is on a deal.');
    }
    const edit = {
      title: changes.title,
      amount: money(changes.amount, 'amount'),
      currency: changes.currency,
      propertyListingId: changes.propertyListingId,
      expectedCloseAt: when(changes.expectedCloseAt, 'expectedCloseAt'),
      commissionMode: changes.commissionMode,
      commissionAmount: money(changes.commissionAmount, 'commissionAmount'),
      commissionPercent: percent(changes.commissionPercent, 'commissionPercent'),
      invoiceNumber: changes.invoiceNumber,
      estimatedCollectionAt: when(changes.estimatedCollectionAt, 'estimatedCollectionAt'),
      collectedAt: when(changes.collectedAt, 'collectedAt'),
    };
    this.refuseDerivedField(deal, edit);
    // a listing named anew must be readable (the one already on the deal stays as it is)
    if (
      edit.propertyListingId &&
      edit.propertyListingId.toLowerCase() !== deal.propertyListingId?.toLowerCase()
    ) {
      await this.listings.assertReadable(actor.organizationId, edit.propertyListingId);
    }
    const participants =
      changes.participants && (await this.checkedParticipants(actor, changes.participants));
    const people = peopleChange
      ? await this.access.resolvePeople(actor, changes.assigneeIds ?? [], changes.teamIds ?? [])
      : undefined;
    const now = this.clock.now();
    const before = toDealJson(deal);
    // one transaction: the change, its history row and its event (flushed before the commit)
    await this.em.transactional((em) => {
      deal.edit(edit, now);
      if (participants) deal.setParticipants(participants, now);
      if (people) {
        const { added, removed } = deal.setAssignees(people, now);
        if (added.length + removed.length > 0) {
          this.history.deal(
            actor,
            deal.leadId,
            { dealId: deal.id, action: 'assignees-changed', addedUserIds: added, removedUserIds: removed },
            now,
          );
        }
      }
      this.changed(em, actor, deal, before, 'deal.updated', now);
      return Promise.resolve();
    });
    return toDealJson(deal);
  }

  /** State table: an open deal moves (same stage: nothing, no history); a closed one reopens. */
  async moveStage(actor: Principal, dealId: string, stage: DealStage): Promise<DealJson> {
    const deal = await this.reachableDeal(actor, dealId);
    const now = this.clock.now();
    const from = deal.stage;
    const before = toDealJson(deal);
    await this.withWorkFacts(actor, deal.leadId, now, (em) => {
      const move = deal.changeStage(stage, now);
      if (move === 'stage-changed') {
        this.history.deal(actor, deal.leadId, { dealId: deal.id, action: move, from, stage }, now);
        this.changed(em, actor, deal, before, 'deal.stage_changed', now);
      } else if (move === 'reopened') {
        this.history.deal(actor, deal.leadId, { dealId: deal.id, action: move, stage }, now);
        this.changed(em, actor, deal, before, 'deal.reopened', now);
      }
    });
    return toDealJson(deal);
  }

  /** From any status; no history row (the timeline reads `wonAt`). */
  async markWon(actor: Principal, dealId: string, wonAt?: string): Promise<DealJson> {
    const deal = await this.reachableDeal(actor, dealId);
    const now = this.clock.now();
    const at = when(wonAt, 'wonAt') ?? now;
    const before = toDealJson(deal);
    await this.withWorkFacts(actor, deal.leadId, now, (em) => {
      deal.markWon(now, at);
      this.changed(em, actor, deal, before, 'deal.won', now);
    });
    return toDealJson(deal);
  }

  /** From any status; no history row (the timeline reads `lostAt`). */
  async markLost(
    actor: Principal,
    dealId: string,
    input: { lostReason?: string | null; lostAt?: string },
  ): Promise<DealJson> {
    const deal = await this.reachableDeal(actor, dealId);
    const now = this.clock.now();
    const at = when(input.lostAt, 'lostAt') ?? now;
    const before = toDealJson(deal);
    await this.withWorkFacts(actor, deal.leadId, now, (em) => {
      deal.markLost(input.lostReason ?? null, now, at);
      this.changed(em, actor, deal, before, 'deal.lost', now);
    });
    return toDealJson(deal);
  }

  /** A won or lost deal opens again (at `stage` or the one it held); an open one → 409 CONFLICT. */
  async reopen(actor: Principal, dealId: string, stage?: DealStage): Promise<DealJson> {
    const deal = await this.reachableDeal(actor, dealId);
    const now = this.clock.now();
    const before = toDealJson(deal);
    await this.withWorkFacts(actor, deal.leadId, now, (em) => {
      deal.reopen(now, stage);
      this.history.deal(actor, deal.leadId, { dealId: deal.id, action: 'reopened', stage: deal.stage }, now);
      this.changed(em, actor, deal, before, 'deal.reopened', now);
    });
    return toDealJson(deal);
  }

  /**
   * A write that can move the deal's stage or status (run inside: `this.em` is the transaction's),
   * its flush and the lead's work facts (open deal stages): one transaction. Edits of other fields
   * leave the facts as they are and keep their single flush.
   */
  private withWorkFacts(
    actor: Principal,
    leadId: number,
    now: Date,
    write: (em: EntityManager) => unknown,
  ): Promise<void> {
    return this.em.transactional(async (em) => {
      write(em);
      await em.flush();
      await this.facts.recomputeWork(em, actor.organizationId, leadId, now);
    });
  }

  /**
   * The event of a change (issue 19): when the deal's view differs from `before` (beyond
   * `updatedAt`), its version goes up by one and `type` is recorded with the changed fields and
   * their old values; a write that changed nothing records nothing.
   */
  private changed(
    em: EntityManager,
    actor: Principal,
    deal: Deal,
    before: DealJson,
    type: EventType,
    now: Date,
  ) {
    const { changedFields, previous } = viewChanges(before, toDealJson(deal));
    if (changedFields.length === 0) return;
    deal.version += 1;
    this.event(em, actor, deal, type, now, { changedFields, previous });
  }

  /** Records the deal's event in the write's transaction (written at its commit). */
  private event(
    em: EntityManager,
    actor: Principal,
    deal: Deal,
    type: EventType,
    now: Date,
    change?: { changedFields: string[]; previous: Record<string, unknown> },
  ): void {
    this.outbox.record(em, {
      organizationId: deal.organizationId,
      type,
      occurredAt: now,
      subject: { type: 'deal', id: deal.id, leadId: deal.leadId },
      recordVersion: deal.version,
      actor: eventActorOf(actor),
      data: change ? { object: toDealJson(deal), previous: change.previous } : { object: toDealJson(deal) },
      ...(change ? { changedFields: change.changedFields } : {}),
    });
  }

  /**
   * Spec: an admin reaches every deal of the agency; a member one they are on or whose lead they
   * reach (`LeadAccess`). Anything else, another agency's deal included: 404 `Deal not found.`
   */
  private async reachableDeal(actor: Principal, dealId: string): Promise<Deal> {
    const deal = await this.deals.findInOrg(
      actor.organizationId,
      { id: dealId },
      { populate: ['participants'] },
    );
    if (!deal) throw notFound('Deal');
    if (isAdmin(actor) || deal.isOn(actor.userId)) return deal;
    return this.access.onReachableLead(actor, deal, 'Deal');
  }

  /**
   * The mode's own field is the one a client sets; sending only the derived one (commissionAmount
   * in `percentage` mode, commissionPercent in `exact` mode) would be silently overwritten: 400.
   */
  private refuseDerivedField(
    deal: Deal,
    edit: {
      commissionMode?: CommissionMode;
      commissionAmount?: string | null;
      commissionPercent?: string | null;
    },
  ): void {
    const mode = edit.commissionMode ?? deal.commissionMode;
    const derived = mode === 'percentage' ? 'commissionAmount' : 'commissionPercent';
    if (edit[derived] !== undefined) {
      throw validationFailed([
        { path: derived, message: `${derived} is derived in ${mode} mode; set commissionMode to change it` },
      ]);
    }
  }

  private async checkedParticipants(
    actor: Principal,
    rows: { userId: string; role: ParticipantRole; percent: MoneyInput }[],
  ) {
    const parsed = rows.map((row, i) => ({
      userId: row.userId,
      role: row.role,
      percent: parsePercent(row.percent, `participants.${i}.percent`),
    }));
    const members = await this.members.existingMemberIds(
      actor.organizationId,
      parsed.map((row) => row.userId),
    );
    const issues = participantIssues(parsed, members);
    if (issues.length > 0) throw validationFailed(issues);
    return parsed;
  }
}
