import { validationFailed, type ValidationIssue } from '@app/platform/core';
import {
  CRM_STATUSES,
  everyLead,
  FIELDS,
  GRAMMAR,
  LIMITS,
  ME,
  OPERATORS,
  SORT_KEYS,
  type Condition,
  type ConditionValue,
  type Field,
  type FilterGroup,
  type Operator,
  type QueueSort,
  type ValueRule,
} from './queue-grammar';

/**
 * A queue's definition (spec "Queue", INTERFACES.md "Queues" → Definition) and its one check:
 * `validateQueueDefinition` takes the JSON a client sent and answers the normalized definition
 * (defaults filled, lane and rule ids made) or every issue found, each with the path of the value
 * (`lanes[1].when.children[0].value`), for 400 VALIDATION_FAILED.
 */

export type QueueScope = 'private' | 'shared';
export type QueueRest = 'hide' | 'last';
export type CallingPool = 'owners' | 'team';
export const OFFER_TRIGGERS = ['call_ended', 'task_completed', 'time_passed'] as const;
export type OfferTrigger = (typeof OFFER_TRIGGERS)[number];
export const OFFER_KINDS = ['set_status', 'add_tag', 'remove_tag', 'assign', 'follow_up'] as const;

export interface QueueLane {
  id: string;
  name: string;
  /** First matching lane wins; an empty group takes every lead no earlier lane took. */
  when: FilterGroup;
  sort: QueueSort | null;
}

export interface QueuePeople {
  userIds: string[];
  teamIds: string[];
}

export interface QueueCalling {
  pool: CallingPool;
  coolDownMinutes: number;
  /** The team of a `team` pool; null for `owners`. */
  people: QueuePeople | null;
}

export type QueueOffer =
  | { kind: 'set_status'; status: (typeof CRM_STATUSES)[number] }
  | { kind: 'add_tag'; tagId: string }
  | { kind: 'remove_tag'; tagId: string }
  | { kind: 'assign'; userId: string }
  | { kind: 'follow_up'; inDays: number };

export interface OfferRule {
  id: string;
  when: OfferTrigger;
  /** An empty group offers to every lead of the queue. */
  if: FilterGroup;
  offer: QueueOffer;
}

export interface QueueDefinition {
  name: string;
  icon: string;
  scope: QueueScope;
  root: FilterGroup;
  lanes: QueueLane[];
  rest: QueueRest;
  sort: QueueSort | null;
  calling: QueueCalling;
  rules: OfferRule[];
}

/** Who may be named in `calling.people` and an `assign` offer: the organization's people and teams. */
export interface QueueDirectory {
  userIds: ReadonlySet<string>;
  teamIds: ReadonlySet<string>;
}

export interface ValidateOptions {
  /** When set, `name` may be left out and takes this value (a preview's ad-hoc definition). */
  defaultName?: string;
  /** When set, ids in `calling.people` and `assign` must be of the organization. */
  directory?: QueueDirectory;
}

export type QueueDefinitionResult =
  { ok: true; definition: QueueDefinition } | { ok: false; issues: ValidationIssue[] };

export const DEFAULT_ICON = 'phone';
export const DEFAULT_COOL_DOWN_MINUTES = 120;
export const ICON = /^[a-z0-9-]{1,40}$/;
export const LANE_ID = /^[a-z0-9][a-z0-9_-]{0,39}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isInteger = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);
const list = (values: readonly string[]) => values.join(', ');

/** A `YYYY-MM-DD` that names a real day. */
export function isDay(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = DATE.exec(value);
  if (!match) return false;
  const day = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(value);
}

/** A lane id made from its name: lower-case letters, digits and dashes, up to 40 characters. */
export function slugOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/g, '');
  return slug || 'lane';
}

/** `base`, else `base-2`, `base-3`, … (cut so the whole stays within 40 characters): the first not taken. */
function unique(base: string, taken: Set<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n += 1) {
    const suffix = `-${n}`;
    const id = `${base.slice(0, 40 - suffix.length)}${suffix}`;
    if (!taken.has(id)) return id;
  }
}

class Checker {
  readonly issues: ValidationIssue[] = [];

  constructor(private readonly options: ValidateOptions) {}

  fail(path: string, message: string): void {
    this.issues.push({ path, message });
  }

  text(value: unknown, path: string, max: number): string | undefined {
    if (typeof value !== 'string' || value.trim().length === 0 || value.length > max) {
      this.fail(path, `${path} must be a string of 1-${max} characters`);
      return undefined;
    }
    return value;
  }

  oneOf<T extends string>(value: unknown, path: string, allowed: readonly T[]): T | undefined {
    if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
    this.fail(path, `${path} must be one of ${list(allowed)}`);
    return undefined;
  }

  integer(value: unknown, path: string, min: number, max: number): number | undefined {
    if (isInteger(value) && value >= min && value <= max) return value;
    this.fail(path, `${path} must be a whole number from ${min} to ${max}`);
    return undefined;
  }

  uuid(value: unknown, path: string): string | undefined {
    if (typeof value === 'string' && UUID.test(value)) return value.toLowerCase();
    this.fail(path, `${path} must be a UUID`);
    return undefined;
  }

  /** A group; `depth` 0 for a top group (root, a lane's `when`, a rule's `if`), 1 for a nested one. */
  group(value: unknown, path: string, depth = 0): FilterGroup {
    const group = everyLead();
    if (!isObject(value) || value.type !== 'group') {
      this.fail(path, `${path} must be a group ({type: "group", combinator, children})`);
      return group;
    }
    group.combinator = this.oneOf(value.combinator, `${path}.combinator`, ['and', 'or'] as const) ?? 'and';
    if (!Array.isArray(value.children)) {
      this.fail(`${path}.children`, `${path}.children must be a list`);
      return group;
    }
    if (value.children.length > LIMITS.children) {
      this.fail(`${path}.children`, `${path}.children holds at most ${LIMITS.children} items`);
    }
    value.children.forEach((child: unknown, index) => {
      const at = `${path}.children[${index}]`;
      if (isObject(child) && child.type === 'group') {
        if (depth > 0) {
          this.fail(at, `${at}: a group inside a group may hold conditions only (two group levels at most)`);
          return;
        }
        group.children.push(this.group(child, at, depth + 1));
        return;
      }
      const condition = this.condition(child, at);
      if (condition) group.children.push(condition);
    });
    return group;
  }

  condition(value: unknown, path: string): Condition | undefined {
    if (!isObject(value) || value.type !== 'condition') {
      this.fail(path, `${path} must be a condition ({type: "condition", field, operator, value}) or a group`);
      return undefined;
    }
    const field = this.oneOf<Field>(value.field, `${path}.field`, FIELDS);
    if (!field) return undefined;
    const operators = Object.keys(GRAMMAR[field]) as Operator[];
    if (!OPERATORS.includes(value.operator as Operator) || !operators.includes(value.operator as Operator)) {
      this.fail(`${path}.operator`, `${path}.operator must be one of ${list(operators)} for ${field}`);
      return undefined;
    }
    const operator = value.operator as Operator;
    const rule = GRAMMAR[field][operator] as ValueRule;
    const checked = this.value(value.value, `${path}.value`, rule);
    return checked && { type: 'condition', field, operator, value: checked };
  }

  value(value: unknown, path: string, rule: ValueRule): ConditionValue | undefined {
    if (!isObject(value) || !rule.kinds.includes(value.kind as ConditionValue['kind'])) {
      this.fail(path, `${path} must be a value of kind ${rule.kinds.join(' or ')}`);
      return undefined;
    }
    const before = this.issues.length;
    const ok = () => this.issues.length === before;
    switch (value.kind) {
      case 'empty':
        return { kind: 'empty' };
      case 'strings': {
        const values = this.stringList(value.values, `${path}.values`, rule);
        return values && ok() ? { kind: 'strings', values } : undefined;
      }
      case 'integer': {
        const number = this.integer(value.value, `${path}.value`, 0, rule.max ?? LIMITS.integer);
        return number === undefined ? undefined : { kind: 'integer', value: number };
      }
      case 'integerRange': {
        const min = this.integer(value.min, `${path}.min`, 0, LIMITS.integer);
        const max = this.integer(value.max, `${path}.max`, 0, LIMITS.integer);
        if (min === undefined || max === undefined) return undefined;
        if (min > max) {
          this.fail(path, `${path}.min must not be greater than ${path}.max`);
          return undefined;
        }
        return { kind: 'integerRange', min, max };
      }
      case 'boolean':
        if (typeof value.value !== 'boolean') {
          this.fail(`${path}.value`, `${path}.value must be true or false`);
          return undefined;
        }
        return { kind: 'boolean', value: value.value };
      case 'string': {
        const text = this.text(value.value, `${path}.value`, LIMITS.valueLength);
        return text === undefined ? undefined : { kind: 'string', value: text };
      }
      case 'date':
        if (!isDay(value.value)) {
          this.fail(`${path}.value`, `${path}.value must be a day as YYYY-MM-DD`);
          return undefined;
        }
        return { kind: 'date', value: value.value };
      case 'dateRange': {
        for (const end of ['from', 'to'] as const) {
          if (!isDay(value[end])) this.fail(`${path}.${end}`, `${path}.${end} must be a day as YYYY-MM-DD`);
        }
        if (!ok()) return undefined;
        const [from, to] = [value.from as string, value.to as string];
        if (from > to) {
          this.fail(path, `${path}.from must not be after ${path}.to`);
          return undefined;
        }
        return { kind: 'dateRange', from, to };
      }
    }
    return undefined;
  }

  stringList(value: unknown, path: string, rule: ValueRule): string[] | undefined {
    if (!Array.isArray(value)) {
      this.fail(path, `${path} must be a list of strings`);
      return undefined;
    }
    if (rule.emptyListOnly) {
      if (value.length > 0) this.fail(path, `${path} must be empty`);
      return [];
    }
    if (value.length === 0 || value.length > LIMITS.values) {
      this.fail(path, `${path} must hold 1-${LIMITS.values} values`);
      return undefined;
    }
    return value.map((item: unknown, index) => {
      const at = `${path}[${index}]`;
      const text = this.text(item, at, LIMITS.valueLength);
      if (text === undefined) return '';
      if (rule.oneOf && !rule.oneOf.includes(text)) this.fail(at, `${at} must be one of ${list(rule.oneOf)}`);
      if (rule.pattern && !rule.pattern.test(text)) this.fail(at, `${at} must match ${rule.pattern.source}`);
      if (text === ME && !rule.me) this.fail(at, `${at}: ${ME} is allowed for assignee only`);
      return text;
    });
  }

  sort(value: unknown, path: string): QueueSort | null {
    if (value === undefined || value === null) return null;
    if (!isObject(value)) {
      this.fail(path, `${path} must be {key, dir} or null`);
      return null;
    }
    const key = this.oneOf(value.key, `${path}.key`, SORT_KEYS);
    const dir =
      value.dir === undefined ? 'asc' : this.oneOf(value.dir, `${path}.dir`, ['asc', 'desc'] as const);
    return key && dir ? { key, dir } : null;
  }

  lanes(value: unknown): QueueLane[] {
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) {
      this.fail('lanes', 'lanes must be a list');
      return [];
    }
    if (value.length > LIMITS.lanes) this.fail('lanes', `lanes holds at most ${LIMITS.lanes} lanes`);
    const given = this.givenIds(value, 'lanes');
    const taken = new Set(given.filter((id): id is string => id !== undefined));
    return value.map((lane: unknown, index) => {
      const path = `lanes[${index}]`;
      if (!isObject(lane)) {
        this.fail(path, `${path} must be an object {name, when, sort, id?}`);
        return { id: '', name: '', when: everyLead(), sort: null };
      }
      const name = this.text(lane.name, `${path}.name`, LIMITS.name) ?? '';
      let id = given[index];
      if (id === undefined) {
        id = unique(slugOf(name), taken);
        taken.add(id);
      }
      const when = lane.when === undefined ? everyLead() : this.group(lane.when, `${path}.when`);
      return { id, name, when, sort: this.sort(lane.sort, `${path}.sort`) };
    });
  }

  /** The ids given in a list of lanes or rules (undefined where none is given); repeats are issues. */
  givenIds(items: unknown[], path: string): (string | undefined)[] {
    const seen = new Set<string>();
    return items.map((item, index) => {
      if (!isObject(item) || item.id === undefined || item.id === null) return undefined;
      const at = `${path}[${index}].id`;
      if (typeof item.id !== 'string' || !LANE_ID.test(item.id)) {
        this.fail(at, `${at} must match ${LANE_ID.source}`);
        return undefined;
      }
      if (seen.has(item.id)) this.fail(at, `${at} repeats the id "${item.id}"`);
      seen.add(item.id);
      return item.id;
    });
  }

  calling(value: unknown): QueueCalling {
    const calling: QueueCalling = {
      pool: 'owners',
      coolDownMinutes: DEFAULT_COOL_DOWN_MINUTES,
      people: null,
    };
    if (value === undefined || value === null) return calling;
    if (!isObject(value)) {
      this.fail('calling', 'calling must be {pool, coolDownMinutes, people}');
      return calling;
    }
    if (value.pool !== undefined) {
      calling.pool = this.oneOf(value.pool, 'calling.pool', ['owners', 'team'] as const) ?? 'owners';
    }
    if (value.coolDownMinutes !== undefined) {
      calling.coolDownMinutes =
        this.integer(value.coolDownMinutes, 'calling.coolDownMinutes', 0, LIMITS.coolDownMinutes) ??
        DEFAULT_COOL_DOWN_MINUTES;
    }
    const people = this.people(value.people);
    const named = people ? people.userIds.length + people.teamIds.length : 0;
    if (calling.pool === 'team') {
      if (named === 0) this.fail('calling.people', 'calling.people must name at least one user or team');
      calling.people = people;
    } else if (named > 0) {
      this.fail('calling.people', 'calling.people is for a team pool only');
    }
    return calling;
  }

  people(value: unknown): QueuePeople | null {
    if (value === undefined || value === null) return null;
    if (!isObject(value)) {
      this.fail('calling.people', 'calling.people must be {userIds, teamIds}');
      return null;
    }
    const directory = this.options.directory;
    const ids = (key: 'userIds' | 'teamIds', known: ReadonlySet<string> | undefined): string[] => {
      const path = `calling.people.${key}`;
      const items = value[key] ?? [];
      if (!Array.isArray(items) || items.length > LIMITS.values) {
        this.fail(path, `${path} must be a list of at most ${LIMITS.values} ids`);
        return [];
      }
      const found = items.flatMap((item: unknown, index) => {
        const id = this.uuid(item, `${path}[${index}]`);
        if (id && known && !known.has(id)) {
          this.fail(
            `${path}[${index}]`,
            `${path}[${index}] is not ${key === 'userIds' ? 'a person' : 'a team'} of the organization`,
          );
        }
        return id ? [id] : [];
      });
      return [...new Set(found)];
    };
    return { userIds: ids('userIds', directory?.userIds), teamIds: ids('teamIds', directory?.teamIds) };
  }

  rules(value: unknown): OfferRule[] {
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) {
      this.fail('rules', 'rules must be a list');
      return [];
    }
    if (value.length > LIMITS.rules) this.fail('rules', `rules holds at most ${LIMITS.rules} rules`);
    const given = this.givenIds(value, 'rules');
    const taken = new Set(given.filter((id): id is string => id !== undefined));
    let next = 1;
    return value.map((rule: unknown, index) => {
      const path = `rules[${index}]`;
      let id = given[index];
      if (id === undefined) {
        while (taken.has(`rule-${next}`)) next += 1;
        id = `rule-${next}`;
        taken.add(id);
      }
      if (!isObject(rule)) {
        this.fail(path, `${path} must be an object {when, if, offer, id?}`);
        return { id, when: 'call_ended', if: everyLead(), offer: { kind: 'follow_up', inDays: 0 } };
      }
      const when = this.oneOf(rule.when, `${path}.when`, OFFER_TRIGGERS) ?? 'call_ended';
      const condition =
        rule.if === undefined || rule.if === null ? everyLead() : this.group(rule.if, `${path}.if`);
      return { id, when, if: condition, offer: this.offer(rule.offer, `${path}.offer`) };
    });
  }

  offer(value: unknown, path: string): QueueOffer {
    const fallback: QueueOffer = { kind: 'follow_up', inDays: 0 };
    if (!isObject(value)) {
      this.fail(path, `${path} must be an offer {kind, …}`);
      return fallback;
    }
    const kind = this.oneOf(value.kind, `${path}.kind`, OFFER_KINDS);
    switch (kind) {
      case 'set_status': {
        const status = this.oneOf(value.status, `${path}.status`, CRM_STATUSES);
        return status ? { kind, status } : fallback;
      }
      case 'add_tag':
      case 'remove_tag': {
        const tagId = this.uuid(value.tagId, `${path}.tagId`);
        return tagId ? { kind, tagId } : fallback;
      }
      case 'assign': {
        const userId = this.uuid(value.userId, `${path}.userId`);
        const known = this.options.directory?.userIds;
        if (userId && known && !known.has(userId)) {
          this.fail(`${path}.userId`, `${path}.userId is not a person of the organization`);
        }
        return userId ? { kind, userId } : fallback;
      }
      case 'follow_up': {
        const inDays = this.integer(value.inDays, `${path}.inDays`, 0, LIMITS.followUpDays);
        return inDays === undefined ? fallback : { kind, inDays };
      }
    }
    return fallback;
  }
}

/** The normalized definition, or every issue (paths like `lanes[1].when.children[0].value`). */
export function validateQueueDefinition(
  input: unknown,
  options: ValidateOptions = {},
): QueueDefinitionResult {
  const check = new Checker(options);
  if (!isObject(input)) {
    return { ok: false, issues: [{ path: '', message: 'The queue must be a JSON object' }] };
  }
  const name =
    input.name === undefined && options.defaultName !== undefined
      ? options.defaultName
      : (check.text(input.name, 'name', LIMITS.name) ?? '');
  let icon = DEFAULT_ICON;
  if (input.icon !== undefined) {
    if (typeof input.icon === 'string' && ICON.test(input.icon)) icon = input.icon;
    else check.fail('icon', `icon must match ${ICON.source}`);
  }
  const definition: QueueDefinition = {
    name,
    icon,
    scope:
      input.scope === undefined
        ? 'private'
        : (check.oneOf(input.scope, 'scope', ['private', 'shared'] as const) ?? 'private'),
    root: input.root === undefined || input.root === null ? everyLead() : check.group(input.root, 'root'),
    lanes: check.lanes(input.lanes),
    rest:
      input.rest === undefined
        ? 'last'
        : (check.oneOf(input.rest, 'rest', ['hide', 'last'] as const) ?? 'last'),
    sort: check.sort(input.sort, 'sort'),
    calling: check.calling(input.calling),
    rules: check.rules(input.rules),
  };
  return check.issues.length > 0 ? { ok: false, issues: check.issues } : { ok: true, definition };
}

/** The normalized definition; 400 VALIDATION_FAILED with `details.issues` otherwise. */
export function parseQueueDefinition(input: unknown, options: ValidateOptions = {}): QueueDefinition {
  const result = validateQueueDefinition(input, options);
  if (!result.ok) throw validationFailed(result.issues);
  return result.definition;
}

/** The lanes a preview shows: the definition's, or one lane `all` taking every lead when it has none. */
export function effectiveLanes(definition: Pick<QueueDefinition, 'lanes'>): QueueLane[] {
  return definition.lanes.length > 0
    ? definition.lanes
    : [{ id: 'all', name: 'All', when: everyLead(), sort: null }];
}
