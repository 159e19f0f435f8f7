import { LockMode } from '@mikro-orm/core';
import { Injectable } from '@nestjs/common';
import { isAdmin, notFound, Principal, validationFailed } from '@app/platform';
import { MembersService, TeamsService } from '@app/identity';
import type { Lead } from '../domain/lead.entity';
import { LeadRepository } from '../domain/lead.repository';
import { leadReachSql, LeadReachScope, leadSharesSql, reachesLead, Statement } from '../domain/lead-reach';
import type { Note } from '../domain/note.entity';
import { NoteRepository } from '../domain/note.repository';

/** A record that hangs on a lead: a note, a task, later a deal, call, message, viewing, document. */
export interface OnLead {
  leadId: number;
}

/**
 * The only door to a lead: who reaches which lead (the rule in `domain/lead-reach.ts`), as a
 * check on a loaded lead, as the SQL fragment every lead read filters by, and as loaders of "the
 * lead of this record" for anything kept on a lead. Also which people may be put on one.
 */
@Injectable()
export class LeadAccess {
  constructor(
    private readonly leads: LeadRepository,
    private readonly notes: NoteRepository,
    private readonly members: MembersService,
    private readonly teams: TeamsService,
  ) {}

  /** The caller's reach: the agency, and for a member only the leads they are assigned to. */
  scope(actor: Principal): LeadReachScope {
    return { organizationId: actor.organizationId, memberId: isAdmin(actor) ? null : actor.userId };
  }

  /** The reach as a WHERE fragment on the leads table aliased `alias`. */
  sql(actor: Principal, alias = 'l'): Statement {
    return leadReachSql(alias, this.scope(actor));
  }

  /**
   * Every lead of the caller's agency as a WHERE fragment, whatever their role: only for a read a
   * rule widens on purpose (a team queue opened by one of its people, INTERFACES.md "Queues").
   */
  organizationSql(actor: Principal, alias = 'l'): Statement {
    return leadReachSql(alias, { organizationId: actor.organizationId, memberId: null });
  }

  /**
   * Search's reach (spec, Search): the caller's own reach as a WHERE fragment on `alias` (null for
   * an admin: every lead of the organization, so a record's own organization is the whole check),
   * plus the leads a collaborating agency shared with them (`(organization_id, lead_id)` pairs).
   */
  searchSql(actor: Principal, alias = 'l'): { own: Statement | null; shared: Statement } {
    const own = this.scope(actor).memberId === null ? null : this.sql(actor, alias);
    return { own, shared: leadSharesSql(actor) };
  }

  /** A lead the caller may search (own reach or shared with them); otherwise 404 `Lead not found.` */
  async searchableLead(actor: Principal, leadId: number): Promise<void> {
    const lead = await this.leads.findInOrg(actor.organizationId, { id: leadId });
    if (lead && this.reaches(actor, lead)) return;
    if (await this.leads.isSharedWith(actor, leadId)) return;
    throw notFound('Lead');
  }

  reaches(actor: Principal, lead: Lead): boolean {
    return reachesLead(this.scope(actor), lead);
  }

  /** The lead, when the caller reaches it; otherwise 404 `Lead not found.` (never 403). */
  async reachableLead(actor: Principal, leadId: number): Promise<Lead> {
    const lead = await this.leads.findInOrg(actor.organizationId, { id: leadId });
    if (!lead || !this.reaches(actor, lead)) throw notFound('Lead');
    return lead;
  }

  /**
   * Inside a write's transaction: the lead as it is now, its row locked to the commit (a change's
   * `previous` values and version are then exact), when the caller reaches it; otherwise 404.
   */
  async lockedReachableLead(actor: Principal, leadId: number): Promise<Lead> {
    const lead = await this.leads.findInOrg(
      actor.organizationId,
      { id: leadId },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
    if (!lead || !this.reaches(actor, lead)) throw notFound('Lead');
    return lead;
  }

  /**
   * Those of `leadIds` the caller reaches (unknown ids are skipped). `lock`: inside a write's
   * transaction, the rows locked to the commit (in id order) and read as they are now.
   */
  async reachableLeads(
    actor: Principal,
    leadIds: number[],
    options: { lock?: boolean } = {},
  ): Promise<Lead[]> {
    const leads = await this.leads.listInOrg(
      actor.organizationId,
      { id: { $in: [...new Set(leadIds)] } },
      options.lock ? { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true, orderBy: { id: 'asc' } } : {},
    );
    return leads.filter((lead) => this.reaches(actor, lead));
  }

  /** Whether the caller reaches the lead `record` hangs on. */
  async reachesLeadOf(actor: Principal, record: OnLead): Promise<boolean> {
    const lead = await this.leads.findInOrg(actor.organizationId, { id: record.leadId });
    return lead !== null && this.reaches(actor, lead);
  }

  /**
   * `record` (loaded by its own context, in the caller's agency), when the caller reaches its
   * lead; otherwise 404 `<resource> not found.`, as if it did not exist.
   */
  async onReachableLead<T extends OnLead>(actor: Principal, record: T | null, resource: string): Promise<T> {
    if (!record || !(await this.reachesLeadOf(actor, record))) throw notFound(resource);
    return record;
  }

  /** A note on a lead the caller reaches; anything else is 404 `Note not found.` */
  async noteOnReachableLead(actor: Principal, noteId: string): Promise<Note> {
    return this.onReachableLead(
      actor,
      await this.notes.findInOrg(actor.organizationId, { id: noteId }),
      'Note',
    );
  }

  /**
   * `assigneeIds` plus the current members of `teamIds`; every person must be in the agency and
   * every team one of its live teams (400 VALIDATION_FAILED otherwise).
   */
  async resolvePeople(actor: Principal, userIds: string[], teamIds: string[]): Promise<string[]> {
    const [known, teams] = await Promise.all([
      this.members.existingMemberIds(actor.organizationId, userIds),
      this.teams.memberIdsOf(actor.organizationId, teamIds),
    ]);
    const issues = [
      ...userIds.flatMap((id, i) =>
        known.has(id) ? [] : [{ path: `assigneeIds.${i}`, message: 'is not a member of this organization' }],
      ),
      ...teamIds.flatMap((id, i) =>
        teams.found.includes(id)
          ? []
          : [{ path: `teamIds.${i}`, message: 'is not a team of this organization' }],
      ),
    ];
    if (issues.length > 0) throw validationFailed(issues);
    return [...new Set([...userIds, ...teams.memberIds])];
  }
}
