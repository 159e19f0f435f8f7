import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { leadWorkFactsStatement } from '@app/crm';
import {
  compileGroup,
  parseQueueDefinition,
  QUEUE_LEADS_FROM,
  queuePreviewStatement,
  SYSTEM_QUEUE_DEFINITION,
} from '@app/queues';
import type { Statement } from '@app/platform/core';

/**
 * The queue grammar's semantics (README "Queues (semantics)", one test per line of the table)
 * checked on the real schema: a few leads seeded with SQL in the run's migrated database, the
 * compiled predicate run over `leads l left join lead_facts f`, the matching leads compared at
 * the boundaries (N = 0, midnight UTC, date-only overdue). Call facts rows are written directly,
 * as the ingestion keeps them; tasks and deals are inserted, then their facts recomputed with the
 * statement the CRM services run.
 */

const NOW = new Date('2026-11-20T15:30:00Z');
const ORG = randomUUID();
const ME = randomUUID();
const COLLEAGUE = randomUUID();
const T1 = randomUUID();
const T2 = randomUUID();

interface Seed {
  created: string;
  language?: string | null;
  leadType?: string | null;
  crmStatus?: string;
  source?: string;
  email?: string;
  phone?: string;
  assignees?: string[];
  tags?: string[];
  facts?: {
    lastCallAt: string | null;
    totalCalls?: number;
    status?: string;
    direction?: string;
    streak?: number;
    signal?: string[];
  };
  tasks?: { due: string | null; status?: 'pending' | 'completed' }[];
  notes?: string[];
  deals?: { status: 'open' | 'won' | 'lost'; stage: string }[];
}

const LEADS: Record<string, Seed> = {
  Ada: {
    created: '2026-11-20T00:00:00Z',
    language: 'en',
    leadType: 'buyer',
    source: 'web',
    assignees: [ME],
    tags: [T1, T2],
    facts: { lastCallAt: '2026-11-20T15:30:00Z', totalCalls: 3, status: 'completed', direction: 'outbound' },
    tasks: [{ due: '2026-11-20T00:00:00Z' }],
    notes: ['Wants 100% financing'],
    deals: [{ status: 'open', stage: 'offer' }],
  },
  Ben: {
    created: '2026-11-19T23:59:59.999Z',
    language: 'en-GB',
    leadType: 'seller',
    crmStatus: 'potential',
    email: '',
    assignees: [ME, COLLEAGUE],
    tags: [T1],
    facts: {
      lastCallAt: '2026-11-20T13:30:00Z',
      totalCalls: 1,
      status: 'no-answer',
      streak: 1,
      signal: ['call.callback_promised'],
    },
    tasks: [{ due: '2026-11-20T23:59:59Z' }],
    notes: ['call_back tomorrow'],
    deals: [{ status: 'won', stage: 'offer' }],
  },
  Cy: {
    created: '2026-11-17T00:00:00Z',
    language: 'EN-us',
    phone: '',
    facts: {
      lastCallAt: '2026-11-20T13:29:59Z',
      totalCalls: 5,
      status: 'busy',
      direction: 'inbound',
      streak: 4,
      signal: ['call.not_interested'],
    },
    tasks: [{ due: '2026-11-21T00:00:00Z' }],
    notes: ['CALL BACK'],
    deals: [{ status: 'open', stage: 'viewing' }],
  },
  Dot: {
    created: '2026-11-16T23:59:59Z',
    language: 'eng',
    crmStatus: 'client',
    tasks: [{ due: '2026-11-19T00:00:00Z' }],
    notes: ['100 percent sure'],
  },
  Eve: {
    created: '2026-11-21T00:00:00Z',
    tasks: [{ due: '2026-11-01T00:00:00Z', status: 'completed' }],
    facts: { lastCallAt: null },
  },
  Fay: {
    created: '2026-11-01T10:00:00Z',
    language: 'fr',
    facts: { lastCallAt: '2026-11-19T23:59:59Z', totalCalls: 2, status: 'completed', direction: 'inbound' },
    tasks: [{ due: '2026-11-20T15:29:59Z' }, { due: '2026-11-20T00:00:00Z' }],
  },
  Gus: { created: '2026-10-01T00:00:00Z', tasks: [{ due: null }] },
};
const ALL = Object.keys(LEADS).sort();
const except = (...names: string[]) => ALL.filter((name) => !names.includes(name));

describe('queue filter compiler on PostgreSQL', () => {
  let db: Client;

  /** The names of the leads the root group matches at `now`, sorted. */
  const match = async (children: unknown[], now = NOW, combinator = 'and'): Promise<string[]> => {
    const { root } = parseQueueDefinition({ name: 'Q', root: { type: 'group', combinator, children } });
    const predicate = compileGroup(root, { now, viewerId: ME });
    const { rows } = await run({
      sql: `select l.first_name from ${QUEUE_LEADS_FROM} where l.organization_id = ? and ${predicate.sql} order by 1`,
      params: [ORG, ...predicate.params],
    });
    return rows.map((row: { first_name: string }) => row.first_name);
  };
  const run = (statement: Statement) => {
    let n = 0;
    return db.query(
      statement.sql.replace(/\?/g, () => `$${++n}`),
      statement.params,
    );
  };
  const is = (field: string, operator: string, value: unknown = { kind: 'empty' }) => ({
    type: 'condition',
    field,
    operator,
    value,
  });
  const int = (value: number) => ({ kind: 'integer', value });
  const day = (value: string) => ({ kind: 'date', value });
  const strings = (...values: string[]) => ({ kind: 'strings', values });
  const yes = { kind: 'boolean', value: true };

  beforeAll(async () => {
    db = new Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
    await db.query(
      `insert into organizations (id, name, created_at, updated_at) values ($1, 'Queues', now(), now())`,
      [ORG],
    );
    for (const [name, lead] of Object.entries(LEADS)) {
      const inserted = await db.query(
        `insert into leads (organization_id, first_name, last_name, email, phone_number, language, crm_status,
                            assignee_ids, tag_ids, source, lead_type, purchased_at, created_at, updated_at)
         values ($1, $2, 'Test', $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, $11) returning id`,
        [
          ORG,
          name,
          lead.email ?? `${name.toLowerCase()}@example.com`,
          lead.phone ?? '+34600000000',
          lead.language ?? null,
          lead.crmStatus ?? 'lead',
          lead.assignees ?? [],
          lead.tags ?? [],
          lead.source ?? 'api',
          lead.leadType ?? null,
          lead.created,
        ],
      );
      const id = inserted.rows[0].id as string;
      if (lead.facts) {
        const f = lead.facts;
        await db.query(
          `insert into lead_facts (lead_id, organization_id, last_call_at, total_calls, last_call_status,
                                   last_call_direction, unanswered_streak, call_signal, last_touch_at, updated_at)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $3, now())`,
          [
            id,
            ORG,
            f.lastCallAt,
            f.totalCalls ?? 0,
            f.status ?? null,
            f.direction ?? null,
            f.streak ?? 0,
            f.signal ?? [],
          ],
        );
      }
      for (const task of lead.tasks ?? []) {
        await db.query(
          `insert into tasks (id, organization_id, lead_id, created_by, title, due_date, status, created_at, updated_at)
           values ($1, $2, $3, $4, 'Call', $5, $6, now(), now())`,
          [randomUUID(), ORG, id, ME, task.due, task.status ?? 'pending'],
        );
      }
      for (const content of lead.notes ?? []) {
        await db.query(
          `insert into notes (id, organization_id, lead_id, author_id, content, created_at, updated_at)
           values ($1, $2, $3, $4, $5, now(), now())`,
          [randomUUID(), ORG, id, ME, content],
        );
      }
      for (const deal of lead.deals ?? []) {
        await db.query(
          `insert into deals (id, organization_id, lead_id, created_by, title, status, stage, currency,
                              stage_changed_at, created_at, updated_at)
           values ($1, $2, $3, $4, 'Flat', $5, $6, 'EUR', now(), now(), now())`,
          [randomUUID(), ORG, id, ME, deal.status, deal.stage],
        );
      }
    }
    await run(leadWorkFactsStatement(ORG, null, NOW));
  });

  afterAll(async () => {
    await db.query('delete from organizations where id = $1', [ORG]);
    await db.end();
  });

  it('in_last_n_days N: from 00:00 UTC N days before today until now (0 = today)', async () => {
    expect(await match([is('createdAt', 'in_last_n_days', int(0))])).toEqual(['Ada']);
    expect(await match([is('createdAt', 'in_last_n_days', int(3))])).toEqual(['Ada', 'Ben', 'Cy']);
    expect(await match([is('lastCallAt', 'in_last_n_days', int(1))])).toEqual(['Ada', 'Ben', 'Cy', 'Fay']);
  });

  it('in_last_n_hours N: the last N hours', async () => {
    expect(await match([is('lastCallAt', 'in_last_n_hours', int(2))])).toEqual(['Ada', 'Ben']);
    expect(await match([is('lastCallAt', 'in_last_n_hours', int(0))])).toEqual(['Ada']);
  });

  it('not_in_last_n_days and not_in_last_n_hours: the complement, never included', async () => {
    expect(await match([is('lastCallAt', 'not_in_last_n_days', int(0))])).toEqual([
      'Dot',
      'Eve',
      'Fay',
      'Gus',
    ]);
    expect(await match([is('lastCallAt', 'not_in_last_n_hours', int(2))])).toEqual([
      'Cy',
      'Dot',
      'Eve',
      'Fay',
      'Gus',
    ]);
    expect(await match([is('createdAt', 'not_in_last_n_days', int(0))])).toEqual(except('Ada'));
  });

  it('is_on: that UTC day; is_before: before its 00:00; is_after: from the next day 00:00; is_between: both days', async () => {
    expect(await match([is('createdAt', 'is_on', day('2026-11-19'))])).toEqual(['Ben']);
    expect(await match([is('createdAt', 'is_on', day('2026-11-20'))])).toEqual(['Ada']);
    expect(await match([is('createdAt', 'is_before', day('2026-11-20'))])).toEqual(except('Ada', 'Eve'));
    expect(await match([is('createdAt', 'is_after', day('2026-11-19'))])).toEqual(['Ada', 'Eve']);
    const between = { kind: 'dateRange', from: '2026-11-17', to: '2026-11-19' };
    expect(await match([is('createdAt', 'is_between', between)])).toEqual(['Ben', 'Cy']);
  });

  it('is_never: no value (no facts row, or a null fact)', async () => {
    expect(await match([is('lastCallAt', 'is_never')])).toEqual(['Dot', 'Eve', 'Gus']);
    expect(await match([is('nextTaskDueAt', 'is_never')])).toEqual(['Eve', 'Gus']);
  });

  it('nextTaskDueAt: the earliest due pending task; in_next_n_days N = today 00:00 to the end of today + N', async () => {
    expect(await match([is('nextTaskDueAt', 'in_next_n_days', int(0))])).toEqual(['Ada', 'Ben', 'Fay']);
    expect(await match([is('nextTaskDueAt', 'in_next_n_days', int(1))])).toEqual(['Ada', 'Ben', 'Cy', 'Fay']);
    expect(await match([is('nextTaskDueAt', 'is_before', day('2026-11-20'))])).toEqual(['Dot']);
    expect(await match([is('nextTaskDueAt', 'is_on', day('2026-11-20'))])).toEqual(['Ada', 'Ben', 'Fay']);
    // just after midnight, today's window starts at the new day
    expect(
      await match([is('nextTaskDueAt', 'in_next_n_days', int(0))], new Date('2026-11-21T00:00:00Z')),
    ).toEqual(['Cy']);
  });

  it('taskOverdue: a pending task past due; a date-only task from the day after its date', async () => {
    expect(await match([is('taskOverdue', 'is_true', yes)])).toEqual(['Dot', 'Fay']);
    expect(await match([is('taskOverdue', 'is_false', yes)])).toEqual(except('Dot', 'Fay'));
    expect(await match([is('taskOverdue', 'is_true', { kind: 'boolean', value: false })])).toEqual(
      except('Dot', 'Fay'),
    );
    // Dot's task is dated 2026-11-19: not overdue on that day, overdue from 00:00 the day after
    expect(await match([is('taskOverdue', 'is_true', yes)], new Date('2026-11-19T23:59:59.999Z'))).toEqual(
      [],
    );
    expect(await match([is('taskOverdue', 'is_true', yes)], new Date('2026-11-20T00:00:00Z'))).toEqual([
      'Dot',
    ]);
    // a timed task is overdue once its moment has passed
    expect(await match([is('taskOverdue', 'is_true', yes)], new Date('2026-11-20T15:29:59Z'))).toEqual([
      'Dot',
    ]);
    expect(await match([is('hasIncompleteTask', 'is_true', yes)])).toEqual(except('Eve'));
  });

  it('dealStage: the stages of open deals; hasOpenDeal', async () => {
    expect(await match([is('dealStage', 'has_any_of', strings('offer'))])).toEqual(['Ada']);
    expect(await match([is('dealStage', 'has_none_of', strings('offer'))])).toEqual(except('Ada'));
    expect(await match([is('hasOpenDeal', 'is_true', yes)])).toEqual(['Ada', 'Cy']);
  });

  it('preferredLanguage: en matches en and en-*, en-GB only itself, case-insensitively', async () => {
    expect(await match([is('preferredLanguage', 'has_any_of', strings('en'))])).toEqual(['Ada', 'Ben', 'Cy']);
    expect(await match([is('preferredLanguage', 'has_any_of', strings('EN-gb'))])).toEqual(['Ben']);
    expect(await match([is('preferredLanguage', 'has_none_of', strings('en', 'fr'))])).toEqual([
      'Dot',
      'Eve',
      'Gus',
    ]);
  });

  it('has_none_of includes leads without a value; has_all_of needs every value', async () => {
    expect(await match([is('leadType', 'has_none_of', strings('buyer'))])).toEqual(except('Ada'));
    expect(await match([is('lastCallStatus', 'has_none_of', strings('completed'))])).toEqual(
      except('Ada', 'Fay'),
    );
    expect(await match([is('lastCallDirection', 'has_any_of', strings('inbound'))])).toEqual(['Cy', 'Fay']);
    expect(await match([is('callSignal', 'has_none_of', strings('call.not_interested'))])).toEqual(
      except('Cy'),
    );
    expect(await match([is('callSignal', 'has_any_of', strings('call.callback_promised'))])).toEqual(['Ben']);
    expect(await match([is('tag', 'has_all_of', strings(T1, T2))])).toEqual(['Ada']);
    expect(await match([is('tag', 'has_any_of', strings(T1, T2))])).toEqual(['Ada', 'Ben']);
    expect(await match([is('tag', 'has_none_of', strings(T2))])).toEqual(except('Ada'));
    // ids are not checked: an unknown id, or no UUID at all, matches nothing
    expect(await match([is('tag', 'has_any_of', strings(randomUUID(), 'vip'))])).toEqual([]);
    expect(await match([is('tag', 'has_all_of', strings(T1, 'vip'))])).toEqual([]);
    expect(await match([is('tag', 'has_none_of', strings('vip'))])).toEqual(ALL);
    expect(await match([is('crmStatus', 'has_none_of', strings('lead'))])).toEqual(['Ben', 'Dot']);
    expect(await match([is('source', 'has_any_of', strings('web'))])).toEqual(['Ada']);
  });

  it('$me is the viewer: assignee any, all, none, unassigned', async () => {
    expect(await match([is('assignee', 'has_any_of', strings('$me'))])).toEqual(['Ada', 'Ben']);
    expect(await match([is('assignee', 'has_all_of', strings('$me', COLLEAGUE))])).toEqual(['Ben']);
    expect(await match([is('assignee', 'has_none_of', strings('$me'))])).toEqual(except('Ada', 'Ben'));
    expect(await match([is('assignee', 'is_unassigned')])).toEqual(except('Ada', 'Ben'));
    expect(await match([is('assignee', 'is_unassigned', strings())])).toEqual(except('Ada', 'Ben'));
  });

  it('notesContain: a case-insensitive substring of any note, % and _ taken literally', async () => {
    const notes = (value: string) => match([is('notesContain', 'contains', { kind: 'string', value })]);
    expect(await notes('call back')).toEqual(['Cy']);
    expect(await notes('call_back')).toEqual(['Ben']);
    expect(await notes('100%')).toEqual(['Ada']);
    expect(await notes('%')).toEqual(['Ada']);
    expect(await notes('FINANCING')).toEqual(['Ada']);
  });

  it('counts: eq, lt, gt, between; a lead without facts counts 0', async () => {
    expect(await match([is('callCount', 'eq', int(0))])).toEqual(['Dot', 'Eve', 'Gus']);
    expect(await match([is('callCount', 'gt', int(2))])).toEqual(['Ada', 'Cy']);
    expect(await match([is('unansweredStreak', 'lt', int(1))])).toEqual(except('Ben', 'Cy'));
    expect(await match([is('callCount', 'between', { kind: 'integerRange', min: 1, max: 3 })])).toEqual([
      'Ada',
      'Ben',
      'Fay',
    ]);
  });

  it('phone and email: is_present, is_missing; groups combine with and/or', async () => {
    expect(await match([is('email', 'is_missing')])).toEqual(['Ben']);
    expect(await match([is('phone', 'is_present')])).toEqual(except('Cy'));
    expect(await match([is('email', 'is_missing'), is('phone', 'is_missing')], NOW, 'or')).toEqual([
      'Ben',
      'Cy',
    ]);
    const nested = {
      type: 'group',
      combinator: 'or',
      children: [
        is('crmStatus', 'has_any_of', strings('client')),
        is('source', 'has_any_of', strings('web')),
      ],
    };
    expect(await match([is('assignee', 'has_none_of', strings(COLLEAGUE)), nested])).toEqual(['Ada', 'Dot']);
  });

  it('runs the system queue preview as one statement: lanes first match wins, cool-down, rest last, order', async () => {
    const population = { sql: 'l.organization_id = ?', params: [ORG] };
    const { rows } = await run(
      queuePreviewStatement(population, SYSTEM_QUEUE_DEFINITION, { now: NOW, viewerId: ME }),
    );
    // mine: Ada (called now: cooling down) and Ben (called exactly 120 minutes ago: cooled down; a
    // task due 23:59:59 today → due-today)
    expect(rows.map((row) => [row.first_name, row.lane])).toEqual([['Ben', 1]]);
    expect(rows[0]).toMatchObject({
      lane_counts: [0, 1, 0, 0],
      rest_count: 0,
      cooling_count: 1,
      offer_counts: [],
    });
    const later = new Date('2026-11-20T17:31:00Z');
    const after = await run(
      queuePreviewStatement(population, SYSTEM_QUEUE_DEFINITION, { now: later, viewerId: ME }),
    );
    // Ada: a date-only task today → due-today (not overdue before tomorrow); lastCallAt ascending
    expect(after.rows.map((row) => [row.first_name, row.lane])).toEqual([
      ['Ben', 1],
      ['Ada', 1],
    ]);
    expect(after.rows[0]).toMatchObject({ lane_counts: [0, 2, 0, 0], rest_count: 0, cooling_count: 0 });

    const everyone = parseQueueDefinition({
      name: 'All',
      lanes: [
        {
          name: 'Overdue',
          when: { type: 'group', combinator: 'and', children: [is('taskOverdue', 'is_true', yes)] },
        },
        {
          name: 'Busy',
          when: { type: 'group', combinator: 'and', children: [is('callCount', 'gt', int(0))] },
          sort: { key: 'totalCalls', dir: 'desc' },
        },
      ],
      sort: { key: 'firstName', dir: 'desc' },
      rest: 'last',
      calling: { coolDownMinutes: 0 },
      rules: [
        { when: 'time_passed', offer: { kind: 'follow_up', inDays: 1 } },
        {
          when: 'call_ended',
          if: { type: 'group', combinator: 'and', children: [is('email', 'is_missing')] },
          offer: { kind: 'follow_up', inDays: 1 },
        },
      ],
    });
    const preview = await run(queuePreviewStatement(population, everyone, { now: NOW, viewerId: ME }));
    // Fay is overdue (lane 0 wins over lane 1); Overdue and the rest by the queue's firstName desc; Busy by its totalCalls desc
    expect(preview.rows.map((row) => [row.first_name, row.lane])).toEqual([
      ['Fay', 0],
      ['Dot', 0],
      ['Cy', 1],
      ['Ada', 1],
      ['Ben', 1],
      ['Gus', null],
      ['Eve', null],
    ]);
    expect(preview.rows[0]).toMatchObject({
      lane_counts: [2, 3],
      rest_count: 2,
      cooling_count: 0,
      offer_counts: [7, 1],
    });
    expect(preview.rows.find((row) => row.first_name === 'Cy')?.sort_value).toBe(5);

    const hidden = await run(
      queuePreviewStatement(population, { ...everyone, rest: 'hide' }, { now: NOW, viewerId: ME }),
    );
    expect(hidden.rows.map((row) => row.first_name)).toEqual(['Fay', 'Dot', 'Cy', 'Ada', 'Ben']);
    expect(hidden.rows[0]).toMatchObject({ rest_count: 2 });

    const defaultOrder = parseQueueDefinition({ name: 'Default', calling: { coolDownMinutes: 0 } });
    const ordered = await run(queuePreviewStatement(population, defaultOrder, { now: NOW, viewerId: ME }));
    // one lane "all"; never-called first (by id), then lastCallAt ascending
    expect(ordered.rows.map((row) => row.first_name)).toEqual([
      'Dot',
      'Eve',
      'Gus',
      'Fay',
      'Cy',
      'Ben',
      'Ada',
    ]);
  });
});
