import { DomainError, type Statement } from '@app/platform/core';
import { ME, type Condition, type ConditionValue, type Field, type FilterGroup } from './queue-grammar';

/**
 * The filter grammar compiled to SQL (issue 13 item 3): a group becomes one predicate over the
 * leads table `l` left-joined to `lead_facts f` (QUEUE_LEADS_FROM), with an EXISTS subquery over
 * notes; tasks and deals are read through their facts (`pending_tasks`, `next_task_due_at`,
 * `overdue_from`, `open_deal_stages`, kept by the CRM services in each task and deal write). Pure: values only ever travel as bound parameters (`?`), never in the
 * text; `now` is an input, so day windows are computed here in UTC and bound as timestamps.
 *
 * Semantics (README "Queues (semantics)", INTERFACES.md "Queues" → Semantics), days in UTC:
 * in_last_n_days N = [today 00:00 − N days, now]; in_last_n_hours N = [now − N h, now];
 * not_in_… = the complement, never included; is_on D = [D, D+1); is_before D = before D 00:00;
 * is_after D = from D+1 00:00; is_between [from, to+1); is_never = null; in_next_n_days N =
 * [today 00:00, today+N+1 00:00); has_none_of includes leads without a value; has_all_of needs
 * every value.
 */

/** What the predicate reads: the lead and its facts row (absent until the lead has a fact). */
export const QUEUE_LEADS_FROM = 'leads l left join lead_facts f on f.lead_id = l.id';

/**
 * Where each field, fact and sort key lives: the one map to edit when a column moves. A lead
 * without a facts row has no calls, tasks or deals: every fact is read with its empty value.
 */
export const QUEUE_COLUMNS = {
  id: 'l.id',
  assigneeIds: 'l.assignee_ids',
  tagIds: 'l.tag_ids',
  crmStatus: 'l.crm_status',
  source: 'l.source',
  leadType: 'l.lead_type',
  preferredLanguage: 'l.language',
  phone: 'l.phone_number',
  email: 'l.email',
  firstName: 'l.first_name',
  createdAt: 'l.created_at',
  purchasedAt: 'l.purchased_at',
  lastCallAt: 'f.last_call_at',
  lastEmailAt: 'f.last_email_at',
  lastTouchAt: 'f.last_touch_at',
  lastInboundAt: 'f.last_inbound_at',
  lastCallStatus: 'f.last_call_status',
  lastCallDirection: 'f.last_call_direction',
  callSignal: `coalesce(f.call_signal, '{}')`,
  unansweredStreak: 'coalesce(f.unanswered_streak, 0)',
  totalCalls: 'coalesce(f.total_calls, 0)',
  pendingTasks: 'coalesce(f.pending_tasks, 0)',
  nextTaskDueAt: 'f.next_task_due_at',
  /** A pending task past due: the lead is overdue from `overdue_from` on; `?` = now. */
  taskOverdue: 'coalesce(f.overdue_from <= ?::timestamptz, false)',
  hasIncompleteTask: 'coalesce(f.pending_tasks, 0) > 0',
  hasOpenDeal: `cardinality(coalesce(f.open_deal_stages, '{}')) > 0`,
  /** Open deals of the lead in one of the bound stages. */
  openDealInStages: `coalesce(f.open_deal_stages, '{}') && ?::text[]`,
  /** A note of the lead containing the bound pattern (case-insensitive). */
  noteMatching: `exists (select 1 from notes n where n.lead_id = l.id and n.content ilike ? escape '\\')`,
} as const;

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** `$me` with nobody to stand for (a job), or a value the compiler cannot use: 400 BAD_REQUEST. */
export class QueueCompileError extends DomainError {
  constructor(message: string) {
    super('BAD_REQUEST', message);
    this.name = 'QueueCompileError';
  }
}

export interface CompileContext {
  /** The moment the windows are measured from. */
  now: Date;
  /** The person `$me` stands for; null when nobody opens the queue (a job). */
  viewerId: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A PostgreSQL array literal (bound as one text parameter and cast), every element quoted. */
export const arrayLiteral = (values: readonly string[]): string =>
  `{${values.map((value) => `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`;

export const escapeLike = (term: string): string => term.replace(/[\\%_]/g, (c) => `\\${c}`);

/** 00:00 UTC of the day `at` falls on, moved by `days`. */
export const utcDay = (at: Date, days = 0): Date =>
  new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()) + days * DAY_MS);

/** 00:00 UTC of a `YYYY-MM-DD`, moved by `days`. */
const dayOf = (value: string, days = 0): Date => new Date(Date.parse(`${value}T00:00:00Z`) + days * DAY_MS);

const iso = (at: Date) => at.toISOString();
const stringsOf = (value: ConditionValue): string[] => (value.kind === 'strings' ? value.values : []);
const TRUE: Statement = { sql: 'true', params: [] };
const FALSE: Statement = { sql: 'false', params: [] };

function join(parts: Statement[], combinator: 'and' | 'or'): Statement {
  if (parts.length === 0) return TRUE;
  if (parts.length === 1) return parts[0];
  return {
    sql: `(${parts.map((part) => part.sql).join(` ${combinator} `)})`,
    params: parts.flatMap((part) => part.params),
  };
}

const not = (part: Statement): Statement => ({ sql: `not (${part.sql})`, params: part.params });

/** The group as one predicate; an empty group is `true` (every lead). */
export function compileGroup(group: FilterGroup, context: CompileContext): Statement {
  return join(
    group.children.map((child) =>
      child.type === 'group' ? compileGroup(child, context) : compileCondition(child, context),
    ),
    group.combinator,
  );
}

/** The one predicate of a condition, always parenthesised or atomic so it composes. */
export function compileCondition(condition: Condition, context: CompileContext): Statement {
  const { field, operator, value } = condition;
  switch (field) {
    case 'assignee':
      if (operator === 'is_unassigned')
        return { sql: `cardinality(${QUEUE_COLUMNS.assigneeIds}) = 0`, params: [] };
      return idSet(QUEUE_COLUMNS.assigneeIds, operator, withViewer(stringsOf(value), context));
    case 'tag':
      return idSet(QUEUE_COLUMNS.tagIds, operator, stringsOf(value));
    case 'crmStatus':
    case 'source':
      return oneOf(QUEUE_COLUMNS[field], operator, stringsOf(value));
    case 'leadType':
    case 'lastCallStatus':
    case 'lastCallDirection':
      return oneOf(QUEUE_COLUMNS[field], operator, stringsOf(value));
    case 'preferredLanguage':
      return language(operator, stringsOf(value));
    case 'phone':
    case 'email':
      return { sql: `${QUEUE_COLUMNS[field]} ${operator === 'is_present' ? '<>' : '='} ''`, params: [] };
    case 'createdAt':
    case 'lastCallAt':
    case 'lastEmailAt':
    case 'lastTouchAt':
    case 'lastInboundAt':
    case 'nextTaskDueAt':
      return moment(QUEUE_COLUMNS[field], operator, value, context.now);
    case 'taskOverdue':
      return flag({ sql: QUEUE_COLUMNS.taskOverdue, params: [iso(context.now)] }, operator, value);
    case 'hasIncompleteTask':
    case 'hasOpenDeal':
      return flag({ sql: QUEUE_COLUMNS[field], params: [] }, operator, value);
    case 'unansweredStreak':
      return count(QUEUE_COLUMNS.unansweredStreak, operator, value);
    case 'callCount':
      return count(QUEUE_COLUMNS.totalCalls, operator, value);
    case 'callSignal': {
      const overlaps = {
        sql: `${QUEUE_COLUMNS.callSignal} && ?::text[]`,
        params: [arrayLiteral(stringsOf(value))],
      };
      return operator === 'has_any_of' ? overlaps : not(overlaps);
    }
    case 'notesContain': {
      const term = value.kind === 'string' ? value.value : '';
      return { sql: QUEUE_COLUMNS.noteMatching, params: [`%${escapeLike(term)}%`] };
    }
    case 'dealStage': {
      const inStages = { sql: QUEUE_COLUMNS.openDealInStages, params: [arrayLiteral(stringsOf(value))] };
      return operator === 'has_any_of' ? inStages : not(inStages);
    }
  }
  return unreachable(field);
}

function unreachable(field: never): never {
  throw new QueueCompileError(`The field ${String(field)} cannot be compiled.`);
}

/** `$me` replaced by the viewer; without one the queue cannot be read (400). */
function withViewer(values: string[], context: CompileContext): string[] {
  return values.map((value) => {
    if (value !== ME) return value;
    if (!context.viewerId) throw new QueueCompileError('"$me" needs a person; this read has none.');
    return context.viewerId;
  });
}

/**
 * A uuid[] column against ids. Ids are not checked against the organization: an unknown id (or a
 * string that is no UUID at all) matches nothing, so it drops out of "any" and "none" and makes
 * "all" impossible.
 */
function idSet(column: string, operator: Condition['operator'], values: string[]): Statement {
  const ids = [...new Set(values.filter((value) => UUID.test(value)).map((value) => value.toLowerCase()))];
  const bound = [arrayLiteral(ids)];
  switch (operator) {
    case 'has_any_of':
      return ids.length === 0 ? FALSE : { sql: `${column} && ?::uuid[]`, params: bound };
    case 'has_all_of':
      if (values.some((value) => !UUID.test(value))) return FALSE;
      return { sql: `${column} @> ?::uuid[]`, params: bound };
    default:
      return ids.length === 0 ? TRUE : { sql: `not (${column} && ?::uuid[])`, params: bound };
  }
}

/** A single-valued text column; `has_none_of` includes leads without a value. */
function oneOf(column: string, operator: Condition['operator'], values: string[]): Statement {
  const params = [arrayLiteral(values)];
  return operator === 'has_any_of'
    ? { sql: `${column} = any(?::text[])`, params }
    : { sql: `(${column} is null or not (${column} = any(?::text[])))`, params };
}

/**
 * `en` matches `en` and `en-*`; `en-GB` only `en-GB`; case-insensitive. A value without a region
 * is compared with the stored tag's first part too.
 */
function language(operator: Condition['operator'], values: string[]): Statement {
  const column = QUEUE_COLUMNS.preferredLanguage;
  const exact = values.map((value) => value.toLowerCase());
  const primary = exact.filter((value) => !value.includes('-'));
  const match = {
    sql: `(lower(${column}) = any(?::text[]) or split_part(lower(${column}), '-', 1) = any(?::text[]))`,
    params: [arrayLiteral(exact), arrayLiteral(primary)],
  };
  return operator === 'has_any_of'
    ? match
    : { sql: `(${column} is null or not ${match.sql})`, params: match.params };
}

/** A timestamp column against the UTC windows of the semantics table; bounds bound as timestamps. */
function moment(
  column: string,
  operator: Condition['operator'],
  value: ConditionValue,
  now: Date,
): Statement {
  const within = (from: Date, to: Date, toInclusive: boolean): Statement => ({
    sql: `(${column} >= ?::timestamptz and ${column} ${toInclusive ? '<=' : '<'} ?::timestamptz)`,
    params: [iso(from), iso(to)],
  });
  const outside = (inside: Statement): Statement => ({
    sql: `(${column} is null or not ${inside.sql})`,
    params: inside.params,
  });
  const n = value.kind === 'integer' ? value.value : 0;
  const day = value.kind === 'date' ? value.value : '';
  switch (operator) {
    case 'in_last_n_days':
      return within(utcDay(now, -n), now, true);
    case 'not_in_last_n_days':
      return outside(within(utcDay(now, -n), now, true));
    case 'in_last_n_hours':
      return within(new Date(now.getTime() - n * HOUR_MS), now, true);
    case 'not_in_last_n_hours':
      return outside(within(new Date(now.getTime() - n * HOUR_MS), now, true));
    case 'in_next_n_days':
      return within(utcDay(now), utcDay(now, n + 1), false);
    case 'is_on':
      return within(dayOf(day), dayOf(day, 1), false);
    case 'is_before':
      return { sql: `${column} < ?::timestamptz`, params: [iso(dayOf(day))] };
    case 'is_after':
      return { sql: `${column} >= ?::timestamptz`, params: [iso(dayOf(day, 1))] };
    case 'is_between':
      return value.kind === 'dateRange' ? within(dayOf(value.from), dayOf(value.to, 1), false) : FALSE;
    default:
      return { sql: `${column} is null`, params: [] };
  }
}

/** `is_true` with `{value: true}` (or `is_false` with false) asks for the fact; the other pairs for its absence. */
function flag(fact: Statement, operator: Condition['operator'], value: ConditionValue): Statement {
  const wanted = value.kind === 'boolean' ? value.value : true;
  return (operator === 'is_true') === wanted ? fact : not(fact);
}

function count(column: string, operator: Condition['operator'], value: ConditionValue): Statement {
  if (value.kind === 'integerRange') {
    return { sql: `${column} between ?::int and ?::int`, params: [value.min, value.max] };
  }
  const n = value.kind === 'integer' ? value.value : 0;
  const sign = operator === 'lt' ? '<' : operator === 'gt' ? '>' : '=';
  return { sql: `${column} ${sign} ?::int`, params: [n] };
}

/** Fields a filter names, for callers that want to know what it reads. */
export const fieldsOf = (group: FilterGroup): Field[] =>
  group.children.flatMap((child) => (child.type === 'group' ? fieldsOf(child) : [child.field]));
