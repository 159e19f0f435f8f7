import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { preparedRows } from '@app/platform';
import { RoutingLeads } from '@app/crm';
import { Directory, PeopleDirectory } from '@app/identity';
import { wallTime } from '../domain/route-clock';
import { expandPool, type PoolMember } from '../domain/route-pool';
import type { FactGroup } from '../domain/routing-facts';
import type { RouteSnapshot, RoutingSnapshot } from '../domain/routing-engine';
import {
  awayStatement,
  lockSettingsStatement,
  routesStatement,
  settingsStatement,
  type RouteRow,
  type SettingsRow,
} from './routing.sql';

export interface LoadedRoute {
  row: RouteRow;
  /** The people in the organization now, pool order, each with the team that brought them. */
  members: PoolMember[];
  snapshot: RouteSnapshot;
}

/** Everything a decision, a preview or the overview reads, as of one moment. */
export interface LoadedRouting {
  organizationId: string;
  snapshot: RoutingSnapshot;
  routes: LoadedRoute[];
  settings: SettingsRow;
  smartTeam: { userId: string; name: string }[];
  directory: Directory;
  /** The UTC day of the organization's counters. */
  utcDay: string;
}

const DEFAULT_SETTINGS: SettingsRow = {
  smartEnabled: false,
  smartUserIds: null,
  smartTeamIds: null,
  todayDay: null,
  todayCounts: {},
  lastAssigned: {},
};

/**
 * Loads an organization's routing as the engine's snapshot. `lock: true` (inside the decision's
 * transaction) takes the organization's routing lock first, so the state read is the state the
 * decision's writes replace: one agency's decisions run one at a time, none skipped or repeated.
 */
@Injectable()
export class RoutingSnapshots {
  constructor(
    private readonly em: EntityManager,
    private readonly people: PeopleDirectory,
    private readonly leads: RoutingLeads,
  ) {}

  async load(organizationId: string, now: Date, options: { lock: boolean }): Promise<LoadedRouting> {
    // who is in the agency and who is away are read before the lock: they change seldom, and a
    // decision a few milliseconds behind such a change is still a right one. The routes, their
    // state and the counters are read under it.
    const directory = await this.people.of(organizationId);
    const away = await preparedRows<{ userId: string; until: Date }>(
      this.em,
      awayStatement(organizationId, now),
    );
    const settings = options.lock
      ? (await preparedRows<SettingsRow>(this.em, lockSettingsStatement(organizationId, now)))[0]
      : ((await preparedRows<SettingsRow>(this.em, settingsStatement(organizationId)))[0] ??
        DEFAULT_SETTINGS);
    const rows = await preparedRows<RouteRow>(this.em, routesStatement(organizationId));
    const needsOpenLeads = settings.smartEnabled || rows.some((row) => row.strategy === 'smart');
    const openLeads = needsOpenLeads ? await this.leads.openLeadCounts(organizationId) : {};

    const routes = rows.map((row) => {
      const { pool, members } = expandPool(row.userIds, row.teamIds, directory.members, directory.teams);
      const snapshot: RouteSnapshot = {
        id: row.id,
        name: row.name,
        conditions: row.conditions as FactGroup | null,
        strategy: row.strategy,
        paused: row.paused,
        pool,
        weights: row.weights,
        schedule: row.schedule,
        dailyCap: row.dailyCap,
        state: {
          lastAssigneeId: row.lastAssigneeId,
          received: row.received ?? {},
          today: row.todayDay ? { day: row.todayDay, counts: row.todayCounts ?? {} } : null,
        },
      };
      return { row, members, snapshot };
    });

    const smartTeam =
      settings.smartUserIds === null && settings.smartTeamIds === null
        ? directory.members.map(({ userId, name }) => ({ userId, name }))
        : expandPool(
            settings.smartUserIds ?? [],
            settings.smartTeamIds ?? [],
            directory.members,
            directory.teams,
          ).members.map(({ userId, name }) => ({ userId, name }));
    const utcDay = wallTime(now, null).day;
    return {
      organizationId,
      settings,
      directory,
      routes,
      smartTeam,
      utcDay,
      snapshot: {
        routes: routes.map((route) => route.snapshot),
        activeUserIds: directory.members.map((member) => member.userId),
        awayUntil: Object.fromEntries(away.map((row) => [row.userId, new Date(row.until).toISOString()])),
        smartRouting: { enabled: settings.smartEnabled, team: smartTeam.map((person) => person.userId) },
        receivedToday: settings.todayDay === utcDay ? settings.todayCounts : {},
        openLeads,
        lastAssignedAt: settings.lastAssigned,
        names: Object.fromEntries(directory.members.map((member) => [member.userId, member.name])),
      },
    };
  }
}
