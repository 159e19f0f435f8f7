import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { Clock, forbidden, isAdmin, Principal, validationFailed } from '@app/platform';
import { TagsService } from '@app/identity';
import { CrmStatus, Lead, LeadContactField } from '../domain/lead.entity';
import { BulkLeadStatusJson, LeadJson, WrappedLeadJson } from '../views/lead.view';
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

/** Lead writes: one unit of work each, history rows in the same transaction. */
@Injectable()
export class LeadsService {
  constructor(
    private readonly em: EntityManager,
    private readonly access: LeadAccess,
    private readonly history: LeadHistoryRecorder,
    private readonly queries: LeadsQueries,
    private readonly tags: TagsService,
    private readonly clock: Clock,
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
      return { lead: await this.queries.get(actor, lead.id) };
    });
  }

  async changeContact(
    actor: Principal,
    leadId: number,
    changes: Partial<Record<LeadContactField, string | null>>,
  ): Promise<LeadJson> {
    const lead = await this.access.reachableLead(actor, leadId);
    lead.changeContact(changes, this.clock.now());
    await this.em.flush();
    return this.queries.get(actor, leadId);
  }

  async changeStatus(actor: Principal, leadId: number, status: CrmStatus): Promise<LeadJson> {
    const lead = await this.access.reachableLead(actor, leadId);
    const now = this.clock.now();
    this.history.statusChange(actor, lead.id, lead.changeStatus(status, now), status, now);
    await this.em.flush();
    return this.queries.get(actor, leadId);
  }

  /** Admin only; `updated` counts the agency's leads among `leadIds` (unknown ids are skipped). */
  async changeStatuses(actor: Principal, leadIds: number[], status: CrmStatus): Promise<BulkLeadStatusJson> {
    const now = this.clock.now();
    const leads = await this.access.reachableLeads(actor, leadIds);
    for (const lead of leads)
      this.history.statusChange(actor, lead.id, lead.changeStatus(status, now), status, now);
    await this.em.flush();
    return { updated: leads.length };
  }

  /** The full new set of tags; every id must be a live tag of the agency. */
  async setTags(actor: Principal, leadId: number, tagIds: string[]): Promise<LeadJson> {
    const lead = await this.access.reachableLead(actor, leadId);
    const live = await this.tags.liveTagIds(actor.organizationId, tagIds);
    const issues = tagIds.flatMap((id, i) =>
      live.has(id) ? [] : [{ path: `tagIds.${i}`, message: 'is not a tag of this organization' }],
    );
    if (issues.length > 0) throw validationFailed(issues);
    lead.setTags(tagIds, this.clock.now());
    await this.em.flush();
    return this.queries.get(actor, leadId);
  }

  /** Admin only. `replace`: the new owners (`[]` leaves the lead unassigned); `add`: keeps the existing ones. */
  async changeAssignees(
    actor: Principal,
    leadId: number,
    change: { mode: 'replace' | 'add'; userIds: string[]; teamIds: string[] },
  ): Promise<WrappedLeadJson> {
    const lead = await this.access.reachableLead(actor, leadId);
    const people = await this.access.resolvePeople(actor, change.userIds, change.teamIds);
    const now = this.clock.now();
    const moved =
      change.mode === 'replace' ? lead.replaceAssignees(people, now) : lead.addAssignees(people, now);
    this.history.assigneeChange(actor, lead.id, moved, now);
    await this.em.flush();
    return { lead: await this.queries.get(actor, leadId) };
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
