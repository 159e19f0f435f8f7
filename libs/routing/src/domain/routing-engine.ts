import { clockMinutes, wallTime } from './route-clock';
import type { RouteSchedule, RouteStrategy } from './route-definition';
import { matchesConditions, type FactGroup, type RoutingFacts } from './routing-facts';

/**
 * The routing engine (issue 14 item 3): `decide(snapshot, facts, now)` is pure. The snapshot
 * carries everything a decision needs, so the DB layer only loads it (under its locks) and applies
 * the result. Conditions are evaluated in JS against the one lead's facts.
 */

export const STEP_OUTCOMES = [
  'assigned',
  'no_match',
  'paused',
  'closed',
  'nobody_available',
  'smart_routing',
  'unassigned',
] as const;
export type StepOutcome = (typeof STEP_OUTCOMES)[number];
export const SKIP_REASONS = ['away', 'daily_cap', 'not_member'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

export interface Skipped {
  userId: string;
  reason: SkipReason;
}

export interface RoutingStep {
  /** null for the Smart routing / Unassigned step after the routes. */
  ruleId: string | null;
  outcome: StepOutcome;
  skipped: Skipped[];
}

/** A route's fairness state (`route_state`), as locked by the DB layer. */
export interface RouteState {
  /** The route's last assignee (round robin). */
  lastAssigneeId: string | null;
  /** Leads each person received from this route since its pool last changed (weighted). */
  received: Record<string, number>;
  /** Leads each person received from this route on `today.day` (the schedule's zone, else UTC). */
  today: { day: string; counts: Record<string, number> } | null;
}

export interface RouteSnapshot {
  id: string;
  name: string | null;
  conditions: FactGroup | null;
  strategy: RouteStrategy;
  paused: boolean;
  /** Expanded pool: given users in order, then team members by name, no repeats (may hold leavers). */
  pool: string[];
  weights: Record<string, number> | null;
  schedule: RouteSchedule | null;
  dailyCap: number | null;
  state: RouteState;
}

export interface RoutingSnapshot {
  /** Routes by position (0 first). */
  routes: RouteSnapshot[];
  /** The organization's active members. */
  activeUserIds: string[];
  /** Away-until per person (ISO date-time); a past time means back. */
  awayUntil: Record<string, string>;
  smartRouting: { enabled: boolean; team: string[] };
  /** Leads each person received today (UTC day) from any route — the `smart` strategy. */
  receivedToday: Record<string, number>;
  /** Open (`lead`/`potential`) leads each person owns — the `smart` strategy. */
  openLeads: Record<string, number>;
  /** Each person's last assignment by routing (ISO) — the `smart` strategy. */
  lastAssignedAt: Record<string, string | null>;
  /** Display names for `why` (falls back to the id). */
  names?: Record<string, string>;
}

export interface RoutingDecision {
  userId: string | null;
  ruleId: string | null;
  routeName: string | null;
  strategy: RouteStrategy | null;
  smartRouting: boolean;
  why: string;
  steps: RoutingStep[];
}

export const routeLabel = (route: Pick<RouteSnapshot, 'id' | 'name'>, index: number): string =>
  route.name ? `"${route.name}"` : `#${index + 1}`;

/** Is the schedule open at `now` (no schedule = always)? */
export function isOpen(schedule: RouteSchedule | null, now: Date): boolean {
  if (!schedule) return true;
  const wall = wallTime(now, schedule.zone);
  return schedule.days.some(
    (entry) =>
      entry.day === wall.weekday &&
      (clockMinutes(entry.from) ?? Infinity) <= wall.minute &&
      wall.minute < (clockMinutes(entry.to) ?? -Infinity),
  );
}

/** Today's count of this route for each person, in the schedule's zone (UTC without one). */
export function todayCounts(route: RouteSnapshot, now: Date): Record<string, number> {
  const day = wallTime(now, route.schedule?.zone ?? null).day;
  return route.state.today && route.state.today.day === day ? route.state.today.counts : {};
}

export const isAway = (snapshot: RoutingSnapshot, userId: string, now: Date): boolean => {
  const until = snapshot.awayUntil[userId];
  return until !== undefined && Date.parse(until) > now.getTime();
};

/** Splits a pool into candidates (pool order) and the people skipped with a reason. */
export function candidatesOf(
  snapshot: RoutingSnapshot,
  pool: string[],
  now: Date,
  cap: { limit: number | null; counts: Record<string, number> } = { limit: null, counts: {} },
): { candidates: string[]; skipped: Skipped[] } {
  const active = new Set(snapshot.activeUserIds);
  const candidates: string[] = [];
  const skipped: Skipped[] = [];
  for (const userId of pool) {
    if (!active.has(userId)) skipped.push({ userId, reason: 'not_member' });
    else if (isAway(snapshot, userId, now)) skipped.push({ userId, reason: 'away' });
    else if (cap.limit !== null && (cap.counts[userId] ?? 0) >= cap.limit)
      skipped.push({ userId, reason: 'daily_cap' });
    else candidates.push(userId);
  }
  return { candidates, skipped };
}

/** round_robin: the first candidate after the last assignee in pool order (wrapping). */
export function pickRoundRobin(pool: string[], candidates: string[], lastAssigneeId: string | null): string {
  const last = lastAssigneeId === null ? -1 : pool.indexOf(lastAssigneeId);
  return candidates.find((userId) => pool.indexOf(userId) > last) ?? candidates[0];
}

/** weighted: the largest deficit weight/100 × (n + 1) − received; ties by pool order. */
export function pickWeighted(
  pool: string[],
  candidates: string[],
  weights: Record<string, number>,
  received: Record<string, number>,
): string {
  const n = pool.reduce((sum, userId) => sum + (received[userId] ?? 0), 0);
  let best = candidates[0];
  let bestDeficit = -Infinity;
  for (const userId of candidates) {
    // in hundredths, so the comparison is exact integer arithmetic
    const deficit = (weights[userId] ?? 0) * (n + 1) - 100 * (received[userId] ?? 0);
    if (deficit > bestDeficit) {
      best = userId;
      bestDeficit = deficit;
    }
  }
  return best;
}

/** smart: fewest today (any route), then fewest open leads, then longest since last assignment, then pool order. */
export function pickSmart(snapshot: RoutingSnapshot, candidates: string[]): string {
  const since = (userId: string): number => {
    const at = snapshot.lastAssignedAt[userId];
    return at ? Date.parse(at) : -Infinity;
  };
  return [...candidates].sort(
    (a, b) =>
      (snapshot.receivedToday[a] ?? 0) - (snapshot.receivedToday[b] ?? 0) ||
      (snapshot.openLeads[a] ?? 0) - (snapshot.openLeads[b] ?? 0) ||
      (since(a) === since(b) ? 0 : since(a) < since(b) ? -1 : 1) ||
      candidates.indexOf(a) - candidates.indexOf(b),
  )[0];
}

const STRATEGY_WORDS: Record<RouteStrategy, string> = {
  round_robin: 'was next in round robin',
  weighted: 'was furthest below their weighted share',
  smart: 'had the fewest leads today',
};
const OUTCOME_WORDS: Partial<Record<StepOutcome, string>> = {
  paused: 'paused',
  no_match: 'did not match',
  closed: 'closed',
  nobody_available: 'had nobody available',
};

export function decide(snapshot: RoutingSnapshot, facts: RoutingFacts, now: Date): RoutingDecision {
  const steps: RoutingStep[] = [];
  const passed: string[] = [];
  const nameOf = (userId: string): string => snapshot.names?.[userId] ?? userId;

  for (const [index, route] of snapshot.routes.entries()) {
    const label = routeLabel(route, index);
    let outcome: StepOutcome;
    let skipped: Skipped[] = [];
    if (route.paused) outcome = 'paused';
    else if (!matchesConditions(route.conditions, facts)) outcome = 'no_match';
    else if (!isOpen(route.schedule, now)) outcome = 'closed';
    else {
      const split = candidatesOf(snapshot, route.pool, now, {
        limit: route.dailyCap,
        counts: todayCounts(route, now),
      });
      skipped = split.skipped;
      if (split.candidates.length === 0) outcome = 'nobody_available';
      else {
        const userId =
          route.strategy === 'weighted'
            ? pickWeighted(route.pool, split.candidates, route.weights ?? {}, route.state.received)
            : route.strategy === 'smart'
              ? pickSmart(snapshot, split.candidates)
              : pickRoundRobin(route.pool, split.candidates, route.state.lastAssigneeId);
        steps.push({ ruleId: route.id, outcome: 'assigned', skipped });
        const matched =
          route.conditions && route.conditions.children.length > 0
            ? 'the lead matched its conditions'
            : 'it takes every lead';
        const earlier = passed.length > 0 ? ` after ${passed.join(', ')}` : '';
        return {
          userId,
          ruleId: route.id,
          routeName: route.name,
          strategy: route.strategy,
          smartRouting: false,
          why: `Route ${label} assigned ${nameOf(userId)}${earlier}: ${matched} and ${nameOf(userId)} ${STRATEGY_WORDS[route.strategy]}.`,
          steps,
        };
      }
    }
    steps.push({ ruleId: route.id, outcome, skipped });
    passed.push(`${label} ${OUTCOME_WORDS[outcome]}`);
  }

  const noRoute =
    passed.length > 0 ? `no route took the lead (${passed.join(', ')})` : 'no routes are set up';
  if (snapshot.smartRouting.enabled) {
    const split = candidatesOf(snapshot, snapshot.smartRouting.team, now);
    if (split.candidates.length > 0) {
      const userId = pickSmart(snapshot, split.candidates);
      steps.push({ ruleId: null, outcome: 'smart_routing', skipped: split.skipped });
      return {
        userId,
        ruleId: null,
        routeName: null,
        strategy: 'smart',
        smartRouting: true,
        why: `Smart routing assigned ${nameOf(userId)} because ${noRoute} and ${nameOf(userId)} ${STRATEGY_WORDS.smart}.`,
        steps,
      };
    }
    steps.push({ ruleId: null, outcome: 'unassigned', skipped: split.skipped });
    return unassigned(
      steps,
      `The lead stays unassigned because ${noRoute} and nobody in the Smart routing team is available.`,
    );
  }
  steps.push({ ruleId: null, outcome: 'unassigned', skipped: [] });
  return unassigned(steps, `The lead stays unassigned because ${noRoute} and Smart routing is off.`);
}

const unassigned = (steps: RoutingStep[], why: string): RoutingDecision => ({
  userId: null,
  ruleId: null,
  routeName: null,
  strategy: null,
  smartRouting: false,
  why,
  steps,
});

/**
 * Reassignment (issue 14 item 7): the same route picks again among its candidates, leaving out
 * this chain's earlier assignees (`exclude`). Schedule and conditions are not asked again: the
 * lead is this route's already. Null when nobody is left.
 */
export function decideWithinRoute(
  snapshot: RoutingSnapshot,
  ruleId: string,
  exclude: readonly string[],
  minutes: number,
  now: Date,
): RoutingDecision | null {
  const index = snapshot.routes.findIndex((route) => route.id === ruleId);
  if (index < 0) return null;
  const route = snapshot.routes[index];
  const split = candidatesOf(snapshot, route.pool, now, {
    limit: route.dailyCap,
    counts: todayCounts(route, now),
  });
  const candidates = split.candidates.filter((userId) => !exclude.includes(userId));
  if (candidates.length === 0) return null;
  const userId =
    route.strategy === 'weighted'
      ? pickWeighted(route.pool, candidates, route.weights ?? {}, route.state.received)
      : route.strategy === 'smart'
        ? pickSmart(snapshot, candidates)
        : pickRoundRobin(route.pool, candidates, route.state.lastAssigneeId);
  const nameOf = (id: string): string => snapshot.names?.[id] ?? id;
  const before = exclude.map(nameOf).join(', ');
  return {
    userId,
    ruleId: route.id,
    routeName: route.name,
    strategy: route.strategy,
    smartRouting: false,
    why: `Route ${routeLabel(route, index)} reassigned the lead to ${nameOf(userId)} because ${before} did not act on it within ${minutes} minutes, and ${nameOf(userId)} ${STRATEGY_WORDS[route.strategy]}.`,
    steps: [{ ruleId: route.id, outcome: 'assigned', skipped: split.skipped }],
  };
}
