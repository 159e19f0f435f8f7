import type { Statement } from '@app/platform/core';

/**
 * The statements of a routing decision (issue 14 item 4), as pure text (the benchmark runs the
 * same SQL). Order inside one transaction: the organization's routing row is locked first (an
 * upsert that also makes it), then the routes are read with their state, decided on, and the
 * state, the counters and the decision log are written before commit.
 */

const SETTINGS_COLUMNS = `smart_enabled as "smartEnabled", smart_user_ids as "smartUserIds",
  smart_team_ids as "smartTeamIds", today_day as "todayDay", today_counts as "todayCounts",
  last_assigned as "lastAssigned"`;

export interface SettingsRow {
  smartEnabled: boolean;
  smartUserIds: string[] | null;
  smartTeamIds: string[] | null;
  todayDay: string | null;
  todayCounts: Record<string, number>;
  lastAssigned: Record<string, string>;
}

/** Takes the organization's routing lock and answers its row (made on first use). */
export const lockSettingsStatement = (organizationId: string, now: Date): Statement => ({
  sql: `insert into routing_settings (organization_id, updated_at) values (?, ?)
        on conflict (organization_id) do update set organization_id = excluded.organization_id
        returning ${SETTINGS_COLUMNS}`,
  params: [organizationId, now],
});

/** The row without a lock (preview, the routing overview); none yet = defaults. */
export const settingsStatement = (organizationId: string): Statement => ({
  sql: `select ${SETTINGS_COLUMNS} from routing_settings where organization_id = ?`,
  params: [organizationId],
});

export interface RouteRow {
  id: string;
  name: string | null;
  conditions: unknown;
  strategy: 'round_robin' | 'weighted' | 'smart';
  paused: boolean;
  userIds: string[];
  teamIds: string[];
  weights: Record<string, number> | null;
  schedule: { zone: string; days: { day: number; from: string; to: string }[] } | null;
  dailyCap: number | null;
  reassignAfterMinutes: number | null;
  position: number;
  lastAssigneeId: string | null;
  received: Record<string, number> | null;
  todayDay: string | null;
  todayCounts: Record<string, number> | null;
}

/** The organization's routes by position, with their fairness state. */
export const routesStatement = (organizationId: string): Statement => ({
  sql: `select r.id, r.name, r.conditions, r.strategy, r.paused, r.user_ids as "userIds", r.team_ids as "teamIds",
               r.weights, r.schedule, r.daily_cap as "dailyCap", r.reassign_after_minutes as "reassignAfterMinutes",
               r.position, s.last_assignee_id as "lastAssigneeId", s.received, s.today_day as "todayDay",
               s.today_counts as "todayCounts"
          from lead_routes r left join route_state s on s.rule_id = r.id
         where r.organization_id = ?
         order by r.position, r.created_at, r.id`,
  params: [organizationId],
});

/** People away after `now`. */
export const awayStatement = (organizationId: string, now: Date): Statement => ({
  sql: `select user_id as "userId", until from routing_away where organization_id = ? and until > ? order by until, user_id`,
  params: [organizationId, now],
});

/** A route's state after an assignment (whole values: written under the routing lock). */
export const saveRouteStateStatement = (
  organizationId: string,
  ruleId: string,
  state: {
    lastAssigneeId: string;
    received: Record<string, number>;
    todayDay: string;
    todayCounts: Record<string, number>;
  },
): Statement => ({
  sql: `insert into route_state (rule_id, organization_id, last_assignee_id, received, today_day, today_counts)
        values (?, ?, ?, ?::jsonb, ?, ?::jsonb)
        on conflict (rule_id) do update set last_assignee_id = excluded.last_assignee_id,
          received = excluded.received, today_day = excluded.today_day, today_counts = excluded.today_counts`,
  params: [
    ruleId,
    organizationId,
    state.lastAssigneeId,
    JSON.stringify(state.received),
    state.todayDay,
    JSON.stringify(state.todayCounts),
  ],
});

/** The organization's cross-route counters after an assignment. */
export const saveCountersStatement = (
  organizationId: string,
  counters: { todayDay: string; todayCounts: Record<string, number>; lastAssigned: Record<string, string> },
): Statement => ({
  sql: `update routing_settings set today_day = ?, today_counts = ?::jsonb, last_assigned = ?::jsonb
         where organization_id = ?`,
  params: [
    counters.todayDay,
    JSON.stringify(counters.todayCounts),
    JSON.stringify(counters.lastAssigned),
    organizationId,
  ],
});

/** The decision log row of a real assignment. */
export const insertDecisionStatement = (row: {
  id: string;
  organizationId: string;
  leadId: number;
  at: Date;
  trigger: string;
  ruleId: string | null;
  routeName: string | null;
  strategy: string | null;
  smartRouting: boolean;
  userId: string;
  previousUserIds: string[];
  why: string;
  steps: unknown;
  reassignDueAt: Date | null;
  reassignState: string | null;
  chainUserIds: string[];
}): Statement => ({
  sql: `insert into routing_decisions (id, organization_id, lead_id, at, trigger, rule_id, route_name, strategy,
          smart_routing, user_id, previous_user_ids, why, steps, reassign_due_at, reassign_state, chain_user_ids)
        values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::uuid[], ?, ?::jsonb, ?, ?, ?::uuid[])`,
  params: [
    row.id,
    row.organizationId,
    row.leadId,
    row.at,
    row.trigger,
    row.ruleId,
    row.routeName,
    row.strategy,
    row.smartRouting,
    row.userId,
    row.previousUserIds,
    row.why,
    JSON.stringify(row.steps),
    row.reassignDueAt,
    row.reassignState,
    row.chainUserIds,
  ],
});

export interface DueDecisionRow {
  id: string;
  organizationId: string;
  leadId: string;
  at: Date;
  ruleId: string | null;
  userId: string;
  chainUserIds: string[];
}

/** A pending reassignment that is due, locked (another worker's is skipped). */
export const lockDueDecisionStatement = (decisionId: string, now: Date): Statement => ({
  sql: `select id, organization_id as "organizationId", lead_id::text as "leadId", at, rule_id as "ruleId",
               user_id as "userId", chain_user_ids as "chainUserIds"
          from routing_decisions
         where id = ? and reassign_state = 'pending' and reassign_due_at <= ?
         for update skip locked`,
  params: [decisionId, now],
});

/** Pending reassignments due by `now`, soonest first (routing_decisions_due_idx). */
export const dueDecisionsStatement = (now: Date, limit: number): Statement => ({
  sql: `select id from routing_decisions where reassign_state = 'pending' and reassign_due_at <= ?
         order by reassign_due_at limit ?`,
  params: [now, limit],
});

export const finishDecisionStatement = (decisionId: string, state: 'done' | 'dropped'): Statement => ({
  sql: `update routing_decisions set reassign_state = ? where id = ? and reassign_state = 'pending'`,
  params: [state, decisionId],
});
