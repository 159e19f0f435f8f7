import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { Clock, ListResult, notFound, Principal, validationFailed, wholeList } from '@app/platform';
import { MembershipRepository } from '../domain/membership.repository';
import { Team } from '../domain/team.entity';
import { TeamRepository } from '../domain/team.repository';
import { teamSummary, TeamSummaryJson, teamView, TeamJson } from '../views/team.view';

export interface TeamChange {
  name?: string;
  color?: string | null;
  memberIds?: string[];
}

/** User ids are uuids, compared as the database returns them (lower case). */
const lowerCased = (ids: string[] | null | undefined): string[] | undefined =>
  ids === undefined ? undefined : (ids ?? []).map((id) => id.toLowerCase());

@Injectable()
export class TeamsService {
  constructor(
    private readonly em: EntityManager,
    private readonly teams: TeamRepository,
    private readonly memberships: MembershipRepository,
    private readonly clock: Clock,
  ) {}

  /** Live teams by name; archived ones are left out. */
  async list(actor: Principal): Promise<ListResult<TeamJson>> {
    return wholeList((await this.teams.liveInOrg(actor.organizationId)).map(teamView));
  }

  /** Live teams by name as `/v1/teams` shows them. */
  async summaries(actor: Principal): Promise<ListResult<TeamSummaryJson>> {
    return wholeList((await this.teams.liveInOrg(actor.organizationId)).map(teamSummary));
  }

  /** Current members of the given teams, for `teamIds` on leads, tasks and deals. */
  async memberIdsOf(
    organizationId: string,
    teamIds: string[],
  ): Promise<{ found: string[]; memberIds: string[] }> {
    if (teamIds.length === 0) return { found: [], memberIds: [] };
    const teams = await this.teams.liveAmong(organizationId, teamIds);
    return { found: teams.map((t) => t.id), memberIds: [...new Set(teams.flatMap((t) => t.memberIds))] };
  }

  async create(actor: Principal, input: TeamChange & { name: string }): Promise<TeamJson> {
    const memberIds = lowerCased(input.memberIds);
    await this.refuseStrangers(actor, memberIds);
    const team = new Team({ organizationId: actor.organizationId, ...input, memberIds }, this.clock.now());
    await this.em.persist(team).flush();
    return teamView(team);
  }

  async change(actor: Principal, teamId: string, input: TeamChange): Promise<TeamJson> {
    const team = await this.liveTeam(actor, teamId);
    const memberIds = lowerCased(input.memberIds);
    await this.refuseStrangers(actor, memberIds);
    team.change({ ...input, memberIds }, this.clock.now());
    await this.em.flush();
    return teamView(team);
  }

  async archive(actor: Principal, teamId: string): Promise<TeamJson> {
    const team = await this.liveTeam(actor, teamId);
    team.archive(this.clock.now());
    await this.em.flush();
    return teamView(team);
  }

  /** A person who left the agency leaves every team of it; in the caller's transaction. */
  async memberLeft(organizationId: string, userId: string, now: Date): Promise<void> {
    await this.teams.removeMemberFromAll(organizationId, userId, now);
  }

  private async liveTeam(actor: Principal, teamId: string): Promise<Team> {
    const team = await this.teams.findLiveInOrg(actor.organizationId, teamId);
    if (!team) throw notFound('Team');
    return team;
  }

  private async refuseStrangers(actor: Principal, memberIds: string[] | undefined): Promise<void> {
    if (!memberIds?.length) return;
    const known = await this.memberships.memberIdsAmong(actor.organizationId, memberIds);
    const issues = memberIds
      .map((id, index) => ({ id, index }))
      .filter(({ id }) => !known.has(id))
      .map(({ index }) => ({ path: `memberIds.${index}`, message: 'is not a member of this organization' }));
    if (issues.length > 0) throw validationFailed(issues);
  }
}
