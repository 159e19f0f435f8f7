import type { Statement, TransactionSettings } from '@app/platform/core';
import { compileGroup, QUEUE_COLUMNS, QUEUE_LEADS_FROM, type CompileContext } from './filter-compiler';
import { effectiveLanes, type QueueDefinition, type QueueLane } from './queue-definition';
import { CRM_STATUSES, isEmptyGroup, type QueueSort, type SortKey } from './queue-grammar';

/**
 * The lane and order half of a preview (issue 13 item 4) as pure SQL: the lane index of a lead
 * (first match wins; an empty `when` takes the rest; no lanes = one lane `all`), each lane's order
 * and, on top, the whole preview as ONE statement over a population the caller gives (who the
 * viewer reaches, or the organization for a team queue's people).
 */

export const ROWS_PER_LANE = 10;

/**
 * The preview transaction's settings, before its statement: the time bound (503 past it); no JIT
 * (the statement's estimated cost over a whole agency passes `jit_above_cost`, and compiling it
 * cost ~800 ms per run while the statement itself runs in ~150 ms: bench/README.md "Issue 13");
 * enough `work_mem` for the lanes' ranking sort of every lead of an agency to stay in memory.
 */
export const previewSettings = (timeoutMs: number): TransactionSettings => ({
  statement_timeout: String(Math.trunc(timeoutMs)),
  jit: 'off',
  work_mem: '32MB',
});

/** The value each sort key orders by; `crmStatus` in the spec's order, `firstName` case-insensitively. */
export const SORT_KEY_SQL: Record<SortKey, string> = {
  purchasedAt: QUEUE_COLUMNS.purchasedAt,
  nextTaskDueAt: QUEUE_COLUMNS.nextTaskDueAt,
  lastCallAt: QUEUE_COLUMNS.lastCallAt,
  lastTouchAt: QUEUE_COLUMNS.lastTouchAt,
  lastInboundAt: QUEUE_COLUMNS.lastInboundAt,
  totalCalls: QUEUE_COLUMNS.totalCalls,
  pendingTasks: QUEUE_COLUMNS.pendingTasks,
  firstName: `lower(${QUEUE_COLUMNS.firstName})`,
  // the position in a fixed list of the code's own constants (no input reaches this text)
  crmStatus: `array_position(array[${CRM_STATUSES.map((s) => `'${s}'`).join(', ')}]::text[], ${QUEUE_COLUMNS.crmStatus})`,
};

/** Without a sort: `lastCallAt` ascending, never-called leads first. */
export const DEFAULT_ORDER = { key: 'lastCallAt', dir: 'asc', nullsFirst: true } as const;

export interface EffectiveOrder {
  key: SortKey;
  dir: 'asc' | 'desc';
  /** Only the default order puts nulls (never called) first; explicit sorts put them last. */
  nullsFirst: boolean;
}

/** The lane's sort, else the queue's, else the default. */
export function orderOf(laneSort: QueueSort | null, queueSort: QueueSort | null): EffectiveOrder {
  const sort = laneSort ?? queueSort;
  return sort ? { key: sort.key, dir: sort.dir, nullsFirst: false } : { ...DEFAULT_ORDER };
}

const nulls = (order: EffectiveOrder) => (order.nullsFirst ? 'nulls first' : 'nulls last');

/** ORDER BY for one lane over `l`/`f`: its key, then the lead id (ties). */
export function orderSql(order: EffectiveOrder): string {
  return `${SORT_KEY_SQL[order.key]} ${order.dir} ${nulls(order)}, ${QUEUE_COLUMNS.id} asc`;
}

/**
 * The lead's lane index: `case when <lane 0> then 0 when <lane 1> then 1 … end`, null for the rest.
 * An empty `when` is `true`, so it takes every lead no earlier lane took.
 */
export function laneIndexSql(lanes: QueueLane[], context: CompileContext): Statement {
  const arms = lanes.map((lane, index) => {
    const when = isEmptyGroup(lane.when) ? { sql: 'true', params: [] } : compileGroup(lane.when, context);
    return { sql: `when ${when.sql} then ${index}`, params: when.params };
  });
  return {
    sql: `(case ${arms.map((arm) => arm.sql).join(' ')} end)`,
    params: arms.flatMap((arm) => arm.params),
  };
}

/** Leads called within `coolDownMinutes` before `now` are in no lane, row or rest count. */
export function coolingSql(coolDownMinutes: number, now: Date): Statement {
  if (coolDownMinutes === 0) return { sql: 'false', params: [] };
  return {
    sql: `coalesce(${QUEUE_COLUMNS.lastCallAt} > ?::timestamptz, false)`,
    params: [new Date(now.getTime() - coolDownMinutes * 60_000).toISOString()],
  };
}

/**
 * The whole preview in one statement. Answers one row per shown lead (at most 10 per lane, and 10
 * rest rows with `lane` null when `rest` is `last`), ordered by lane then rank, each row carrying
 * the counts (`lane_counts[i]`, `rest_count`, `cooling_count`, `offer_counts[j]`); with no lead to
 * show, one row with the counts and null lead columns. `sort_value` is the value the row's order
 * used (for the row's `reason`).
 */
export function queuePreviewStatement(
  population: Statement,
  definition: Pick<QueueDefinition, 'root' | 'lanes' | 'rest' | 'sort' | 'calling' | 'rules'>,
  context: CompileContext,
): Statement {
  const lanes = effectiveLanes(definition);
  const orders = lanes.map((lane) => orderOf(lane.sort, definition.sort));
  const restOrder = orderOf(null, definition.sort);
  const keys = [...new Set([...orders, restOrder].map((order) => order.key))];
  const laneIndex = laneIndexSql(lanes, context);
  const cooling = coolingSql(definition.calling.coolDownMinutes, context.now);
  const rules = definition.rules.map((rule) => compileGroup(rule.if, context));
  const root = compileGroup(definition.root, context);

  const keyColumn = (key: SortKey) => `k_${key}`;
  /**
   * The first rows of one lane (or of the rest, `lane is null`): a top-N of that lane's leads in
   * its order (never a sort of the whole agency), ranked again within those few rows.
   */
  const firstRows = (laneFilter: string, order: EffectiveOrder) => {
    const by = (alias: string) =>
      `${alias}${keyColumn(order.key)} ${order.dir} ${nulls(order)}, ${alias}id asc`;
    return `select x.id, x.lane, to_jsonb(x.${keyColumn(order.key)}) as sort_value,
                   row_number() over (order by ${by('x.')}) as rank
              from (select id, lane, ${keyColumn(order.key)} from q
                     where not cooling and ${laneFilter}
                     order by ${by('')} limit ${ROWS_PER_LANE}) x`;
  };
  const shown = [
    ...orders.map((order, index) => firstRows(`lane = ${index}`, order)),
    ...(definition.rest === 'last' ? [firstRows('lane is null', restOrder)] : []),
  ];
  const counted = (filter: string) => `count(*) filter (where not cooling and ${filter})::int`;
  const laneCounts = lanes.map((_, index) => counted(`lane = ${index}`));
  const offerCounts = rules.map((_, index) => counted(`r_${index}`));

  const sql = `with q as materialized (
      select l.id, ${laneIndex.sql} as lane, ${cooling.sql} as cooling
             ${rules.map((rule, index) => `, ${rule.sql} as r_${index}`).join('')}
             ${keys.map((key) => `, ${SORT_KEY_SQL[key]} as ${keyColumn(key)}`).join('')}
        from ${QUEUE_LEADS_FROM}
       where ${population.sql} and ${root.sql}
    ),
    counts as (
      select array[${laneCounts.join(', ')}]::int[] as lane_counts,
             ${counted('lane is null')} as rest_count,
             count(*) filter (where cooling)::int as cooling_count,
             ${offerCounts.length > 0 ? `array[${offerCounts.join(', ')}]::int[]` : `'{}'::int[]`} as offer_counts
        from q
    ),
    ranked as (
      ${shown.join('\n      union all\n      ')}
    )
    select c.lane_counts, c.rest_count, c.cooling_count, c.offer_counts,
           r.id, l.first_name, l.last_name, r.lane, r.sort_value
      from counts c
      left join (ranked r join leads l on l.id = r.id) on true
     order by r.lane asc nulls last, r.rank asc`;
  return {
    sql,
    params: [
      ...laneIndex.params,
      ...cooling.params,
      ...rules.flatMap((rule) => rule.params),
      ...population.params,
      ...root.params,
    ],
  };
}
