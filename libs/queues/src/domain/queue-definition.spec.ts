import { DomainError } from '@app/platform/core';
import { parseQueueDefinition, validateQueueDefinition, type QueueDefinition } from './queue-definition';
import { GRAMMAR, type Field, type Operator } from './queue-grammar';

const USER = '0190a1b2-0000-7000-8000-000000000001';
const TEAM = '0190a1b2-0000-7000-8000-000000000002';
const TAG = '0190a1b2-0000-7000-8000-000000000003';

const cond = (field: string, operator: string, value: unknown) => ({
  type: 'condition',
  field,
  operator,
  value,
});
const group = (children: unknown[], combinator = 'and') => ({ type: 'group', combinator, children });
const strings = (...values: string[]) => ({ kind: 'strings', values });
const int = (value: number) => ({ kind: 'integer', value });
const EMPTY = { kind: 'empty' };

const issuesOf = (input: unknown, options = {}) => {
  const result = validateQueueDefinition(input, options);
  return result.ok ? [] : result.issues;
};
const pathsOf = (input: unknown, options = {}) => issuesOf(input, options).map((issue) => issue.path);
const ok = (input: unknown, options = {}): QueueDefinition => {
  const result = validateQueueDefinition(input, options);
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.definition;
};
/** A queue whose root holds one condition: the issues' paths. */
const conditionPaths = (field: string, operator: string, value: unknown) =>
  pathsOf({ name: 'Q', root: group([cond(field, operator, value)]) });

describe('validateQueueDefinition', () => {
  it('fills the defaults and keeps a minimal queue', () => {
    expect(ok({ name: 'Calls' })).toEqual({
      name: 'Calls',
      icon: 'phone',
      scope: 'private',
      root: { type: 'group', combinator: 'and', children: [] },
      lanes: [],
      rest: 'last',
      sort: null,
      calling: { pool: 'owners', coolDownMinutes: 120, people: null },
      rules: [],
    });
    expect(ok({}, { defaultName: 'Preview' }).name).toBe('Preview');
    expect(pathsOf({})).toEqual(['name']);
    expect(pathsOf(null)).toEqual(['']);
  });

  it('checks name 1-40, icon, scope, rest and sort', () => {
    expect(ok({ name: 'x'.repeat(40) }).name).toHaveLength(40);
    expect(pathsOf({ name: 'x'.repeat(41) })).toEqual(['name']);
    expect(pathsOf({ name: '   ' })).toEqual(['name']);
    expect(pathsOf({ name: 'Q', icon: 'Phone!' })).toEqual(['icon']);
    expect(ok({ name: 'Q', icon: 'phone-in' }).icon).toBe('phone-in');
    expect(pathsOf({ name: 'Q', scope: 'public', rest: 'first' })).toEqual(['scope', 'rest']);
    expect(pathsOf({ name: 'Q', sort: { key: 'price', dir: 'up' } })).toEqual(['sort.key', 'sort.dir']);
    expect(ok({ name: 'Q', sort: { key: 'crmStatus', dir: 'desc' } }).sort).toEqual({
      key: 'crmStatus',
      dir: 'desc',
    });
  });

  it('takes at most 8 lanes and 10 rules', () => {
    const lanes = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ name: `Lane ${i}`, when: group([]) }));
    const rules = (n: number) =>
      Array.from({ length: n }, () => ({ when: 'call_ended', offer: { kind: 'follow_up', inDays: 1 } }));
    expect(ok({ name: 'Q', lanes: lanes(8), rules: rules(10) }).lanes).toHaveLength(8);
    expect(pathsOf({ name: 'Q', lanes: lanes(9) })).toEqual(['lanes']);
    expect(pathsOf({ name: 'Q', rules: rules(11) })).toEqual(['rules']);
  });

  it('takes at most 25 children per group and two group levels', () => {
    const conditions = (n: number) => Array.from({ length: n }, () => cond('phone', 'is_present', EMPTY));
    expect(ok({ name: 'Q', root: group(conditions(25)) }).root.children).toHaveLength(25);
    expect(pathsOf({ name: 'Q', root: group(conditions(26)) })).toEqual(['root.children']);
    expect(pathsOf({ name: 'Q', lanes: [{ name: 'A', when: group([group(conditions(26))]) }] })).toEqual([
      'lanes[0].when.children[0].children',
    ]);
    const nested = group([
      cond('email', 'is_missing', EMPTY),
      group([cond('phone', 'is_present', EMPTY)], 'or'),
    ]);
    expect(ok({ name: 'Q', root: nested }).root).toEqual(nested);
    expect(pathsOf({ name: 'Q', root: group([group([group([])])]) })).toEqual([
      'root.children[0].children[0]',
    ]);
    expect(
      pathsOf({
        name: 'Q',
        rules: [
          { when: 'time_passed', if: group([group([group([])])]), offer: { kind: 'follow_up', inDays: 0 } },
        ],
      }),
    ).toEqual(['rules[0].if.children[0].children[0]']);
    expect(pathsOf({ name: 'Q', root: group([], 'xor') })).toEqual(['root.combinator']);
    expect(pathsOf({ name: 'Q', root: { combinator: 'and', children: [] } })).toEqual(['root']);
    expect(
      pathsOf({ name: 'Q', root: group([{ field: 'phone', operator: 'is_present', value: EMPTY }]) }),
    ).toEqual(['root.children[0]']);
  });

  it('checks field, operator and value kind against the table, with the value path', () => {
    expect(conditionPaths('price', 'eq', int(1))).toEqual(['root.children[0].field']);
    expect(conditionPaths('tag', 'is_unassigned', EMPTY)).toEqual(['root.children[0].operator']);
    expect(conditionPaths('crmStatus', 'has_all_of', strings('lead'))).toEqual(['root.children[0].operator']);
    expect(conditionPaths('lastCallAt', 'in_next_n_days', int(1))).toEqual(['root.children[0].operator']);
    expect(conditionPaths('lastCallAt', 'is_on', int(3))).toEqual(['root.children[0].value']);
    expect(conditionPaths('callCount', 'between', int(3))).toEqual(['root.children[0].value']);
    expect(conditionPaths('taskOverdue', 'is_true', { kind: 'string', value: 'yes' })).toEqual([
      'root.children[0].value',
    ]);
    expect(
      pathsOf({
        name: 'Q',
        lanes: [
          { name: 'A', when: group([]) },
          { name: 'B', when: group([cond('phone', 'is_present', strings('x'))]) },
        ],
      }),
    ).toEqual(['lanes[1].when.children[0].value']);
  });

  it('accepts every operator of every field with a value of its kind', () => {
    const sample: Record<string, unknown> = {
      strings: strings('x'),
      integer: int(1),
      integerRange: { kind: 'integerRange', min: 1, max: 2 },
      boolean: { kind: 'boolean', value: true },
      string: { kind: 'string', value: 'x' },
      empty: EMPTY,
      date: { kind: 'date', value: '2026-01-31' },
      dateRange: { kind: 'dateRange', from: '2026-01-01', to: '2026-01-31' },
    };
    const goodStrings: Partial<Record<Field, unknown>> = {
      crmStatus: strings('lead'),
      lastCallStatus: strings('no-answer'),
      lastCallDirection: strings('inbound'),
      dealStage: strings('under_contract'),
      callSignal: strings('call.callback_promised'),
    };
    for (const [field, operators] of Object.entries(GRAMMAR) as [
      Field,
      Record<Operator, { kinds: string[] }>,
    ][]) {
      for (const [operator, rule] of Object.entries(operators) as [Operator, { kinds: string[] }][]) {
        for (const kind of rule.kinds) {
          const value = kind === 'strings' && goodStrings[field] ? goodStrings[field] : sample[kind];
          const input = operator === 'is_unassigned' && kind === 'strings' ? strings() : value;
          expect([field, operator, conditionPaths(field, operator, input)]).toEqual([field, operator, []]);
        }
      }
    }
  });

  it('checks strings values: 1-100 values of 1-200 characters, value sets, callSignal, $me', () => {
    expect(conditionPaths('tag', 'has_any_of', strings(...Array(100).fill(TAG)))).toEqual([]);
    expect(conditionPaths('tag', 'has_any_of', strings(...Array(101).fill(TAG)))).toEqual([
      'root.children[0].value.values',
    ]);
    expect(conditionPaths('tag', 'has_any_of', strings())).toEqual(['root.children[0].value.values']);
    expect(conditionPaths('source', 'has_any_of', strings('x'.repeat(200)))).toEqual([]);
    expect(conditionPaths('source', 'has_any_of', strings('ok', 'x'.repeat(201)))).toEqual([
      'root.children[0].value.values[1]',
    ]);
    expect(conditionPaths('source', 'has_any_of', { kind: 'strings', values: [3] })).toEqual([
      'root.children[0].value.values[0]',
    ]);
    expect(conditionPaths('crmStatus', 'has_any_of', strings('lead', 'won'))).toEqual([
      'root.children[0].value.values[1]',
    ]);
    expect(conditionPaths('lastCallStatus', 'has_none_of', strings('no_answer'))).toEqual([
      'root.children[0].value.values[0]',
    ]);
    expect(conditionPaths('lastCallDirection', 'has_any_of', strings('sideways'))).toEqual([
      'root.children[0].value.values[0]',
    ]);
    expect(conditionPaths('dealStage', 'has_any_of', strings('won'))).toEqual([
      'root.children[0].value.values[0]',
    ]);
    expect(
      conditionPaths('callSignal', 'has_any_of', strings('call.a_1', 'Call.X', `call.${'x'.repeat(61)}`)),
    ).toEqual(['root.children[0].value.values[1]', 'root.children[0].value.values[2]']);
    expect(conditionPaths('assignee', 'has_any_of', strings('$me', USER, 'not-a-uuid'))).toEqual([]);
    expect(conditionPaths('tag', 'has_any_of', strings('$me'))).toEqual(['root.children[0].value.values[0]']);
    expect(conditionPaths('assignee', 'is_unassigned', strings())).toEqual([]);
    expect(conditionPaths('assignee', 'is_unassigned', strings(USER))).toEqual([
      'root.children[0].value.values',
    ]);
  });

  it('checks integers: counts 0-100,000, days 0-3,650, hours 0-8,760; ranges min ≤ max', () => {
    const at = 'root.children[0].value.value';
    expect(conditionPaths('callCount', 'eq', int(100_000))).toEqual([]);
    expect(conditionPaths('callCount', 'gt', int(100_001))).toEqual([at]);
    expect(conditionPaths('callCount', 'lt', int(-1))).toEqual([at]);
    expect(conditionPaths('callCount', 'eq', int(1.5))).toEqual([at]);
    expect(conditionPaths('lastCallAt', 'in_last_n_days', int(3_650))).toEqual([]);
    expect(conditionPaths('lastCallAt', 'not_in_last_n_days', int(3_651))).toEqual([at]);
    expect(conditionPaths('nextTaskDueAt', 'in_next_n_days', int(3_651))).toEqual([at]);
    expect(conditionPaths('lastTouchAt', 'in_last_n_hours', int(8_760))).toEqual([]);
    expect(conditionPaths('lastTouchAt', 'not_in_last_n_hours', int(8_761))).toEqual([at]);
    const range = (min: unknown, max: unknown) => ({ kind: 'integerRange', min, max });
    expect(conditionPaths('unansweredStreak', 'between', range(2, 2))).toEqual([]);
    expect(conditionPaths('unansweredStreak', 'between', range(3, 2))).toEqual(['root.children[0].value']);
    expect(conditionPaths('unansweredStreak', 'between', range(0, 100_001))).toEqual([
      'root.children[0].value.max',
    ]);
  });

  it('checks boolean, string, date and dateRange values', () => {
    expect(conditionPaths('hasOpenDeal', 'is_true', { kind: 'boolean', value: 'yes' })).toEqual([
      'root.children[0].value.value',
    ]);
    expect(conditionPaths('notesContain', 'contains', { kind: 'string', value: 'x'.repeat(200) })).toEqual(
      [],
    );
    expect(conditionPaths('notesContain', 'contains', { kind: 'string', value: '' })).toEqual([
      'root.children[0].value.value',
    ]);
    expect(conditionPaths('notesContain', 'contains', { kind: 'string', value: 'x'.repeat(201) })).toEqual([
      'root.children[0].value.value',
    ]);
    expect(conditionPaths('createdAt', 'is_on', { kind: 'date', value: '2026-02-29' })).toEqual([
      'root.children[0].value.value',
    ]);
    expect(conditionPaths('createdAt', 'is_on', { kind: 'date', value: '2028-02-29' })).toEqual([]);
    expect(conditionPaths('createdAt', 'is_after', { kind: 'date', value: '2026-1-01' })).toEqual([
      'root.children[0].value.value',
    ]);
    const range = (from: unknown, to: unknown) => ({ kind: 'dateRange', from, to });
    expect(conditionPaths('createdAt', 'is_between', range('2026-01-02', '2026-01-02'))).toEqual([]);
    expect(conditionPaths('createdAt', 'is_between', range('2026-01-03', '2026-01-02'))).toEqual([
      'root.children[0].value',
    ]);
    expect(conditionPaths('createdAt', 'is_between', range('2026-01-03', 'soon'))).toEqual([
      'root.children[0].value.to',
    ]);
  });

  it('makes lane ids from names with -2 on clashes and refuses repeated given ids', () => {
    const lanes = ok({
      name: 'Q',
      lanes: [
        { name: 'Call back!', when: group([]) },
        { name: 'call back', when: group([]) },
        { id: 'call-back-3', name: 'Given', when: group([]) },
        { name: 'Call back', when: group([]) },
        { name: 'Überfällig', when: group([]) },
        { name: '!!!', when: group([]) },
        { name: 'x'.repeat(40), when: group([]) },
        { name: 'X'.repeat(40), when: group([]) },
      ],
    }).lanes.map((lane) => lane.id);
    expect(lanes).toEqual([
      'call-back',
      'call-back-2',
      'call-back-3',
      'call-back-4',
      'uberfallig',
      'lane',
      'x'.repeat(40),
      `${'x'.repeat(38)}-2`,
    ]);
    expect(
      ok({ name: 'Q', lanes: [{ name: 'New' }, { id: 'new', name: 'Fresh' }] }).lanes.map((l) => l.id),
    ).toEqual(['new-2', 'new']);
    expect(
      pathsOf({
        name: 'Q',
        lanes: [
          { id: 'a', name: 'A' },
          { id: 'b', name: 'B' },
          { id: 'a', name: 'C' },
        ],
      }),
    ).toEqual(['lanes[2].id']);
    expect(
      pathsOf({
        name: 'Q',
        lanes: [
          { id: '-a', name: 'A' },
          { id: 'A', name: 'B' },
        ],
      }),
    ).toEqual(['lanes[0].id', 'lanes[1].id']);
    expect(pathsOf({ name: 'Q', lanes: [{ when: group([]) }, { name: 'x'.repeat(41) }] })).toEqual([
      'lanes[0].name',
      'lanes[1].name',
    ]);
  });

  it('numbers rules rule-1, … around given ids and refuses repeats', () => {
    const rule = (id?: string) => ({ id, when: 'task_completed', offer: { kind: 'follow_up', inDays: 3 } });
    const ids = ok({ name: 'Q', rules: [rule(), rule('rule-2'), rule(), rule('mine')] }).rules.map(
      (r) => r.id,
    );
    expect(ids).toEqual(['rule-1', 'rule-2', 'rule-3', 'mine']);
    expect(pathsOf({ name: 'Q', rules: [rule('x'), rule('x')] })).toEqual(['rules[1].id']);
  });

  it('checks calling: pool, people for a team only, coolDownMinutes 0-1440', () => {
    expect(ok({ name: 'Q', calling: { coolDownMinutes: 0 } }).calling).toEqual({
      pool: 'owners',
      coolDownMinutes: 0,
      people: null,
    });
    expect(ok({ name: 'Q', calling: { coolDownMinutes: 1440 } }).calling.coolDownMinutes).toBe(1440);
    expect(pathsOf({ name: 'Q', calling: { coolDownMinutes: 1441 } })).toEqual(['calling.coolDownMinutes']);
    expect(pathsOf({ name: 'Q', calling: { pool: 'everyone' } })).toEqual(['calling.pool']);
    expect(pathsOf({ name: 'Q', calling: { pool: 'team' } })).toEqual(['calling.people']);
    expect(pathsOf({ name: 'Q', calling: { pool: 'team', people: { userIds: [], teamIds: [] } } })).toEqual([
      'calling.people',
    ]);
    expect(pathsOf({ name: 'Q', calling: { pool: 'owners', people: { userIds: [USER] } } })).toEqual([
      'calling.people',
    ]);
    expect(
      ok({ name: 'Q', calling: { pool: 'owners', people: { userIds: [], teamIds: [] } } }).calling.people,
    ).toBeNull();
    const team = { pool: 'team', people: { userIds: [USER.toUpperCase()], teamIds: [TEAM] } };
    expect(ok({ name: 'Q', scope: 'shared', calling: team }).calling).toEqual({
      pool: 'team',
      coolDownMinutes: 120,
      people: { userIds: [USER], teamIds: [TEAM] },
    });
    expect(pathsOf({ name: 'Q', calling: { pool: 'team', people: { userIds: ['me'] } } })).toEqual([
      'calling.people.userIds[0]',
      'calling.people',
    ]);
    const directory = { userIds: new Set([USER]), teamIds: new Set<string>() };
    expect(pathsOf({ name: 'Q', calling: team }, { directory })).toEqual(['calling.people.teamIds[0]']);
  });

  it('checks offer rules: trigger, if, each offer kind and its value', () => {
    const rules = (offer: unknown, extra = {}) => ({
      name: 'Q',
      rules: [{ when: 'call_ended', offer, ...extra }],
    });
    const parsed = ok({
      name: 'Q',
      rules: [
        { when: 'call_ended', offer: { kind: 'set_status', status: 'potential' } },
        {
          when: 'task_completed',
          if: group([cond('phone', 'is_present', EMPTY)]),
          offer: { kind: 'add_tag', tagId: TAG },
        },
        { when: 'time_passed', offer: { kind: 'remove_tag', tagId: TAG } },
        { when: 'time_passed', offer: { kind: 'assign', userId: USER } },
        { when: 'time_passed', offer: { kind: 'follow_up', inDays: 365 } },
      ],
    }).rules;
    expect(parsed.map((rule) => rule.offer.kind)).toEqual([
      'set_status',
      'add_tag',
      'remove_tag',
      'assign',
      'follow_up',
    ]);
    expect(parsed[0].if).toEqual({ type: 'group', combinator: 'and', children: [] });
    expect(pathsOf(rules({ kind: 'follow_up', inDays: 366 }))).toEqual(['rules[0].offer.inDays']);
    expect(pathsOf(rules({ kind: 'set_status', status: 'won' }))).toEqual(['rules[0].offer.status']);
    expect(pathsOf(rules({ kind: 'add_tag', tagId: 'vip' }))).toEqual(['rules[0].offer.tagId']);
    expect(pathsOf(rules({ kind: 'call' }))).toEqual(['rules[0].offer.kind']);
    expect(pathsOf(rules({ kind: 'follow_up', inDays: 1 }, { when: 'hourly' }))).toEqual(['rules[0].when']);
    const directory = { userIds: new Set<string>(), teamIds: new Set<string>() };
    expect(pathsOf(rules({ kind: 'assign', userId: USER }), { directory })).toEqual([
      'rules[0].offer.userId',
    ]);
  });

  it('reports every issue at once and throws 400 VALIDATION_FAILED from parseQueueDefinition', () => {
    const input = {
      name: '',
      icon: '?',
      lanes: [{ name: 'A', when: group([cond('callCount', 'eq', int(-1))]) }],
    };
    expect(pathsOf(input)).toEqual(['name', 'icon', 'lanes[0].when.children[0].value.value']);
    let thrown: unknown;
    try {
      parseQueueDefinition(input);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DomainError);
    expect(thrown).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { issues: expect.arrayContaining([{ path: 'icon', message: expect.any(String) }]) },
    });
  });
});
