import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { Clock, eventActorOf, forbidden, isAdmin, Principal, validationFailed } from '@app/platform';
import { TagsService } from '@app/identity';
import { CrmStatus, Lead, LeadContactField } from '../domain/lead.entity';
import { BulkLeadStatusJson, LeadJson, WrappedLeadJson } from '../views/lead.view';
import { changeOf, CrmEvents, EventPart, leadEventParts, leadFields } from './crm-events';
import { LeadAccess } from './lead-access';
import { LeadHistoryRecorder } from './lead-history.recorder';
import { LeadsQueries } from './leads.queries';

export const BULK_STATUS_MAX = 500;

export interface CreateLead {
  firstName: string;
  lastName: string;
  email: string;
  phoneNumber: string;
  crmStatus: CrmStatus;
  companyName?: string | null;
  language?: string | null;
  assigneeIds?: string[];
  teamIds?: string[];
  unassigned?: boolean;
}

/**
 * Lead writes: one unit of work each, history rows and events (issue 19: `lead.created`,
 * `lead.updated`, `lead.status_changed`, `lead.assigned`) in the same transaction. A write that
 * changes none of the lead's fields records no event and leaves its version.
 */
@Injectable()
export class LeadsService {
  constructor(
    private readonly em: EntityManager,
    private readonly access: LeadAccess,
    private readonly history: LeadHistoryRecorder,
    private readonly queries: LeadsQueries,
    private readonly tags: TagsService,
    private readonly clock: Clock,
    private readonly events: CrmEvents,
  ) {}

  /** The owner defaults to the key's person; a member may name only themselves. */
  async create(actor: Principal, input: CreateLead): Promise<WrappedLeadJson> {
    const assigneeIds = await this.openingOwners(actor, input);
    const now = this.clock.now();
    const lead = new Lead({ ...input, organizationId: actor.organizationId, assigneeIds }, now);
    // the answer is read inside the create's transaction: a create never commits without one
    return this.em.transactional(async (em) => {
      await em.persist(lead).flush(); // the id comes from the database
      this.history.created(actor, lead, now);
      const created = await this.queries.get(actor, lead.id);
      this.events.leadCreated(em, actor.organizationId, created, eventActorOf(actor), now);
      return { lead: created };
    });
  }

  async changeContact(
    actor: Principal,
    leadId: number,
    changes: Partial<Record<LeadContactField, string | null>>,
  ): Promise<LeadJson> {
    return this.changeLead(actor, leadId, (lead, now) => lead.changeContact(changes, now));
  }

  async changeStatus(actor: Principal, leadId: number, status: CrmStatus): Promise<LeadJson> {
    return this.changeLead(actor, leadId, (lead, now) =>
      this.history.statusChange(actor, lead.id, lead.changeStatus(status, now), status, now),
    );
  }

  /** Admin only; `updated` counts the agency's leads among `leadIds` (unknown ids are skipped). */
  async changeStatuses(actor: Principal, leadIds: number[], status: CrmStatus): Promise<BulkLeadStatusJson> {
    return this.em.transactional(async (em) => {
      const now = this.clock.now();
      const leads = await this.access.reachableLeads(actor, leadIds, { lock: true });
      const changes = leads.map((lead) => {
        const before = leadFields(lead);
        this.history.statusChange(actor, lead.id, lead.changeStatus(status, now), status, now);
        return { leadId: lead.id, parts: leadEventParts(changeOf(before, leadFields(lead))) };
      });
      await em.flush();
      await this.events.leadsChanged(em, actor.organizationId, changes, eventActorOf(actor), now);
      return { updated: leads.length };
    });
  }

  /** The full new set of tags; every id must be a live tag of the agency. */
  async setTags(actor: Principal, leadId: number, tagIds: string[]): Promise<LeadJson> {
    await this.access.reachableLead(actor, leadId); // 404 before the tags are checked
    const live = await this.tags.liveTagIds(actor.organizationId, tagIds);
    const issues = tagIds.flatMap((id, i) =>
      live.has(id) ? [] : [{ path: `tagIds.${i}`, message: 'is not a tag of this organization' }],
    );
    if (issues.length > 0) throw validationFailed(issues);
    return this.em.transactional(async (em) => {
      const lead = await this.access.lockedReachableLead(actor, leadId);
      const now = this.clock.now();
      const retagged = !sameSet(lead.tagIds, [...new Set(tagIds)]);
      // the tags as the view showed them: the event's `previous.tags`
      const old = retagged ? await this.queries.inOrganization(actor.organizationId, leadId) : null;
      lead.setTags(tagIds, now);
      await em.flush();
      const parts: EventPart[] = retagged
        ? [{ type: 'lead.updated', change: { changedFields: ['tags'], previous: { tags: old?.tags ?? [] } } }]
        : [];
      const changed = await this.events.leadChanged(
        em,
        actor.organizationId,
        leadId,
        parts,
        eventActorOf(actor),
        now,
      );
      return changed ?? this.queries.get(actor, leadId);
    });
  }

  /** Admin only. `replace`: the new owners (`[]` leaves the lead unassigned); `add`: keeps the existing ones. */
  async changeAssignees(
    actor: Principal,
    leadId: number,
    change: { mode: 'replace' | 'add'; userIds: string[]; teamIds: string[] },
  ): Promise<WrappedLeadJson> {
    await this.access.reachableLead(actor, leadId); // 404 before the people are checked
    const people = await this.access.resolvePeople(actor, change.userIds, change.teamIds);
    return {
      lead: await this.changeLead(actor, leadId, (lead, now) => {
        const moved =
          change.mode === 'replace' ? lead.replaceAssignees(people, now) : lead.addAssignees(people, now);
        this.history.assigneeChange(actor, lead.id, moved, now);
      }),
    };
  }

  /**
   * One change of a lead the caller reaches, in one transaction with its history and events;
   * answers the lead as `/v1` shows it after the change.
   */
  private changeLead(
    actor: Principal,
    leadId: number,
    change: (lead: Lead, now: Date) => void,
  ): Promise<LeadJson> {
    return this.em.transactional(async (em) => {
      const lead = await this.access.lockedReachableLead(actor, leadId);
      const now = this.clock.now();
      const before = leadFields(lead);
      change(lead, now);
      await em.flush();
      const parts = leadEventParts(changeOf(before, leadFields(lead)));
      const changed = await this.events.leadChanged(
        em,
        actor.organizationId,
        leadId,
        parts,
        eventActorOf(actor),
        now,
      );
      return changed ?? this.queries.get(actor, leadId);
    });
  }

  private async openingOwners(actor: Principal, input: CreateLead): Promise<string[]> {
    const userIds = input.assigneeIds ?? [];
    const teamIds = input.teamIds ?? [];
    if (!isAdmin(actor)) {
      // INTERFACES.md: a member may name only themselves; teams and unassigned are admin tools
      const onlySelf = userIds.every((id) => id === actor.userId);
      if (!onlySelf || teamIds.length > 0 || input.unassigned) {
        throw forbidden('A member can create leads only for themselves.');
      }
      return [actor.userId];
    }
    if (input.unassigned) {
      if (userIds.length > 0 || teamIds.length > 0) {
        throw validationFailed([
          { path: 'unassigned', message: 'cannot be combined with assigneeIds or teamIds' },
        ]);
      }
      return [];
    }
    if (userIds.length === 0 && teamIds.length === 0) return [actor.userId];
    return this.access.resolvePeople(actor, userIds, teamIds);
  }
}

const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((id) => b.includes(id));
