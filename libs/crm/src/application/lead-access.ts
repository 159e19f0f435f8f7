import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { isAdmin, notFound, Principal, validationFailed } from '@app/platform';
import { MembersService, TeamsService } from '@app/identity';
import { Lead } from '../domain/lead.entity';

/**
 * Who reaches which lead, and which people may be put on one. Shared by leads, notes, tasks and
 * the timeline so the rule lives in one place.
 */
@Injectable()
export class LeadAccess {
  constructor(
    private readonly em: EntityManager,
    private readonly members: MembersService,
    private readonly teams: TeamsService,
  ) {}

  /** The lead, when the caller reaches it; otherwise 404 `Lead not found.` (never 403). */
  async reachableLead(actor: Principal, leadId: number): Promise<Lead> {
    const lead = await this.em.findOne(Lead, { id: leadId, organizationId: actor.organizationId });
    if (!lead || !lead.isReachableBy(actor.userId, isAdmin(actor))) throw notFound('Lead');
    return lead;
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
