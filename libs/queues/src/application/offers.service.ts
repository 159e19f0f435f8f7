import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { LeadAccess, LeadsQueries, LeadsService, TasksService, type LeadJson } from '@app/crm';
import { cappedResult, Clock, DomainError, isAdmin, ListResult, Principal } from '@app/platform';
import { utcDay } from '../domain/filter-compiler';
import { Offer } from '../domain/offer.entity';
import { DECIDED_OFFERS_SHOWN_MS, OfferRepository } from '../domain/offer.repository';
import type { QueueOffer } from '../domain/queue-definition';
import type { CrmStatusValue } from '../domain/queue-grammar';
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

const adminRequired = () =>
  new DomainError('ORG_ADMIN_REQUIRED', 'Only an organization admin can accept or undo an `assign` offer.');

/**
 * Offers (issue 13 item 8), once `OfferGenerator` made them: listed on a lead, accepted, dismissed
 * and undone. Accepting
 * applies the offer through the CRM's services (history source `api`), so their rules hold; each
 * decision is one transaction holding the offer's row lock.
 */
@Injectable()
export class OffersService {
  constructor(
    private readonly em: EntityManager,
    private readonly offers: OfferRepository,
    private readonly access: LeadAccess,
    private readonly leads: LeadsService,
    private readonly leadQueries: LeadsQueries,
    private readonly tasks: TasksService,
    private readonly clock: Clock,
  ) {}

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
}
