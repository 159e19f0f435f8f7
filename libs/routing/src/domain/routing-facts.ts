import type { ValidationIssue } from '@app/platform/core';

/**
 * Route conditions: the queues' group shape (`{type: 'group', combinator, children}` with
 * `{type: 'condition', field, operator, value}` children, one level of nested groups) over the
 * ROUTING FACTS of one arriving lead. The queues grammar is not reused: it compiles to SQL over
 * lead columns, allows `$me`, and a domain file may not import another context. Routing decides
 * one lead at a time, so conditions are evaluated here in JS against the facts object.
 */

export const ROUTING_FACTS = [
  'source',
  'origin',
  'leadType',
  'language',
  'country',
  'tagIds',
  'growthAreaId',
  'hasPhone',
  'hasEmail',
  'arrivedAt',
] as const;
export type RoutingFact = (typeof ROUTING_FACTS)[number];

/** The facts of one lead (from the lead and its intake record; preview may override each). */
export interface RoutingFacts {
  source: string | null;
  origin: string | null;
  leadType: string | null;
  language: string | null;
  country: string | null;
  tagIds: string[];
  growthAreaId: string | null;
  hasPhone: boolean;
  hasEmail: boolean;
  /** ISO date-time (= the lead's createdAt). */
  arrivedAt: string;
}

export type FactValue =
  { kind: 'strings'; values: string[] } | { kind: 'empty' } | { kind: 'date'; value: string };

export interface FactCondition {
  type: 'condition';
  field: RoutingFact;
  operator: FactOperator;
  value: FactValue;
}

export interface FactGroup {
  type: 'group';
  combinator: 'and' | 'or';
  children: (FactCondition | FactGroup)[];
}

export const FACT_OPERATORS = [
  'has_any_of',
  'has_all_of',
  'has_none_of',
  'is_present',
  'is_missing',
  'is_true',
  'is_false',
  'is_before',
  'is_after',
] as const;
export type FactOperator = (typeof FACT_OPERATORS)[number];

export const ME = '$me';
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const CONDITION_LIMITS = { children: 25, values: 100, valueLength: 200 } as const;

type Kind = FactValue['kind'];
const TEXT: Partial<Record<FactOperator, Kind>> = {
  has_any_of: 'strings',
  has_none_of: 'strings',
  is_present: 'empty',
  is_missing: 'empty',
};
/** Which operators each fact takes, and the value kind of each. */
export const FACT_GRAMMAR: Record<RoutingFact, Partial<Record<FactOperator, Kind>>> = {
  source: TEXT,
  origin: TEXT,
  leadType: TEXT,
  language: TEXT,
  country: TEXT,
  growthAreaId: TEXT,
  tagIds: {
    has_any_of: 'strings',
    has_all_of: 'strings',
    has_none_of: 'strings',
    is_present: 'empty',
    is_missing: 'empty',
  },
  hasPhone: { is_true: 'empty', is_false: 'empty' },
  hasEmail: { is_true: 'empty', is_false: 'empty' },
  arrivedAt: { is_before: 'date', is_after: 'date' },
};
const ID_FACTS: readonly RoutingFact[] = ['tagIds', 'growthAreaId'];
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Checks a conditions group (null allowed by the caller); answers the normalized group or issues. */
export function validateConditions(
  input: unknown,
  path: string,
  issues: ValidationIssue[],
  depth = 0,
): FactGroup | null {
  if (!isObject(input) || input.type !== 'group') {
    issues.push({ path, message: `${path} must be a group {type: "group", combinator, children}` });
    return null;
  }
  const combinator = input.combinator ?? 'and';
  if (combinator !== 'and' && combinator !== 'or') {
    issues.push({ path: `${path}.combinator`, message: 'combinator must be "and" or "or"' });
  }
  const children = input.children ?? [];
  if (!Array.isArray(children)) {
    issues.push({ path: `${path}.children`, message: 'children must be an array' });
    return null;
  }
  if (children.length > CONDITION_LIMITS.children) {
    issues.push({
      path: `${path}.children`,
      message: `a group holds at most ${CONDITION_LIMITS.children} children`,
    });
  }
  const out: (FactCondition | FactGroup)[] = [];
  children.forEach((child, index) => {
    const at = `${path}.children[${index}]`;
    if (isObject(child) && child.type === 'group') {
      if (depth > 0) issues.push({ path: at, message: 'groups nest one level only' });
      else {
        const group = validateConditions(child, at, issues, depth + 1);
        if (group) out.push(group);
      }
      return;
    }
    const condition = validateCondition(child, at, issues);
    if (condition) out.push(condition);
  });
  return { type: 'group', combinator: combinator as 'and' | 'or', children: out };
}

function validateCondition(input: unknown, path: string, issues: ValidationIssue[]): FactCondition | null {
  if (!isObject(input) || input.type !== 'condition') {
    issues.push({ path, message: 'each child must be a condition or a group' });
    return null;
  }
  const field = input.field as RoutingFact;
  if (typeof field !== 'string' || !(ROUTING_FACTS as readonly string[]).includes(field)) {
    issues.push({
      path: `${path}.field`,
      message: `field must be a routing fact: ${ROUTING_FACTS.join(', ')}`,
    });
    return null;
  }
  const operator = input.operator as FactOperator;
  const kind = typeof operator === 'string' ? FACT_GRAMMAR[field][operator] : undefined;
  if (!kind) {
    const allowed = Object.keys(FACT_GRAMMAR[field]).join(', ');
    issues.push({ path: `${path}.operator`, message: `${field} takes the operators ${allowed}` });
    return null;
  }
  const value = input.value ?? { kind: 'empty' };
  if (!isObject(value) || value.kind !== kind) {
    issues.push({ path: `${path}.value`, message: `${operator} takes a value of kind ${kind}` });
    return null;
  }
  if (kind === 'empty') return { type: 'condition', field, operator, value: { kind: 'empty' } };
  if (kind === 'date') {
    if (
      typeof value.value !== 'string' ||
      !ISO_DATE.test(value.value) ||
      Number.isNaN(Date.parse(value.value))
    ) {
      issues.push({ path: `${path}.value.value`, message: 'value must be an ISO date or date-time' });
      return null;
    }
    return { type: 'condition', field, operator, value: { kind: 'date', value: value.value } };
  }
  const values = value.values;
  if (!Array.isArray(values) || values.length < 1 || values.length > CONDITION_LIMITS.values) {
    issues.push({
      path: `${path}.value.values`,
      message: `values must hold 1-${CONDITION_LIMITS.values} strings`,
    });
    return null;
  }
  let ok = true;
  values.forEach((item, index) => {
    const at = `${path}.value.values[${index}]`;
    if (typeof item !== 'string' || item.length < 1 || item.length > CONDITION_LIMITS.valueLength) {
      issues.push({
        path: at,
        message: `each value is a string of 1-${CONDITION_LIMITS.valueLength} characters`,
      });
      ok = false;
    } else if (item === ME) {
      issues.push({
        path: at,
        message: '$me has no meaning in routing: a lead is routed before anyone views it',
      });
      ok = false;
    } else if (ID_FACTS.includes(field) && !UUID.test(item)) {
      issues.push({ path: at, message: `${field} values must be uuids` });
      ok = false;
    }
  });
  return ok
    ? { type: 'condition', field, operator, value: { kind: 'strings', values: [...values] as string[] } }
    : null;
}

/** Does the lead with these facts meet the group? An empty group (or null) takes every lead. */
export function matchesConditions(group: FactGroup | null, facts: RoutingFacts): boolean {
  if (!group || group.children.length === 0) return true;
  const test = (child: FactCondition | FactGroup): boolean =>
    child.type === 'group' ? matchesConditions(child, facts) : matchesCondition(child, facts);
  return group.combinator === 'and' ? group.children.every(test) : group.children.some(test);
}

const fold = (value: string): string => value.toLowerCase();

function matchesCondition(condition: FactCondition, facts: RoutingFacts): boolean {
  const { field, operator, value } = condition;
  if (field === 'hasPhone' || field === 'hasEmail')
    return operator === 'is_true' ? facts[field] : !facts[field];
  if (field === 'arrivedAt') {
    const arrived = Date.parse(facts.arrivedAt);
    const bound = Date.parse((value as { value: string }).value);
    return operator === 'is_before' ? arrived < bound : arrived > bound;
  }
  const present: string[] =
    field === 'tagIds' ? facts.tagIds : facts[field] == null ? [] : [facts[field] as string];
  if (operator === 'is_present') return present.length > 0;
  if (operator === 'is_missing') return present.length === 0;
  const have = new Set(present.map(fold));
  const wanted = (value as { values: string[] }).values.map(fold);
  if (operator === 'has_any_of') return wanted.some((item) => have.has(item));
  if (operator === 'has_all_of') return wanted.every((item) => have.has(item));
  return !wanted.some((item) => have.has(item)); // has_none_of
}
