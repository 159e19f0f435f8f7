import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { MembersService, TeamsService } from '@app/identity';
import { Clock, notFound, Principal, validationFailed, type ValidationIssue } from '@app/platform';
import { LeadRoute, renumber } from '../domain/lead-route.entity';
import { LeadRouteRepository } from '../domain/lead-route.repository';
import { validateRouteDefinition, type RouteDefinition } from '../domain/route-definition';
import { RoutingDecisionRepository } from '../domain/routing-decision.repository';
import { RoutingSettingsRepository } from '../domain/routing-settings.repository';
import type { DeletedRouteJson, RouteListJson } from '../views/lead-routing.view';
import { toRouteJson, type RouteJson } from '../views/route.view';
import { peopleIssues, since } from './routing-people';
import { RoutingSnapshots, type LoadedRouting } from './routing-snapshots';

/** The window of `leadsLast30Days` in the answers of the writes (the overview takes `days`). */
export const DEFAULT_DAYS = 30;

const routeNotFound = () => notFound('Route');

/** The route fields a client sends (the DTO keeps them as sent; the domain validates). */
export type RouteInput = Record<string, unknown> & { position?: number };

/**
 * Lead routes: create, change, delete and reorder (INTERFACES.md "Lead routing"). Every write is
 * one transaction that first takes the organization's routing lock (`RoutingSettingsRepository.lock`),
 * so position edits and decisions run one at a time; positions are always 0..n-1. Another
 * organization's route is 404 `Route not found.`.
 */
@Injectable()
export class RoutesService {
  constructor(
    private readonly em: EntityManager,
    private readonly routes: LeadRouteRepository,
    private readonly settings: RoutingSettingsRepository,
    private readonly decisions: RoutingDecisionRepository,
    private readonly snapshots: RoutingSnapshots,
    private readonly members: MembersService,
    private readonly teams: TeamsService,
    private readonly clock: Clock,
  ) {}

  /** 201 Route; `position` default last (above Smart routing), inserting moves the rest down. */
  async create(actor: Principal, input: RouteInput): Promise<RouteJson> {
    const { position, ...fields } = input;
    const definition = validateRouteDefinition(fields);
    const org = actor.organizationId;
    return this.em.transactional(async (em) => {
      const now = this.clock.now();
      await this.settings.lock(org, now);
      await this.refuseStrangers(org, definition, null);
      const routes = await this.routes.byPosition(org);
      const route = new LeadRoute(org, definition, routes.length, now);
      routes.splice(Math.min(position ?? routes.length, routes.length), 0, route);
      renumber(routes);
      await em.persist(route).flush();
      await this.routes.createState(org, route.id);
      return this.viewOf(await this.load(org, now), route.id, now);
    });
  }

  /**
   * Given fields replace the stored ones; sending `userIds` or `teamIds` replaces the whole pool
   * (the list not sent becomes empty) and the merged definition is checked again (weights
   * included). A changed pool restarts the weighted counters.
   */
  async change(actor: Principal, ruleId: string, input: RouteInput): Promise<RouteJson> {
    const { position, ...fields } = input;
    const org = actor.organizationId;
    return this.em.transactional(async (em) => {
      const now = this.clock.now();
      await this.settings.lock(org, now);
      const routes = await this.routes.byPosition(org);
      const route = routes.find((candidate) => candidate.id === ruleId);
      if (!route) throw routeNotFound();
      const stored = route.definition;
      const definition = validateRouteDefinition(merged(stored, fields));
      await this.refuseStrangers(org, definition, stored);
      const { poolChanged } = route.apply(definition, now);
      if (position !== undefined) {
        routes.splice(routes.indexOf(route), 1);
        routes.splice(Math.min(position, routes.length), 0, route);
        renumber(routes);
      }
      await em.flush();
      if (poolChanged) await this.routes.resetReceived(org, route.id);
      return this.viewOf(await this.load(org, now), route.id, now);
    });
  }

  /** `{deleted: true, ruleId}`; the routes below move up; its pending reassignments are dropped. */
  async delete(actor: Principal, ruleId: string): Promise<DeletedRouteJson> {
    const org = actor.organizationId;
    return this.em.transactional(async (em) => {
      // its pending reassignments first, before the routing lock: a reassignment in flight locks
      // its decision row, then the lead, then the routing lock; taking them in the same order
      // here (decision rows, then the routing lock) cannot deadlock with it
      await this.decisions.dropPendingOf(org, ruleId);
      await this.settings.lock(org, this.clock.now());
      const routes = await this.routes.byPosition(org);
      const route = routes.find((candidate) => candidate.id === ruleId);
      if (!route) throw routeNotFound();
      routes.splice(routes.indexOf(route), 1);
      renumber(routes);
      // route_state goes with it (foreign key, on delete cascade)
      await em.remove(route).flush();
      return { deleted: true, ruleId: route.id };
    });
  }

  /** `ruleIds` must name every route exactly once; answers the routes in their new order. */
  async reorder(actor: Principal, ruleIds: string[]): Promise<RouteListJson> {
    const org = actor.organizationId;
    return this.em.transactional(async (em) => {
      const now = this.clock.now();
      await this.settings.lock(org, now);
      const routes = await this.routes.byPosition(org);
      const byId = new Map(routes.map((route) => [route.id, route]));
      const issues: ValidationIssue[] = [];
      const seen = new Set<string>();
      ruleIds.forEach((raw, index) => {
        const id = raw.toLowerCase();
        if (!byId.has(id)) {
          issues.push({ path: `ruleIds[${index}]`, message: 'is not a route of this organization' });
        } else if (seen.has(id)) {
          issues.push({ path: `ruleIds[${index}]`, message: 'names a route already listed' });
        }
        seen.add(id);
      });
      const missing = routes.filter((route) => !seen.has(route.id));
      if (missing.length > 0) {
        issues.push({
          path: 'ruleIds',
          message: `must list every route exactly once; missing ${missing.map((route) => route.id).join(', ')}`,
        });
      }
      if (issues.length > 0) throw validationFailed(issues);
      renumber(ruleIds.map((id) => byId.get(id.toLowerCase())!));
      await em.flush();
      const loaded = await this.load(org, now);
      const counts = await this.decisions.countByRuleSince(org, since(now, DEFAULT_DAYS));
      return { routes: loaded.routes.map((route) => toRouteJson(route, counts.get(route.row.id) ?? 0)) };
    });
  }

  /**
   * 400 VALIDATION_FAILED for users who are not current members and teams that are not live
   * teams of the organization. On a change only the ids the change brings in are checked: a
   * stored person who left stays in the pool (the engine skips them as `not_member`).
   */
  private async refuseStrangers(
    organizationId: string,
    definition: RouteDefinition,
    stored: RouteDefinition | null,
  ): Promise<void> {
    const newUsers = definition.userIds.filter((id) => !stored?.userIds.includes(id));
    const newTeams = definition.teamIds.filter((id) => !stored?.teamIds.includes(id));
    const issues = await peopleIssues(this.members, this.teams, organizationId, {
      userIds: definition.userIds,
      teamIds: definition.teamIds,
      check: { userIds: newUsers, teamIds: newTeams },
    });
    if (issues.length > 0) throw validationFailed(issues);
  }

  private load(organizationId: string, now: Date): Promise<LoadedRouting> {
    return this.snapshots.load(organizationId, now, { lock: false });
  }

  private async viewOf(loaded: LoadedRouting, ruleId: string, now: Date): Promise<RouteJson> {
    const route = loaded.routes.find((candidate) => candidate.row.id === ruleId);
    if (!route) throw routeNotFound();
    const counts = await this.decisions.countByRuleSince(loaded.organizationId, since(now, DEFAULT_DAYS));
    return toRouteJson(route, counts.get(ruleId) ?? 0);
  }
}

/**
 * The stored definition with the given fields on top. `userIds` or `teamIds` replace the pool
 * (the other list empty unless sent too); stored weights stay only while the route stays
 * `weighted` (a route changed to another strategy drops them).
 */
export function merged(stored: RouteDefinition, given: Record<string, unknown>): Record<string, unknown> {
  const sent = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined));
  const next: Record<string, unknown> = { ...stored, ...sent };
  if ('userIds' in sent || 'teamIds' in sent) {
    next.userIds = sent.userIds ?? [];
    next.teamIds = sent.teamIds ?? [];
  }
  if (!('weights' in sent) && (next.strategy ?? 'round_robin') !== 'weighted') next.weights = null;
  return next;
}
