import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { Client } from 'pg';
import { leadWorkFactsStatement } from '@app/crm';
import {
  CALL_DIRECTIONS,
  CALL_STATUSES,
  CRM_STATUSES,
  DEAL_STAGES,
  effectiveLanes,
  GRAMMAR,
  orderOf,
  parseQueueDefinition,
  queuePreviewStatement,
  ROWS_PER_LANE,
  SORT_KEYS,
  type Condition,
  type EffectiveOrder,
  type Field,
  type FilterGroup,
  type Operator,
  type QueueDefinition,
  type SortKey,
} from '@app/queues';
import type { Statement } from '@app/platform/core';

/**
 * The preview statement against a reference evaluator kept here only (issue 13 "Tests"): a
 * seeded agency of 2,000 leads with facts, tasks, notes and deals, and 500 random definitions
 * (fast-check, fixed seed). For each, the one SQL statement's lane counts, rest, cooling and
 * offer counts and every shown row (lane and order) must equal what the semantics table says,
 * computed in plain JS from the seeded data.
 */

const NOW = new Date('2026-11-20T15:30:00Z').getTime();
const DAY = 86_400_000;
const HOUR = 3_600_000;
const TODAY = Math.floor(NOW / DAY) * DAY;
const ORG = randomUUID();
const [ME, U2, U3] = [randomUUID(), randomUUID(), randomUUID()];
const [T1, T2, T3] = [randomUUID(), randomUUID(), randomUUID()];
const STRANGER = randomUUID();
const SIGNALS = ['call.callback_promised', 'call.not_interested', 'call.voicemail'];
const NOTES = ['Call back tomorrow', 'wants 100% financing', 'asked for viewing_2', 'nothing', 'CALLBACK'];
const NAMES = ['ada', 'Ada', 'ben', 'BEN', 'cy', 'dot', 'eve', 'Fay', 'gus', 'hal'];
const LANGUAGES = [null, 'en', 'en-GB', 'EN-us', 'fr', 'de'];
const SOURCES = ['web', 'api', 'portal'];
const LEAD_TYPES = [null, 'buyer', 'seller'];
const LEADS = 2_000;

interface Task {
  due: number | null;
  pending: boolean;
}

interface Lead {
  id: string;
  firstName: string;
  crmStatus: string;
  assignees: string[];
  tags: string[];
  source: string;
  leadType: string | null;
  language: string | null;
  phone: string;
  email: string;
  createdAt: number;
  facts: {
    lastCallAt: number | null;
    totalCalls: number;
    status: string | null;
    direction: string | null;
    streak: number;
    signal: string[];
    lastInboundAt: number | null;
    lastEmailAt: number | null;
    lastTouchAt: number | null;
  } | null;
  tasks: Task[];
  notes: string[];
  deals: { open: boolean; stage: string }[];
}

/** A small deterministic generator (mulberry32), so the agency is the same on every run. */
function random(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max: number) => Math.floor(next() * max);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)];
  const some = <T>(items: readonly T[], p = 0.4): T[] => items.filter(() => next() < p);
  const chance = (p: number) => next() < p;
  /** A moment within `days` around now: sometimes exactly midnight, sometimes now itself. */
  const moment = (pastDays: number, futureDays = 0): number => {
    const roll = next();
    if (roll < 0.1) return TODAY + (int(pastDays + futureDays + 1) - pastDays) * DAY;
    if (roll < 0.12) return NOW;
    return NOW + Math.floor(((next() * (pastDays + futureDays) - pastDays) * DAY) / 1000) * 1000;
  };
  return { int, pick, some, chance, moment };
}

function seedLeads(): Omit<Lead, 'id'>[] {
  const r = random(13);
  return Array.from({ length: LEADS }, () => ({
    firstName: r.pick(NAMES),
    crmStatus: r.pick(CRM_STATUSES),
    assignees: r.some([ME, U2, U3]),
    tags: r.some([T1, T2, T3]),
    source: r.pick(SOURCES),
    leadType: r.pick(LEAD_TYPES),
    language: r.pick(LANGUAGES),
    phone: r.chance(0.2) ? '' : '+34600000000',
    email: r.chance(0.2) ? '' : 'lead@example.com',
    createdAt: r.moment(40),
    facts: r.chance(0.3)
      ? null
      : {
          lastCallAt: r.chance(0.2) ? null : r.moment(30),
          totalCalls: r.int(6),
          status: r.chance(0.2) ? null : r.pick(CALL_STATUSES),
          direction: r.chance(0.2) ? null : r.pick(CALL_DIRECTIONS),
          streak: r.int(4),
          signal: r.some(SIGNALS, 0.3),
          lastInboundAt: r.chance(0.3) ? null : r.moment(30),
          lastEmailAt: r.chance(0.3) ? null : r.moment(30),
          lastTouchAt: r.chance(0.3) ? null : r.moment(30),
        },
    tasks: Array.from({ length: r.int(3) }, () => ({
      due: r.chance(0.15) ? null : r.moment(5, 5),
      pending: r.chance(0.7),
    })),
    notes: Array.from({ length: r.int(3) }, () => r.pick(NOTES)),
    deals: Array.from({ length: r.int(2) }, () => ({ open: r.chance(0.6), stage: r.pick(DEAL_STAGES) })),
  }));
}

// ---- the reference evaluator: the semantics table in plain JS ----

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const dayOf = (value: string, days = 0) => Date.parse(`${value}T00:00:00Z`) + days * DAY;
const pending = (lead: Lead) => lead.tasks.filter((task) => task.pending);
const nextDue = (lead: Lead): number | null => {
  const dues = pending(lead).flatMap((task) => (task.due === null ? [] : [task.due]));
  return dues.length ? Math.min(...dues) : null;
};

function momentOf(lead: Lead, field: Field): number | null {
  const facts = lead.facts;
  switch (field) {
    case 'createdAt':
      return lead.createdAt;
    case 'lastCallAt':
      return facts?.lastCallAt ?? null;
    case 'lastEmailAt':
      return facts?.lastEmailAt ?? null;
    case 'lastTouchAt':
      return facts?.lastTouchAt ?? null;
    case 'lastInboundAt':
      return facts?.lastInboundAt ?? null;
    default:
      return nextDue(lead);
  }
}

function textOf(lead: Lead, field: Field): string | null {
  switch (field) {
    case 'crmStatus':
      return lead.crmStatus;
    case 'source':
      return lead.source;
    case 'leadType':
      return lead.leadType;
    case 'lastCallStatus':
      return lead.facts?.status ?? null;
    default:
      return lead.facts?.direction ?? null;
  }
}

function holds(lead: Lead, condition: Condition): boolean {
  const { field, operator, value } = condition;
  const values = value.kind === 'strings' ? value.values : [];
  const anyNone = (has: boolean) => (operator === 'has_any_of' ? has : !has);
  switch (field) {
    case 'assignee':
    case 'tag': {
      const have = field === 'assignee' ? lead.assignees : lead.tags;
      if (operator === 'is_unassigned') return have.length === 0;
      const asked = values.map((v) => (v === '$me' ? ME : v));
      const ids = asked.filter((v) => UUID.test(v));
      if (operator === 'has_all_of')
        return ids.length === asked.length && ids.every((id) => have.includes(id));
      return anyNone(ids.some((id) => have.includes(id)));
    }
    case 'crmStatus':
    case 'source':
    case 'leadType':
    case 'lastCallStatus':
    case 'lastCallDirection': {
      const text = textOf(lead, field);
      return anyNone(text !== null && values.includes(text));
    }
    case 'preferredLanguage': {
      const language = lead.language?.toLowerCase() ?? null;
      const asked = values.map((v) => v.toLowerCase());
      const match =
        language !== null &&
        (asked.includes(language) || asked.filter((v) => !v.includes('-')).includes(language.split('-')[0]));
      return anyNone(match);
    }
    case 'phone':
    case 'email': {
      const present = (field === 'phone' ? lead.phone : lead.email) !== '';
      return operator === 'is_present' ? present : !present;
    }
    case 'taskOverdue':
    case 'hasIncompleteTask':
    case 'hasOpenDeal': {
      const fact =
        field === 'hasOpenDeal'
          ? lead.deals.some((deal) => deal.open)
          : field === 'hasIncompleteTask'
            ? pending(lead).length > 0
            : pending(lead).some(
                (task) =>
                  task.due !== null && (task.due <= NOW - DAY || (task.due < NOW && task.due % DAY !== 0)),
              );
      const wanted = value.kind === 'boolean' ? value.value : true;
      return (operator === 'is_true') === wanted ? fact : !fact;
    }
    case 'unansweredStreak':
    case 'callCount': {
      const n = field === 'callCount' ? (lead.facts?.totalCalls ?? 0) : (lead.facts?.streak ?? 0);
      if (value.kind === 'integerRange') return n >= value.min && n <= value.max;
      const v = value.kind === 'integer' ? value.value : 0;
      return operator === 'lt' ? n < v : operator === 'gt' ? n > v : n === v;
    }
    case 'callSignal':
      return anyNone((lead.facts?.signal ?? []).some((signal) => values.includes(signal)));
    case 'notesContain': {
      const term = value.kind === 'string' ? value.value.toLowerCase() : '';
      return lead.notes.some((note) => note.toLowerCase().includes(term));
    }
    case 'dealStage':
      return anyNone(lead.deals.some((deal) => deal.open && values.includes(deal.stage)));
    default: {
      const at = momentOf(lead, field);
      const within = (from: number, to: number, toInclusive: boolean) =>
        at !== null && at >= from && (toInclusive ? at <= to : at < to);
      const n = value.kind === 'integer' ? value.value : 0;
      const d = value.kind === 'date' ? value.value : '';
      switch (operator) {
        case 'in_last_n_days':
          return within(TODAY - n * DAY, NOW, true);
        case 'not_in_last_n_days':
          return !within(TODAY - n * DAY, NOW, true);
        case 'in_last_n_hours':
          return within(NOW - n * HOUR, NOW, true);
        case 'not_in_last_n_hours':
          return !within(NOW - n * HOUR, NOW, true);
        case 'in_next_n_days':
          return within(TODAY, TODAY + (n + 1) * DAY, false);
        case 'is_on':
          return within(dayOf(d), dayOf(d, 1), false);
        case 'is_before':
          return at !== null && at < dayOf(d);
        case 'is_after':
          return at !== null && at >= dayOf(d, 1);
        case 'is_between':
          return value.kind === 'dateRange' && within(dayOf(value.from), dayOf(value.to, 1), false);
        default:
          return at === null;
      }
    }
  }
}

/** An empty group is every lead, whatever its combinator. */
function matches(lead: Lead, group: FilterGroup): boolean {
  if (group.children.length === 0) return true;
  const results = group.children.map((child) =>
    child.type === 'group' ? matches(lead, child) : holds(lead, child),
  );
  return group.combinator === 'and' ? results.every(Boolean) : results.some(Boolean);
}

function sortValue(lead: Lead, key: SortKey): number | string | null {
  switch (key) {
    case 'purchasedAt':
      return lead.createdAt;
    case 'nextTaskDueAt':
      return nextDue(lead);
    case 'lastCallAt':
    case 'lastTouchAt':
    case 'lastInboundAt':
      return momentOf(lead, key);
    case 'totalCalls':
      return lead.facts?.totalCalls ?? 0;
    case 'pendingTasks':
      return pending(lead).length;
    case 'firstName':
      return lead.firstName.toLowerCase();
    case 'crmStatus':
      return CRM_STATUSES.indexOf(lead.crmStatus as (typeof CRM_STATUSES)[number]) + 1;
  }
}

function compare(order: EffectiveOrder) {
  return (a: Lead, b: Lead): number => {
    const x = sortValue(a, order.key);
    const y = sortValue(b, order.key);
    if (x !== y) {
      if (x === null) return order.nullsFirst ? -1 : 1;
      if (y === null) return order.nullsFirst ? 1 : -1;
      const sign = x < y ? -1 : 1;
      return order.dir === 'asc' ? sign : -sign;
    }
    return BigInt(a.id) < BigInt(b.id) ? -1 : BigInt(a.id) > BigInt(b.id) ? 1 : 0;
  };
}

interface Outcome {
  laneCounts: number[];
  restCount: number;
  coolingCount: number;
  offerCounts: number[];
  rows: { id: string; lane: number | null }[];
}

function reference(leads: Lead[], definition: QueueDefinition, memberOnly: boolean): Outcome {
  const lanes = effectiveLanes(definition);
  const coolFrom = NOW - definition.calling.coolDownMinutes * 60_000;
  const inQueue = leads.filter(
    (lead) => (!memberOnly || lead.assignees.includes(ME)) && matches(lead, definition.root),
  );
  const cooling = (lead: Lead) =>
    definition.calling.coolDownMinutes > 0 &&
    (lead.facts?.lastCallAt ?? null) !== null &&
    lead.facts!.lastCallAt! > coolFrom;
  const callable = inQueue.filter((lead) => !cooling(lead));
  const laneOf = (lead: Lead): number | null => {
    const index = lanes.findIndex((lane) => matches(lead, lane.when));
    return index === -1 ? null : index;
  };
  const byLane = new Map<number | null, Lead[]>();
  for (const lead of callable) {
    const lane = laneOf(lead);
    byLane.set(lane, [...(byLane.get(lane) ?? []), lead]);
  }
  const rows: Outcome['rows'] = [];
  lanes.forEach((lane, index) => {
    const shown = [...(byLane.get(index) ?? [])].sort(compare(orderOf(lane.sort, definition.sort)));
    rows.push(...shown.slice(0, ROWS_PER_LANE).map((lead) => ({ id: lead.id, lane: index })));
  });
  if (definition.rest === 'last') {
    const rest = [...(byLane.get(null) ?? [])].sort(compare(orderOf(null, definition.sort)));
    rows.push(...rest.slice(0, ROWS_PER_LANE).map((lead) => ({ id: lead.id, lane: null })));
  }
  return {
    laneCounts: lanes.map((_, index) => byLane.get(index)?.length ?? 0),
    restCount: byLane.get(null)?.length ?? 0,
    coolingCount: inQueue.length - callable.length,
    offerCounts: definition.rules.map((rule) => callable.filter((lead) => matches(lead, rule.if)).length),
    rows,
  };
}

// ---- random definitions ----

const iso = (at: number) => new Date(at).toISOString().slice(0, 10);
const dayArb = fc.integer({ min: -40, max: 10 }).map((n) => iso(TODAY + n * DAY));
const STRING_VALUES: Partial<Record<Field, readonly string[]>> = {
  assignee: [ME, U2, U3, '$me', STRANGER],
  tag: [T1, T2, T3, STRANGER],
  crmStatus: CRM_STATUSES,
  source: [...SOURCES, 'other'],
  leadType: ['buyer', 'seller', 'other'],
  preferredLanguage: ['en', 'en-GB', 'EN-US', 'fr', 'de', 'es'],
  lastCallStatus: CALL_STATUSES,
  lastCallDirection: CALL_DIRECTIONS,
  callSignal: SIGNALS,
  dealStage: DEAL_STAGES,
};

function valueArb(field: Field, operator: Operator): fc.Arbitrary<unknown> {
  const rule = GRAMMAR[field][operator]!;
  const kind = rule.kinds[0];
  switch (kind) {
    case 'strings': {
      const all = [...(STRING_VALUES[field] ?? [])];
      return fc
        .subarray(all, { minLength: 1, maxLength: Math.min(3, all.length) })
        .map((values) => ({ kind, values }));
    }
    case 'integer': {
      const max = operator.includes('hours') ? 800 : operator.includes('days') ? 45 : 6;
      return fc.integer({ min: 0, max }).map((value) => ({ kind, value }));
    }
    case 'integerRange':
      return fc
        .tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 5 }))
        .map(([x, y]) => ({ kind, min: Math.min(x, y), max: Math.max(x, y) }));
    case 'boolean':
      return fc.boolean().map((value) => ({ kind, value }));
    case 'string':
      return fc
        .constantFrom('call', '100%', 'viewing_', 'BACK', 'zzz', '_', 'g_2')
        .map((value) => ({ kind, value }));
    case 'date':
      return dayArb.map((value) => ({ kind, value }));
    case 'dateRange':
      return fc.tuple(dayArb, dayArb).map(([x, y]) => ({ kind, from: x < y ? x : y, to: x < y ? y : x }));
    default:
      return fc.constant({ kind: 'empty' });
  }
}

const conditionArb: fc.Arbitrary<unknown> = fc
  .constantFrom(...(Object.keys(GRAMMAR) as Field[]))
  .chain((field) =>
    fc
      .constantFrom(...(Object.keys(GRAMMAR[field]) as Operator[]))
      .chain((operator) =>
        valueArb(field, operator).map((value) => ({ type: 'condition', field, operator, value })),
      ),
  );
const combinator = fc.constantFrom('and', 'or');
const innerGroup = fc
  .tuple(combinator, fc.array(conditionArb, { minLength: 1, maxLength: 3 }))
  .map(([c, children]) => ({ type: 'group', combinator: c, children }));
const groupArb = (max: number) =>
  fc
    .tuple(
      combinator,
      fc.array(fc.oneof({ weight: 3, arbitrary: conditionArb }, { weight: 1, arbitrary: innerGroup }), {
        maxLength: max,
      }),
    )
    .map(([c, children]) => ({ type: 'group', combinator: c, children }));
const sortArb = fc.option(
  fc.record({ key: fc.constantFrom(...SORT_KEYS), dir: fc.constantFrom('asc', 'desc') }),
  { nil: null },
);
const definitionArb = fc.record({
  name: fc.constant('Property'),
  root: groupArb(2),
  lanes: fc.array(
    fc.record({ name: fc.constantFrom('Hot', 'Warm', 'Cold'), when: groupArb(2), sort: sortArb }),
    { maxLength: 4 },
  ),
  rest: fc.constantFrom('hide', 'last'),
  sort: sortArb,
  calling: fc.record({ coolDownMinutes: fc.constantFrom(0, 60, 120, 1440) }),
  rules: fc.array(
    fc.record({
      when: fc.constantFrom('call_ended', 'task_completed', 'time_passed'),
      if: groupArb(2),
      offer: fc.constant({ kind: 'follow_up', inDays: 1 }),
    }),
    { maxLength: 2 },
  ),
});

describe('queue preview statement against a reference evaluator (fast-check)', () => {
  let db: Client;
  let leads: Lead[];

  const run = async <T>(statement: Statement): Promise<T[]> => {
    let n = 0;
    const result = await db.query(
      statement.sql.replace(/\?/g, () => `$${++n}`),
      statement.params,
    );
    return result.rows as T[];
  };
  const at = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

  beforeAll(async () => {
    db = new Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
    await db.query(
      `insert into organizations (id, name, created_at, updated_at) values ($1, 'Property', now(), now())`,
      [ORG],
    );
    const seeded = seedLeads();
    const { rows } = await db.query<{ id: string; n: number }>(
      `insert into leads (organization_id, first_name, last_name, email, phone_number, language, crm_status,
                          assignee_ids, tag_ids, source, lead_type, purchased_at, created_at, updated_at)
       select $1, s.first_name, 'L' || s.n, s.email, s.phone, s.language, s.crm_status,
              array(select jsonb_array_elements_text(s.assignees))::uuid[], array(select jsonb_array_elements_text(s.tags))::uuid[],
              s.source, s.lead_type, s.created_at, s.created_at, s.created_at
         from jsonb_to_recordset($2::jsonb) as s(n int, first_name text, email text, phone text, language text,
              crm_status text, assignees jsonb, tags jsonb, source text, lead_type text, created_at timestamptz)
        order by s.n
       returning id, substring(last_name from 2)::int as n`,
      [
        ORG,
        JSON.stringify(
          seeded.map((lead, n) => ({
            n,
            first_name: lead.firstName,
            email: lead.email,
            phone: lead.phone,
            language: lead.language,
            crm_status: lead.crmStatus,
            assignees: lead.assignees,
            tags: lead.tags,
            source: lead.source,
            lead_type: lead.leadType,
            created_at: at(lead.createdAt),
          })),
        ),
      ],
    );
    leads = seeded.map((lead) => ({ ...lead, id: '' }));
    for (const row of rows) leads[row.n].id = String(row.id);

    const facts = leads.flatMap((lead) =>
      lead.facts
        ? [
            {
              lead_id: lead.id,
              last_call_at: at(lead.facts.lastCallAt),
              total_calls: lead.facts.totalCalls,
              status: lead.facts.status,
              direction: lead.facts.direction,
              streak: lead.facts.streak,
              signal: lead.facts.signal,
              inbound: at(lead.facts.lastInboundAt),
              email: at(lead.facts.lastEmailAt),
              touch: at(lead.facts.lastTouchAt),
            },
          ]
        : [],
    );
    await db.query(
      `insert into lead_facts (lead_id, organization_id, last_call_at, total_calls, last_call_status, last_call_direction,
                               unanswered_streak, call_signal, last_inbound_at, last_email_at, last_touch_at, updated_at)
       select s.lead_id, $1, s.last_call_at, s.total_calls, s.status, s.direction, s.streak,
              array(select jsonb_array_elements_text(s.signal)), s.inbound, s.email, s.touch, now()
         from jsonb_to_recordset($2::jsonb) as s(lead_id bigint, last_call_at timestamptz, total_calls int, status text,
              direction text, streak int, signal jsonb, inbound timestamptz, email timestamptz, touch timestamptz)`,
      [ORG, JSON.stringify(facts)],
    );
    const tasks = leads.flatMap((lead) =>
      lead.tasks.map((task) => ({
        id: randomUUID(),
        lead_id: lead.id,
        due: at(task.due),
        status: task.pending ? 'pending' : 'completed',
      })),
    );
    await db.query(
      `insert into tasks (id, organization_id, lead_id, created_by, title, due_date, status, created_at, updated_at)
       select s.id, $1, s.lead_id, $3, 'Call', s.due, s.status, now(), now()
         from jsonb_to_recordset($2::jsonb) as s(id uuid, lead_id bigint, due timestamptz, status text)`,
      [ORG, JSON.stringify(tasks), ME],
    );
    const notes = leads.flatMap((lead) =>
      lead.notes.map((content) => ({ id: randomUUID(), lead_id: lead.id, content })),
    );
    await db.query(
      `insert into notes (id, organization_id, lead_id, author_id, content, created_at, updated_at)
       select s.id, $1, s.lead_id, $3, s.content, now(), now()
         from jsonb_to_recordset($2::jsonb) as s(id uuid, lead_id bigint, content text)`,
      [ORG, JSON.stringify(notes), ME],
    );
    const deals = leads.flatMap((lead) =>
      lead.deals.map((deal) => ({
        id: randomUUID(),
        lead_id: lead.id,
        status: deal.open ? 'open' : 'won',
        stage: deal.stage,
      })),
    );
    await db.query(
      `insert into deals (id, organization_id, lead_id, created_by, title, status, stage, currency,
                          stage_changed_at, created_at, updated_at)
       select s.id, $1, s.lead_id, $3, 'Flat', s.status, s.stage, 'EUR', now(), now(), now()
         from jsonb_to_recordset($2::jsonb) as s(id uuid, lead_id bigint, status text, stage text)`,
      [ORG, JSON.stringify(deals), ME],
    );
    await run(leadWorkFactsStatement(ORG, null, new Date()));
    await db.query('analyze leads, lead_facts, tasks, notes, deals');
  });

  afterAll(async () => {
    await db.query('delete from organizations where id = $1', [ORG]);
    await db.end();
  });

  it('500 random definitions: lane counts, rest, cooling, offers and every shown row agree', async () => {
    expect(leads.filter((lead) => lead.id === '')).toEqual([]);
    await fc.assert(
      fc.asyncProperty(definitionArb, fc.boolean(), async (input, memberOnly) => {
        const definition = parseQueueDefinition(input);
        const population: Statement = memberOnly
          ? { sql: 'l.organization_id = ? and l.assignee_ids @> array[?]::uuid[]', params: [ORG, ME] }
          : { sql: 'l.organization_id = ?', params: [ORG] };
        const rows = await run<{
          lane_counts: number[];
          rest_count: number;
          cooling_count: number;
          offer_counts: number[];
          id: string | null;
          lane: number | null;
        }>(queuePreviewStatement(population, definition, { now: new Date(NOW), viewerId: ME }));
        const actual: Outcome = {
          laneCounts: rows[0].lane_counts,
          restCount: rows[0].rest_count,
          coolingCount: rows[0].cooling_count,
          offerCounts: rows[0].offer_counts,
          rows: rows.filter((row) => row.id !== null).map((row) => ({ id: String(row.id), lane: row.lane })),
        };
        expect(actual).toEqual(reference(leads, definition, memberOnly));
      }),
      { numRuns: 500, seed: 20261120, endOnFailure: true },
    );
  });
});
