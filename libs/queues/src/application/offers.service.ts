import { CreateRequestContext, MikroORM } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import {
  LeadAccess,
  LeadsQueries,
  LeadsService,
  TasksService,
  type LeadEvent,
  type LeadJson,
} from '@app/crm';
import {
  cappedResult,
  Clock,
  DomainError,
  HOUR,
  isAdmin,
  JobName,
  ListResult,
  Periodic,
  preparedRows,
  Principal,
} from '@app/platform';
import { utcDay } from '../domain/filter-compiler';
import {
  offerSentence,
  offerTriggerStatement,
  type OfferNames,
  type TriggerQueue,
} from '../domain/offer-trigger.sql';
import { Offer } from '../domain/offer.entity';
import { DECIDED_OFFERS_SHOWN_MS, OfferRepository } from '../domain/offer.repository';
import type { OfferTrigger, QueueOffer } from '../domain/queue-definition';
import type { CrmStatusValue } from '../domain/queue-grammar';
import type { StoredDefinition } from '../domain/queue.entity';
import {
  toOfferJson,
  type OfferAnswerJson,
  type OfferJson,
  type OfferWithLeadJson,
} from '../views/offer.view';

/** A lead's offers list at most this many (`hasMore` says there are more). */
export const OFFERS_LISTED = 100;

/** The follow-up task an accepted `follow_up` makes (INTERFACES.md "Queues" → Offers). */
export const FOLLOW_UP_TITLE = 'Call back';

interface QueueRow {
  id: string;
  created_by: string;
  creator_is_admin: boolean;
  definition: StoredDefinition;
}

const adminRequired = () =>
  new DomainError('ORG_ADMIN_REQUIRED', 'Only an organization admin can accept or undo an `assign` offer.');

/**
 * Offers (issue 13 item 8): made by triggers over the organization's queues (one statement per
 * trigger, `offerTriggerStatement`), listed on a lead, accepted, dismissed and undone. Accepting
 * applies the offer through the CRM's services (history source `api`), so their rules hold; each
 * decision is one transaction holding the offer's row lock.
 */
@Injectable()
export class OffersService {
  constructor(
    // CreateRequestContext (the periodic job) finds the ORM here
    private readonly orm: MikroORM,
    private readonly em: EntityManager,
    private readonly offers: OfferRepository,
    private readonly access: LeadAccess,
    private readonly leads: LeadsService,
    private readonly leadQueries: LeadsQueries,
    private readonly tasks: TasksService,
    private readonly clock: Clock,
  ) {}

  /** A lead event from the CRM: `call_ended`, `task_completed`. */
  onLeadEvent(event: LeadEvent): Promise<number> {
    return this.trigger(event.organizationId, event.leadId, event.kind, event.at);
  }

  /**
   * Evaluates every rule of `when` of the organization's queues over the lead (null: every lead of
   * the organization) and stores the offers that hold, one open offer per lead, queue and rule.
   * Answers how many were made.
   */
  async trigger(
    organizationId: string,
    leadId: number | null,
    when: OfferTrigger,
    now: Date,
  ): Promise<number> {
    return this.em.transactional(async (em) => {
      const queues = await em.execute<QueueRow[]>(
        `select q.id, q.created_by, q.definition, coalesce(m.role = 'admin', false) as creator_is_admin
           from queues q
           join memberships m on m.user_id = q.created_by and m.organization_id = q.organization_id
          where q.organization_id = ? and not q.system and q.definition -> 'rules' @> ?::jsonb`,
        [organizationId, JSON.stringify([{ when }])],
      );
      if (queues.length === 0) return 0;
      const triggerQueues: TriggerQueue[] = queues.map((row) => ({
        id: row.id,
        createdBy: row.created_by,
        creatorIsAdmin: row.creator_is_admin,
        definition: row.definition,
      }));
      const names = await this.names(
        organizationId,
        triggerQueues.flatMap((queue) => queue.definition.rules.filter((rule) => rule.when === when)),
      );
      const statement = offerTriggerStatement({
        organizationId,
        leadId,
        when,
        now,
        queues: triggerQueues,
        sentence: (offer) => offerSentence(offer, names),
      });
      if (!statement) return 0;
      return (await preparedRows<{ id: string }>(em, statement)).length;
    });
  }

  /** `time_passed`, hourly: every organization whose queues have such a rule, one statement each. */
  @Periodic(JobName.OffersTimePassed, HOUR)
  @CreateRequestContext()
  async timePassed(now: Date): Promise<{ organizations: number; offers: number }> {
    const rows = await this.em.execute<{ organization_id: string }[]>(
      `select distinct organization_id from queues
        where not system and definition -> 'rules' @> ?::jsonb`,
      [JSON.stringify([{ when: 'time_passed' }])],
    );
    let offers = 0;
    for (const row of rows) offers += await this.trigger(row.organization_id, null, 'time_passed', now);
    return { organizations: rows.length, offers };
  }

  /** Open offers and those decided in the last 7 days, newest first; 404 `Lead not found.` */
  async list(actor: Principal, leadId: number): Promise<ListResult<OfferJson>> {
    await this.access.reachableLead(actor, leadId);
    const since = new Date(this.clock.now().getTime() - DECIDED_OFFERS_SHOWN_MS);
    const rows = await this.offers.listForLead(actor.organizationId, leadId, since, OFFERS_LISTED + 1);
    return cappedResult(rows.map(toOfferJson), OFFERS_LISTED);
  }

  /** Applies the offer to the lead as an API change, keeping the lead's state before it. */
  async accept(actor: Principal, offerId: string): Promise<OfferWithLeadJson> {
    return this.em.transactional(async (em) => {
      const offer = await this.decidable(actor, offerId);
      offer.refuseUnlessOpen();
      if (offer.offer.kind === 'assign' && !isAdmin(actor)) throw adminRequired();
      const lead = await this.access.reachableLead(actor, offer.leadId);
      const previous = {
        crmStatus: lead.crmStatus,
        tagIds: [...lead.tagIds],
        assigneeIds: [...lead.assigneeIds],
      };
      const now = this.clock.now();
      const followUpTaskId = await this.apply(actor, offer.leadId, offer.offer, lead.tagIds, now);
      offer.accepted(actor.userId, now, { previous, followUpTaskId });
      await em.flush();
      await this.offers.rememberLeadChange(offer);
      return { offer: toOfferJson(offer), lead: await this.leadJson(actor, offer.leadId) };
    });
  }

  async dismiss(actor: Principal, offerId: string): Promise<OfferAnswerJson> {
    return this.em.transactional(async (em) => {
      const offer = await this.decidable(actor, offerId);
      offer.dismissed(actor.userId, this.clock.now());
      await em.flush();
      return { offer: toOfferJson(offer) };
    });
  }

  /**
   * Within 24 h of the accept and while the lead is as the accept left it: puts back what the
   * offer changed (status, tags or owners; the follow-up task is deleted) and opens it again.
   */
  async undo(actor: Principal, offerId: string): Promise<OfferWithLeadJson> {
    return this.em.transactional(async (em) => {
      const offer = await this.decidable(actor, offerId);
      offer.refuseUndo(await this.offers.leadUnchangedSince(offer), this.clock.now());
      const previous = offer.previous!;
      switch (offer.offer.kind) {
        case 'set_status':
          await this.leads.changeStatus(actor, offer.leadId, previous.crmStatus as CrmStatusValue);
          break;
        case 'add_tag':
        case 'remove_tag':
          await this.leads.setTags(actor, offer.leadId, previous.tagIds);
          break;
        case 'assign':
          if (!isAdmin(actor)) throw adminRequired();
          await this.leads.changeAssignees(actor, offer.leadId, {
            mode: 'replace',
            userIds: previous.assigneeIds,
            teamIds: [],
          });
          break;
        case 'follow_up':
          if (offer.followUpTaskId) await this.deleteTask(actor, offer.followUpTaskId);
          break;
      }
      await this.offers.removeOtherOpen(offer);
      offer.undone();
      await em.flush();
      return { offer: toOfferJson(offer), lead: await this.leadJson(actor, offer.leadId) };
    });
  }

  /** The offer, locked, when the caller reaches its lead; else 404 `Offer not found.` */
  private async decidable(actor: Principal, offerId: string): Promise<Offer> {
    const offer = await this.offers.lockedInOrg(actor.organizationId, offerId);
    return this.access.onReachableLead(actor, offer, 'Offer');
  }

  /** Through the CRM's services; answers the follow-up task's id. */
  private async apply(
    actor: Principal,
    leadId: number,
    offer: QueueOffer,
    tagIds: string[],
    now: Date,
  ): Promise<string | null> {
    switch (offer.kind) {
      case 'set_status':
        await this.leads.changeStatus(actor, leadId, offer.status);
        return null;
      case 'add_tag':
        await this.leads.setTags(actor, leadId, [...new Set([...tagIds, offer.tagId])]);
        return null;
      case 'remove_tag':
        await this.leads.setTags(
          actor,
          leadId,
          tagIds.filter((id) => id !== offer.tagId),
        );
        return null;
      case 'assign':
        await this.leads.changeAssignees(actor, leadId, {
          mode: 'replace',
          userIds: [offer.userId],
          teamIds: [],
        });
        return null;
      case 'follow_up': {
        const due = utcDay(now, offer.inDays).toISOString().slice(0, 10);
        const task = await this.tasks.create(actor, { leadId, title: FOLLOW_UP_TITLE, dueDate: due });
        return task.id;
      }
    }
  }

  /** The follow-up task, unless someone deleted it already. */
  private async deleteTask(actor: Principal, taskId: string): Promise<void> {
    try {
      await this.tasks.delete(actor, taskId);
    } catch (error) {
      if (!(error instanceof DomainError && error.code === 'NOT_FOUND')) throw error;
    }
  }

  private leadJson(actor: Principal, leadId: number): Promise<LeadJson> {
    return this.leadQueries.get(actor, leadId);
  }

  /** Tag and people names the sentences of these rules need. */
  private async names(organizationId: string, rules: { offer: QueueOffer }[]): Promise<OfferNames> {
    const tagIds = rules.flatMap(({ offer }) =>
      offer.kind === 'add_tag' || offer.kind === 'remove_tag' ? [offer.tagId] : [],
    );
    const userIds = rules.flatMap(({ offer }) => (offer.kind === 'assign' ? [offer.userId] : []));
    const tags = new Map<string, string>();
    const people = new Map<string, string>();
    if (tagIds.length === 0 && userIds.length === 0) return { tags, people };
    const rows = await this.em.execute<{ kind: string; id: string; name: string }[]>(
      `select 'tag' as kind, t.id::text as id, t.name from tags t where t.organization_id = ? and t.id = any(?::uuid[])
       union all
       select 'person', u.id::text, trim(u.first_name || ' ' || u.last_name)
         from users u join memberships m on m.user_id = u.id
        where m.organization_id = ? and u.id = any(?::uuid[])`,
      [organizationId, `{${tagIds.join(',')}}`, organizationId, `{${userIds.join(',')}}`],
    );
    for (const row of rows) (row.kind === 'tag' ? tags : people).set(row.id, row.name);
    return { tags, people };
  }
}
