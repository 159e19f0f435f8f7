import { isAway, routeLabel, todayCounts, type RoutingSnapshot } from './routing-engine';

/** Problems of a route (issue 14 item 10), computed from the same snapshot the engine decides on. */

export const PROBLEM_CODES = [
  'EMPTY_POOL',
  'ALL_AWAY',
  'WEIGHTS_NOT_100',
  'NEVER_OPEN',
  'UNREACHABLE',
  'DAILY_CAP_REACHED',
] as const;
export type ProblemCode = (typeof PROBLEM_CODES)[number];

export interface RouteProblem {
  ruleId: string;
  code: ProblemCode;
  sentence: string;
}

export function routeProblems(snapshot: RoutingSnapshot, now: Date): RouteProblem[] {
  const problems: RouteProblem[] = [];
  const active = new Set(snapshot.activeUserIds);
  let catchAll: string | null = null;

  for (const [index, route] of snapshot.routes.entries()) {
    const label = routeLabel(route, index);
    const add = (code: ProblemCode, sentence: string): void => {
      problems.push({ ruleId: route.id, code, sentence });
    };
    const members = route.pool.filter((userId) => active.has(userId));

    if (catchAll !== null) {
      add(
        'UNREACHABLE',
        `Route ${label} is never reached: ${catchAll} above it takes every lead at any time.`,
      );
    }
    if (members.length === 0) {
      add('EMPTY_POOL', `Route ${label} has nobody active in its pool, so its leads fall through.`);
    } else if (members.every((userId) => isAway(snapshot, userId, now))) {
      add('ALL_AWAY', `Everyone in Route ${label} is away now, so its leads fall through.`);
    }
    if (route.strategy === 'weighted') {
      const total = members.reduce((sum, userId) => sum + (route.weights?.[userId] ?? 0), 0);
      if (total !== 100) {
        add('WEIGHTS_NOT_100', `The weights of route ${label}'s current people total ${total}, not 100.`);
      }
    }
    if (route.schedule && route.schedule.days.length === 0) {
      add('NEVER_OPEN', `Route ${label} has a schedule with no open time, so it never takes a lead.`);
    }
    if (route.dailyCap !== null && members.length > 0) {
      const counts = todayCounts(route, now);
      if (members.every((userId) => (counts[userId] ?? 0) >= (route.dailyCap ?? 0))) {
        add(
          'DAILY_CAP_REACHED',
          `Everyone in Route ${label} has reached today's cap of ${route.dailyCap} leads.`,
        );
      }
    }
    const takesAll = !route.conditions || route.conditions.children.length === 0;
    if (
      catchAll === null &&
      !route.paused &&
      takesAll &&
      !route.schedule &&
      route.dailyCap === null &&
      members.length > 0
    ) {
      catchAll = `Route ${label}`;
    }
  }
  return problems;
}
