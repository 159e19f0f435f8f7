import { DomainError } from '@app/platform/core';
import { arrayLiteral, compileGroup, escapeLike, QueueCompileError, utcDay } from './filter-compiler';
import { parseQueueDefinition } from './queue-definition';
import { conditionText, describeQueue } from './queue-description';
import { GRAMMAR, type Field, type FilterGroup, type Operator } from './queue-grammar';
import { laneIndexSql, orderOf, orderSql, queuePreviewStatement } from './queue-preview.sql';
import { SYSTEM_QUEUE_DEFINITION } from './system-queue';

const NOW = new Date('2026-11-20T15:30:00Z');
const VIEWER = '0190a1b2-0000-7000-8000-0000000000aa';
const context = { now: NOW, viewerId: VIEWER };
const group = (children: FilterGroup['children'], combinator: 'and' | 'or' = 'and'): FilterGroup => ({
  type: 'group',
  combinator,
  children,
});

const HOSTILE = `x'); drop table leads; --`;
const hostileValue: Record<string, unknown> = {
  strings: { kind: 'strings', values: [HOSTILE] },
  integer: { kind: 'integer', value: 7 },
  integerRange: { kind: 'integerRange', min: 1, max: 9 },
  boolean: { kind: 'boolean', value: true },
  string: { kind: 'string', value: HOSTILE },
  empty: { kind: 'empty' },
  date: { kind: 'date', value: '2026-01-31' },
  dateRange: { kind: 'dateRange', from: '2026-01-01', to: '2026-01-31' },
};
const setFields: Partial<Record<Field, string>> = {
  crmStatus: 'lead',
  lastCallStatus: 'busy',
  lastCallDirection: 'inbound',
  dealStage: 'offer',
  callSignal: 'call.hostile',
};

describe('compileGroup', () => {
  it('binds every value as a parameter: no input ever reaches the SQL text', () => {
    for (const [field, operators] of Object.entries(GRAMMAR) as [
      Field,
      Record<Operator, { kinds: string[] }>,
    ][]) {
      for (const [operator, rule] of Object.entries(operators) as [Operator, { kinds: string[] }][]) {
        const kind = rule.kinds[0];
        const value =
          kind === 'strings' && setFields[field] ? { kind, values: [setFields[field]] } : hostileValue[kind];
        const definition = parseQueueDefinition({
          name: 'Q',
          root: {
            type: 'group',
            combinator: 'and',
            children: [{ type: 'condition', field, operator, value }],
          },
        });
        const { sql, params } = compileGroup(definition.root, context);
        expect(sql).not.toContain('drop');
        expect(sql).not.toContain('2026');
        expect(sql).not.toMatch(/\$\d/);
        expect((sql.match(/\?/g) ?? []).length).toBe(params.length);
      }
    }
  });

  it('composes and/or groups and answers true for an empty group', () => {
    expect(compileGroup(group([]), context)).toEqual({ sql: 'true', params: [] });
    const compiled = compileGroup(
      group([
        { type: 'condition', field: 'phone', operator: 'is_present', value: { kind: 'empty' } },
        group(
          [
            { type: 'condition', field: 'email', operator: 'is_missing', value: { kind: 'empty' } },
            { type: 'condition', field: 'callCount', operator: 'gt', value: { kind: 'integer', value: 2 } },
          ],
          'or',
        ),
      ]),
      context,
    );
    expect(compiled).toEqual({
      sql: `(l.phone_number <> '' and (l.email = '' or coalesce(f.total_calls, 0) > ?::int))`,
      params: [2],
    });
  });

  it('turns $me into the viewer, and refuses it with 400 BAD_REQUEST when nobody reads', () => {
    const mine = group([
      {
        type: 'condition',
        field: 'assignee',
        operator: 'has_any_of',
        value: { kind: 'strings', values: ['$me'] },
      },
    ]);
    expect(compileGroup(mine, context).params).toEqual([`{"${VIEWER}"}`]);
    const job = () => compileGroup(mine, { now: NOW, viewerId: null });
    expect(job).toThrow(QueueCompileError);
    expect(job).toThrow(expect.objectContaining({ code: 'BAD_REQUEST' }) as DomainError);
  });

  it('bounds the day windows in UTC from the given now', () => {
    expect(utcDay(NOW).toISOString()).toBe('2026-11-20T00:00:00.000Z');
    expect(utcDay(NOW, -3).toISOString()).toBe('2026-11-17T00:00:00.000Z');
    const window = (operator: Operator, value: unknown) =>
      compileGroup(
        parseQueueDefinition({
          name: 'Q',
          root: {
            type: 'group',
            combinator: 'and',
            children: [{ type: 'condition', field: 'lastCallAt', operator, value }],
          },
        }).root,
        context,
      ).params;
    expect(window('in_last_n_days', { kind: 'integer', value: 0 })).toEqual([
      '2026-11-20T00:00:00.000Z',
      '2026-11-20T15:30:00.000Z',
    ]);
    expect(window('in_last_n_hours', { kind: 'integer', value: 2 })).toEqual([
      '2026-11-20T13:30:00.000Z',
      '2026-11-20T15:30:00.000Z',
    ]);
    expect(window('is_on', { kind: 'date', value: '2026-02-28' })).toEqual([
      '2026-02-28T00:00:00.000Z',
      '2026-03-01T00:00:00.000Z',
    ]);
    expect(window('is_after', { kind: 'date', value: '2026-12-31' })).toEqual(['2027-01-01T00:00:00.000Z']);
  });

  it('escapes array literals and LIKE patterns', () => {
    expect(arrayLiteral(['a,b', 'say "hi"', 'back\\slash', '{x}'])).toBe(
      '{"a,b","say \\"hi\\"","back\\\\slash","{x}"}',
    );
    expect(escapeLike('100%_\\')).toBe('100\\%\\_\\\\');
  });
});

describe('lanes and order', () => {
  const lanes = parseQueueDefinition({
    name: 'Q',
    lanes: [
      {
        name: 'Busy',
        when: {
          type: 'group',
          combinator: 'and',
          children: [
            { type: 'condition', field: 'callCount', operator: 'gt', value: { kind: 'integer', value: 3 } },
          ],
        },
      },
      { name: 'Rest', when: { type: 'group', combinator: 'and', children: [] } },
    ],
  }).lanes;

  it('builds the lane index as CASE WHEN in lane order, an empty lane taking the rest', () => {
    expect(laneIndexSql(lanes, context)).toEqual({
      sql: '(case when coalesce(f.total_calls, 0) > ?::int then 0 when true then 1 end)',
      params: [3],
    });
  });

  it('orders by the lane sort, else the queue sort, else lastCallAt ascending with never first; ties by id', () => {
    expect(orderOf(null, null)).toEqual({ key: 'lastCallAt', dir: 'asc', nullsFirst: true });
    expect(orderOf(null, { key: 'firstName', dir: 'desc' })).toEqual({
      key: 'firstName',
      dir: 'desc',
      nullsFirst: false,
    });
    expect(orderOf({ key: 'crmStatus', dir: 'asc' }, { key: 'firstName', dir: 'desc' })).toMatchObject({
      key: 'crmStatus',
    });
    expect(orderSql(orderOf(null, null))).toBe('f.last_call_at asc nulls first, l.id asc');
    expect(orderSql(orderOf(null, { key: 'firstName', dir: 'asc' }))).toBe(
      'lower(l.first_name) asc nulls last, l.id asc',
    );
  });

  it('binds the preview parameters in the order of the text', () => {
    const definition = parseQueueDefinition({
      name: 'Q',
      root: {
        type: 'group',
        combinator: 'and',
        children: [
          {
            type: 'condition',
            field: 'source',
            operator: 'has_any_of',
            value: { kind: 'strings', values: ['web'] },
          },
        ],
      },
      lanes,
      rules: [
        {
          when: 'call_ended',
          if: {
            type: 'group',
            combinator: 'and',
            children: [
              { type: 'condition', field: 'callCount', operator: 'lt', value: { kind: 'integer', value: 9 } },
            ],
          },
          offer: { kind: 'follow_up', inDays: 1 },
        },
      ],
    });
    const statement = queuePreviewStatement(
      { sql: 'l.organization_id = ?', params: ['org'] },
      definition,
      context,
    );
    expect(statement.params).toEqual([3, '2026-11-20T13:30:00.000Z', 9, 'org', '{"web"}']);
    expect((statement.sql.match(/\?/g) ?? []).length).toBe(statement.params.length);
  });
});

describe('description and the system queue', () => {
  it('describes the structure: who, a line per lane, rest, order, calling, a line per rule', () => {
    const { summary, description } = describeQueue(SYSTEM_QUEUE_DEFINITION);
    expect(summary).toEqual(expect.any(String));
    expect(description.lanes.map((lane) => lane.id)).toEqual(['overdue', 'due-today', 'new', 'not-reached']);
    expect(description).toEqual({
      who: expect.any(String),
      lanes: expect.arrayContaining([{ id: 'new', name: 'New', text: expect.any(String) }]),
      rest: expect.any(String),
      order: expect.any(String),
      calling: expect.any(String),
      rules: [],
    });
    const noLanes = describeQueue(
      parseQueueDefinition({
        name: 'Q',
        rest: 'hide',
        rules: [{ when: 'time_passed', offer: { kind: 'set_status', status: 'client' } }],
      }),
    );
    expect(noLanes.description.lanes).toEqual([{ id: 'all', name: 'All', text: expect.any(String) }]);
    expect(noLanes.description.rules).toEqual([{ id: 'rule-1', text: expect.any(String) }]);
    expect(noLanes.description.rest).not.toBe(describeQueue(SYSTEM_QUEUE_DEFINITION).description.rest);
  });

  it('says the outcome of a boolean condition, whichever operator and value name it', () => {
    const condition = (operator: string, value: boolean) => ({
      type: 'condition',
      field: 'taskOverdue',
      operator,
      value: { kind: 'boolean', value },
    });
    const texts = [
      ['is_true', true],
      ['is_false', false],
      ['is_false', true],
      ['is_true', false],
    ].map(([operator, value]) =>
      conditionText(condition(operator as string, value as boolean) as Parameters<typeof conditionText>[0]),
    );
    expect(texts).toEqual(['task overdue: yes', 'task overdue: yes', 'task overdue: no', 'task overdue: no']);
  });

  it('is "My calls": mine, four lanes, rest last, cool-down 120', () => {
    expect(SYSTEM_QUEUE_DEFINITION).toMatchObject({
      name: 'My calls',
      scope: 'shared',
      rest: 'last',
      calling: { pool: 'owners', coolDownMinutes: 120, people: null },
      root: {
        combinator: 'and',
        children: [
          { field: 'assignee', operator: 'has_any_of', value: { kind: 'strings', values: ['$me'] } },
        ],
      },
    });
    expect(SYSTEM_QUEUE_DEFINITION.lanes.map((lane) => [lane.id, lane.when.children])).toEqual([
      ['overdue', [expect.objectContaining({ field: 'taskOverdue', operator: 'is_true' })]],
      [
        'due-today',
        [
          expect.objectContaining({
            field: 'nextTaskDueAt',
            operator: 'in_next_n_days',
            value: { kind: 'integer', value: 0 },
          }),
        ],
      ],
      [
        'new',
        [
          expect.objectContaining({ field: 'crmStatus', value: { kind: 'strings', values: ['lead'] } }),
          expect.objectContaining({
            field: 'callCount',
            operator: 'eq',
            value: { kind: 'integer', value: 0 },
          }),
        ],
      ],
      [
        'not-reached',
        [
          expect.objectContaining({
            field: 'unansweredStreak',
            operator: 'gt',
            value: { kind: 'integer', value: 0 },
          }),
        ],
      ],
    ]);
  });
});
