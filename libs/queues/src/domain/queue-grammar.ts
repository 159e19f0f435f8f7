/**
 * The queue filter grammar (spec "Queue", INTERFACES.md "Queues"): groups of conditions over lead
 * fields, the operators each field takes and the value each operator takes. The one table the
 * validator checks against and the compiler and the description read.
 */

export const CRM_STATUSES = ['lead', 'potential', 'bad_timing', 'client', 'unqualified'] as const;
export const CALL_STATUSES = ['completed', 'no-answer', 'busy', 'failed', 'canceled'] as const;
export const CALL_DIRECTIONS = ['inbound', 'outbound'] as const;
/** The stages of a deal while it is open (spec "Deal"); the CRM's `DEAL_STAGES`, which domain code may not import. */
export const DEAL_STAGES = ['qualified', 'viewing', 'offer', 'reserved', 'under_contract'] as const;
export const CALL_SIGNAL = /^call\.[a-z0-9_]{1,60}$/;

export type CrmStatusValue = (typeof CRM_STATUSES)[number];

export const FIELDS = [
  'assignee',
  'tag',
  'crmStatus',
  'source',
  'leadType',
  'preferredLanguage',
  'phone',
  'email',
  'createdAt',
  'lastCallAt',
  'lastEmailAt',
  'lastTouchAt',
  'lastInboundAt',
  'nextTaskDueAt',
  'taskOverdue',
  'hasIncompleteTask',
  'hasOpenDeal',
  'lastCallStatus',
  'lastCallDirection',
  'unansweredStreak',
  'callCount',
  'callSignal',
  'notesContain',
  'dealStage',
] as const;
export type Field = (typeof FIELDS)[number];

export const OPERATORS = [
  'has_any_of',
  'has_all_of',
  'has_none_of',
  'is_unassigned',
  'is_present',
  'is_missing',
  'in_last_n_days',
  'not_in_last_n_days',
  'in_last_n_hours',
  'not_in_last_n_hours',
  'in_next_n_days',
  'is_on',
  'is_before',
  'is_after',
  'is_between',
  'is_never',
  'is_true',
  'is_false',
  'eq',
  'lt',
  'gt',
  'between',
  'contains',
] as const;
export type Operator = (typeof OPERATORS)[number];

export type ConditionValue =
  | { kind: 'strings'; values: string[] }
  | { kind: 'integer'; value: number }
  | { kind: 'integerRange'; min: number; max: number }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'string'; value: string }
  | { kind: 'empty' }
  | { kind: 'date'; value: string }
  | { kind: 'dateRange'; from: string; to: string };
export type ValueKind = ConditionValue['kind'];

export interface Condition {
  type: 'condition';
  field: Field;
  operator: Operator;
  value: ConditionValue;
}

export interface FilterGroup {
  type: 'group';
  combinator: 'and' | 'or';
  /** Conditions, or (one level down only) groups of conditions. */
  children: (Condition | FilterGroup)[];
}

/** What an operator takes: the value kind(s) and, for strings, what each value may be. */
export interface ValueRule {
  kinds: readonly ValueKind[];
  /** strings: the allowed values. */
  oneOf?: readonly string[];
  /** strings: a pattern each value matches. */
  pattern?: RegExp;
  /** strings: `$me` (the viewer) is allowed. */
  me?: boolean;
  /** strings: only an empty list (`is_unassigned`); otherwise 1-100 values. */
  emptyListOnly?: boolean;
  /** integer: the largest value (0 is the smallest). */
  max?: number;
}

export const LIMITS = {
  name: 40,
  lanes: 8,
  rules: 10,
  children: 25,
  values: 100,
  valueLength: 200,
  integer: 100_000,
  days: 3_650,
  hours: 8_760,
  coolDownMinutes: 1_440,
  followUpDays: 365,
} as const;

export const ME = '$me';

const strings = (extra: Omit<ValueRule, 'kinds'> = {}): ValueRule => ({ kinds: ['strings'], ...extra });
const EMPTY: ValueRule = { kinds: ['empty'] };
const DATE: ValueRule = { kinds: ['date'] };
const BOOLEAN: ValueRule = { kinds: ['boolean'] };
const DAYS: ValueRule = { kinds: ['integer'], max: LIMITS.days };
const HOURS: ValueRule = { kinds: ['integer'], max: LIMITS.hours };
const COUNT: ValueRule = { kinds: ['integer'], max: LIMITS.integer };

const anyNone = (rule: ValueRule) => ({ has_any_of: rule, has_none_of: rule });
const sets = (rule: ValueRule) => ({ ...anyNone(rule), has_all_of: rule });
const moment = {
  in_last_n_days: DAYS,
  not_in_last_n_days: DAYS,
  in_last_n_hours: HOURS,
  not_in_last_n_hours: HOURS,
  is_on: DATE,
  is_before: DATE,
  is_after: DATE,
  is_between: { kinds: ['dateRange'] } as ValueRule,
  is_never: EMPTY,
};
const flag = { is_true: BOOLEAN, is_false: BOOLEAN };
const count = { eq: COUNT, lt: COUNT, gt: COUNT, between: { kinds: ['integerRange'] } as ValueRule };

/** Spec "Queue": the fields and operators table. */
export const GRAMMAR: Record<Field, Partial<Record<Operator, ValueRule>>> = {
  assignee: {
    ...sets(strings({ me: true })),
    is_unassigned: { kinds: ['empty', 'strings'], emptyListOnly: true },
  },
  tag: sets(strings()),
  crmStatus: anyNone(strings({ oneOf: CRM_STATUSES })),
  source: anyNone(strings()),
  leadType: anyNone(strings()),
  preferredLanguage: anyNone(strings()),
  phone: { is_present: EMPTY, is_missing: EMPTY },
  email: { is_present: EMPTY, is_missing: EMPTY },
  createdAt: moment,
  lastCallAt: moment,
  lastEmailAt: moment,
  lastTouchAt: moment,
  lastInboundAt: moment,
  nextTaskDueAt: {
    in_next_n_days: DAYS,
    is_before: DATE,
    is_after: DATE,
    is_between: moment.is_between,
    is_on: DATE,
    is_never: EMPTY,
  },
  taskOverdue: flag,
  hasIncompleteTask: flag,
  hasOpenDeal: flag,
  lastCallStatus: anyNone(strings({ oneOf: CALL_STATUSES })),
  lastCallDirection: anyNone(strings({ oneOf: CALL_DIRECTIONS })),
  unansweredStreak: count,
  callCount: count,
  callSignal: anyNone(strings({ pattern: CALL_SIGNAL })),
  notesContain: { contains: { kinds: ['string'] } },
  dealStage: anyNone(strings({ oneOf: DEAL_STAGES })),
};

export const SORT_KEYS = [
  'purchasedAt',
  'nextTaskDueAt',
  'lastCallAt',
  'lastTouchAt',
  'lastInboundAt',
  'totalCalls',
  'pendingTasks',
  'firstName',
  'crmStatus',
] as const;
export type SortKey = (typeof SORT_KEYS)[number];

export interface QueueSort {
  key: SortKey;
  dir: 'asc' | 'desc';
}

/** An empty `and` group: every lead (a lane's "the rest", a rule's "every lead of the queue"). */
export const everyLead = (): FilterGroup => ({ type: 'group', combinator: 'and', children: [] });

export const isEmptyGroup = (group: FilterGroup): boolean => group.children.length === 0;
