import { validationFailed, type ValidationIssue } from '@app/platform/core';
import { clockMinutes, isKnownZone } from './route-clock';
import { UUID, validateConditions, type FactGroup } from './routing-facts';

/**
 * A route's definition (spec "Lead route", INTERFACES.md "Lead routing"): `validateRouteDefinition`
 * takes the JSON a client sent and answers the normalized definition (defaults filled) or throws
 * 400 VALIDATION_FAILED listing every issue with the path of its value.
 */

export const STRATEGIES = ['round_robin', 'weighted', 'smart'] as const;
export type RouteStrategy = (typeof STRATEGIES)[number];

export const ROUTE_LIMITS = {
  name: 80,
  poolPeople: 100,
  poolTeams: 50,
  scheduleEntries: 14,
  dailyCap: { min: 1, max: 1000 },
  reassignAfterMinutes: { min: 5, max: 10_080 },
  weight: { min: 1, max: 100 },
} as const;

export interface ScheduleEntry {
  /** ISO weekday, 1 Monday … 7 Sunday. */
  day: number;
  /** `HH:MM`, from < to. */
  from: string;
  to: string;
}

export interface RouteSchedule {
  zone: string;
  days: ScheduleEntry[];
}

export interface RouteDefinition {
  name: string | null;
  conditions: FactGroup | null;
  strategy: RouteStrategy;
  paused: boolean;
  userIds: string[];
  teamIds: string[];
  /** Percent per user id (weighted only); null otherwise. */
  weights: Record<string, number> | null;
  schedule: RouteSchedule | null;
  dailyCap: number | null;
  reassignAfterMinutes: number | null;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function integerIn(
  input: unknown,
  path: string,
  limits: { min: number; max: number },
  issues: ValidationIssue[],
): number | null {
  if (input === undefined || input === null) return null;
  if (typeof input !== 'number' || !Number.isInteger(input) || input < limits.min || input > limits.max) {
    issues.push({ path, message: `${path} must be an integer from ${limits.min} to ${limits.max}` });
    return null;
  }
  return input;
}

function ids(input: unknown, path: string, max: number, issues: ValidationIssue[]): string[] {
  if (input === undefined || input === null) return [];
  const list = typeof input === 'string' ? [input] : input;
  if (!Array.isArray(list)) {
    issues.push({ path, message: `${path} must be a uuid or an array of uuids` });
    return [];
  }
  if (list.length > max) issues.push({ path, message: `${path} holds at most ${max} ids` });
  const out: string[] = [];
  list.forEach((item, index) => {
    if (typeof item !== 'string' || !UUID.test(item)) {
      issues.push({ path: `${path}[${index}]`, message: 'must be a uuid' });
    } else if (!out.includes(item.toLowerCase())) out.push(item.toLowerCase());
  });
  return out;
}

function validateSchedule(input: unknown, issues: ValidationIssue[]): RouteSchedule | null {
  if (input === undefined || input === null) return null;
  if (!isObject(input)) {
    issues.push({ path: 'schedule', message: 'schedule must be {zone, days} or null' });
    return null;
  }
  const zone = input.zone;
  if (typeof zone !== 'string' || !isKnownZone(zone)) {
    issues.push({ path: 'schedule.zone', message: 'zone must be an IANA time zone such as Europe/Madrid' });
  }
  const days = input.days;
  if (!Array.isArray(days)) {
    issues.push({ path: 'schedule.days', message: 'days must be an array of {day, from, to}' });
    return null;
  }
  if (days.length > ROUTE_LIMITS.scheduleEntries) {
    issues.push({
      path: 'schedule.days',
      message: `days holds at most ${ROUTE_LIMITS.scheduleEntries} entries`,
    });
  }
  const entries: ScheduleEntry[] = [];
  days.forEach((entry, index) => {
    const at = `schedule.days[${index}]`;
    if (!isObject(entry)) {
      issues.push({ path: at, message: 'each entry is {day, from, to}' });
      return;
    }
    const { day, from, to } = entry;
    if (typeof day !== 'number' || !Number.isInteger(day) || day < 1 || day > 7) {
      issues.push({ path: `${at}.day`, message: 'day must be an integer from 1 (Monday) to 7 (Sunday)' });
    }
    const fromMinutes = typeof from === 'string' ? clockMinutes(from) : null;
    const toMinutes = typeof to === 'string' ? clockMinutes(to) : null;
    if (fromMinutes === null || fromMinutes >= 24 * 60) {
      issues.push({ path: `${at}.from`, message: 'from must be a time HH:MM from 00:00 to 23:59' });
    }
    if (toMinutes === null)
      issues.push({ path: `${at}.to`, message: 'to must be a time HH:MM from 00:01 to 24:00' });
    if (fromMinutes !== null && toMinutes !== null && fromMinutes >= toMinutes) {
      issues.push({ path: `${at}.to`, message: 'to must be later than from' });
    }
    entries.push({ day: day as number, from: from as string, to: to as string });
  });
  return { zone: zone as string, days: entries };
}

/** The normalized definition, or 400 VALIDATION_FAILED with every issue. */
export function validateRouteDefinition(input: unknown): RouteDefinition {
  const issues: ValidationIssue[] = [];
  if (!isObject(input)) throw validationFailed([{ path: '', message: 'the body must be a route object' }]);

  let name: string | null = null;
  if (input.name !== undefined && input.name !== null) {
    if (typeof input.name !== 'string' || input.name.trim().length > ROUTE_LIMITS.name) {
      issues.push({
        path: 'name',
        message: `name must be a string of at most ${ROUTE_LIMITS.name} characters, or null`,
      });
    } else name = input.name.trim() || null;
  }

  const conditions =
    input.conditions === undefined || input.conditions === null
      ? null
      : validateConditions(input.conditions, 'conditions', issues);

  const strategy = (input.strategy ?? 'round_robin') as RouteStrategy;
  if (!STRATEGIES.includes(strategy)) {
    issues.push({ path: 'strategy', message: `strategy must be one of ${STRATEGIES.join(', ')}` });
  }

  let paused = false;
  if (input.paused !== undefined) {
    if (typeof input.paused !== 'boolean')
      issues.push({ path: 'paused', message: 'paused must be a boolean' });
    else paused = input.paused;
  }

  const userIds = ids(input.userIds, 'userIds', ROUTE_LIMITS.poolPeople, issues);
  const teamIds = ids(input.teamIds, 'teamIds', ROUTE_LIMITS.poolTeams, issues);

  let weights: Record<string, number> | null = null;
  if (strategy === 'weighted') {
    if (teamIds.length > 0) {
      issues.push({ path: 'teamIds', message: 'a weighted route takes userIds only, not teams' });
    }
    weights = validateWeights(input.weights, userIds, issues);
  } else if (input.weights !== undefined && input.weights !== null) {
    issues.push({ path: 'weights', message: 'weights are only for the weighted strategy' });
  }

  const schedule = validateSchedule(input.schedule, issues);
  const dailyCap = integerIn(input.dailyCap, 'dailyCap', ROUTE_LIMITS.dailyCap, issues);
  const reassignAfterMinutes = integerIn(
    input.reassignAfterMinutes,
    'reassignAfterMinutes',
    ROUTE_LIMITS.reassignAfterMinutes,
    issues,
  );

  if (issues.length > 0) throw validationFailed(issues);
  return {
    name,
    conditions,
    strategy,
    paused,
    userIds,
    teamIds,
    weights,
    schedule,
    dailyCap,
    reassignAfterMinutes,
  };
}

function validateWeights(
  input: unknown,
  userIds: string[],
  issues: ValidationIssue[],
): Record<string, number> | null {
  if (!isObject(input)) {
    issues.push({
      path: 'weights',
      message: 'a weighted route needs weights: {userId: percent} for each of its userIds',
    });
    return null;
  }
  const weights: Record<string, number> = {};
  let total = 0;
  for (const [key, value] of Object.entries(input)) {
    const userId = key.toLowerCase();
    if (!userIds.includes(userId)) {
      issues.push({ path: `weights.${key}`, message: "weights are keyed by exactly the route's userIds" });
      continue;
    }
    const { min, max } = ROUTE_LIMITS.weight;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      issues.push({
        path: `weights.${key}`,
        message: `a weight is an integer percent from ${min} to ${max}`,
      });
      continue;
    }
    weights[userId] = value;
    total += value;
  }
  for (const userId of userIds) {
    if (!(userId in weights) && !Object.keys(input).some((key) => key.toLowerCase() === userId)) {
      issues.push({ path: `weights.${userId}`, message: 'every userId of a weighted route needs a weight' });
    }
  }
  if (total !== 100 && Object.keys(weights).length === userIds.length && userIds.length > 0) {
    issues.push({ path: 'weights', message: `weights must total 100 (they total ${total})` });
  }
  if (userIds.length === 0)
    issues.push({ path: 'userIds', message: 'a weighted route needs at least one userId' });
  return weights;
}
