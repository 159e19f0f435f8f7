import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { Clock, ListResult, notFound, Principal, validationFailed, wholeList } from '@app/platform';
import { Team } from '../domain/team.entity';
import { MembersService } from './members.service';
import { TeamView, teamView } from './views';

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
    private readonly members: MembersService,
    private readonly clock: Clock,
  ) {}

  /** Live teams by name; archived ones are left out. */
  async list(actor: Principal): Promise<ListResult<TeamView>> {
    const teams = await this.em.find(
      Team,
      { organizationId: actor.organizationId, archivedAt: null },
      { orderBy: { name: 'asc' } },
    );
    return wholeList(teams.map(teamView));
  }

  /** Current members of the given teams, for `teamIds` on leads, tasks and deals. */
  async memberIdsOf(
    organizationId: string,
    teamIds: string[],
  ): Promise<{ found: string[]; memberIds: string[] }> {
    if (teamIds.length === 0) return { found: [], memberIds: [] };
    const teams = await this.em.find(Team, { organizationId, id: { $in: teamIds }, archivedAt: null });
    return { found: teams.map((t) => t.id), memberIds: [...new Set(teams.flatMap((t) => t.memberIds))] };
  }

  async create(actor: Principal, input: TeamChange & { name: string }): Promise<TeamView> {
    const memberIds = lowerCased(input.memberIds);
    await this.refuseStrangers(actor, memberIds);
    const team = new Team({ organizationId: actor.organizationId, ...input, memberIds }, this.clock.now());
    await this.em.persist(team).flush();
    return teamView(team);
  }

  async change(actor: Principal, teamId: string, input: TeamChange): Promise<TeamView> {
    const team = await this.find(actor, teamId);
    const memberIds = lowerCased(input.memberIds);
    await this.refuseStrangers(actor, memberIds);
    team.change({ ...input, memberIds }, this.clock.now());
    await this.em.flush();
    return teamView(team);
  }

  async archive(actor: Principal, teamId: string): Promise<TeamView> {
    const team = await this.find(actor, teamId);
    team.archive(this.clock.now());
    await this.em.flush();
    return teamView(team);
  }

  private async find(actor: Principal, teamId: string): Promise<Team> {
    const team = await this.em.findOne(Team, {
      id: teamId,
      organizationId: actor.organizationId,
      archivedAt: null,
    });
    if (!team) throw notFound('Team');
    return team;
  }

  private async refuseStrangers(actor: Principal, memberIds: string[] | undefined): Promise<void> {
    if (!memberIds?.length) return;
    const known = await this.members.existingMemberIds(actor.organizationId, memberIds);
    const issues = memberIds
      .map((id, index) => ({ id, index }))
      .filter(({ id }) => !known.has(id))
      .map(({ index }) => ({ path: `memberIds.${index}`, message: 'is not a member of this organization' }));
    if (issues.length > 0) throw validationFailed(issues);
  }
}
