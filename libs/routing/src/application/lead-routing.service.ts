import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { MembersService, TeamsService } from '@app/identity';
import { Clock, forbidden, isAdmin, Principal, validationFailed } from '@app/platform';
import { AwayPeriod } from '../domain/away-period.entity';
import { AwayPeriodRepository } from '../domain/away-period.repository';
import { routeProblems } from '../domain/route-problems';
import { RoutingDecisionRepository } from '../domain/routing-decision.repository';
import { RoutingSettingsRepository } from '../domain/routing-settings.repository';
import type { AwayJson, RoutingOverviewJson, SmartRoutingJson } from '../views/lead-routing.view';
import { toRouteJson } from '../views/route.view';
import { peopleIssues, since } from './routing-people';
import { RoutingSnapshots } from './routing-snapshots';

/**
 * The routing overview (`GET /v1/lead-routing`), Smart routing's switch and team, and away
 * periods (INTERFACES.md "Lead routing"). Reads come from the same snapshot the engine decides
 * on; writes take the organization's routing lock first, like every routing write.
 */
@Injectable()
export class LeadRoutingService {
  constructor(
    private readonly em: EntityManager,
    private readonly snapshots: RoutingSnapshots,
    private readonly settings: RoutingSettingsRepository,
    private readonly away: AwayPeriodRepository,
    private readonly decisions: RoutingDecisionRepository,
    private readonly members: MembersService,
    private readonly teams: TeamsService,
    private readonly clock: Clock,
  ) {}

  /** Routes by position, Smart routing, the problems now and who is away (`until` in the future). */
  async overview(actor: Principal, days: number): Promise<RoutingOverviewJson> {
    const now = this.clock.now();
    const org = actor.organizationId;
    const [loaded, counts] = await Promise.all([
      this.snapshots.load(org, now, { lock: false }),
      this.decisions.countByRuleSince(org, since(now, days)),
    ]);
    return {
      routes: loaded.routes.map((route) => toRouteJson(route, counts.get(route.row.id) ?? 0)),
      smartRouting: { enabled: loaded.settings.smartEnabled, team: loaded.smartTeam },
      problems: routeProblems(loaded.snapshot, now),
      away: Object.entries(loaded.snapshot.awayUntil).map(([userId, until]) => ({ userId, until })),
    };
  }

  /** The switch; sending `userIds` or `teamIds` replaces the team (never set = every active member). */
  async setSmart(
    actor: Principal,
    input: { enabled: boolean; userIds?: string[]; teamIds?: string[] },
  ): Promise<SmartRoutingJson> {
    const org = actor.organizationId;
    const userIds = input.userIds === undefined ? undefined : unique(input.userIds);
    const teamIds = input.teamIds === undefined ? undefined : unique(input.teamIds);
    return this.em.transactional(async (em) => {
      const now = this.clock.now();
      const settings = await this.settings.lock(org, now);
      const issues = await peopleIssues(this.members, this.teams, org, {
        userIds: userIds ?? [],
        teamIds: teamIds ?? [],
      });
      if (issues.length > 0) throw validationFailed(issues);
      settings.setSmart(input.enabled, { userIds, teamIds }, now);
      await em.flush();
      const loaded = await this.snapshots.load(org, now, { lock: false });
      return { enabled: loaded.settings.smartEnabled, team: loaded.smartTeam };
    });
  }

  /**
   * Away until `until` (a date = 00:00 UTC of it); null or a past time = back now (the row goes).
   * A member may set only themselves (else 403 FORBIDDEN); someone outside the organization → 400.
   */
  async setAway(actor: Principal, input: { until: string | null; userId?: string }): Promise<AwayJson> {
    const org = actor.organizationId;
    const userId = (input.userId ?? actor.userId).toLowerCase();
    if (userId !== actor.userId && !isAdmin(actor)) {
      throw forbidden('Only an organization admin can set the away time of someone else.');
    }
    const until = input.until === null ? null : parseUntil(input.until);
    return this.em.transactional(async (em) => {
      const now = this.clock.now();
      await this.settings.lock(org, now);
      if (userId !== actor.userId && !(await this.members.existingMemberIds(org, [userId])).has(userId)) {
        throw validationFailed([{ path: 'userId', message: 'is not a member of this organization' }]);
      }
      const row = await this.away.findInOrg(org, { userId });
      if (until === null || until.getTime() <= now.getTime()) {
        if (row) await em.remove(row).flush();
        return { userId, until: null };
      }
      if (row) row.extendTo(until);
      else em.persist(new AwayPeriod(org, userId, until));
      await em.flush();
      return { userId, until: until.toISOString() };
    });
  }
}

const unique = (ids: string[]): string[] => [...new Set(ids.map((id) => id.toLowerCase()))];

/** An ISO date-time, or a date `YYYY-MM-DD` = 00:00 UTC of it; an impossible date → 400. */
function parseUntil(value: string): Date {
  const day = value.slice(0, 10);
  const midnight = new Date(`${day}T00:00:00Z`);
  // `2026-02-30` would parse as 2 March: the day must read back as itself
  const realDay = !Number.isNaN(midnight.getTime()) && midnight.toISOString().slice(0, 10) === day;
  const at = value.length === day.length ? midnight : new Date(value);
  if (!realDay || Number.isNaN(at.getTime())) {
    throw validationFailed([{ path: 'until', message: 'until must be a real date or date-time' }]);
  }
  return at;
}
