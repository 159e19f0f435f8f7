'use strict';
// The workloads, by name. Each draws its request paths from the seeded agency (`ctx`, built once
// by `prepareContext`), with a seeded generator, so every run of every side gets the same sequence.
// `legs` defaults to the API against the baseline on the same path; `door` compares two routes of
// the same API process instead. `target`: issue 9's targets, checked in the report; `before`: the
// issue's table (2026-11-2x, this machine, the earlier harness), printed beside the new figures.
const { createHash, randomBytes } = require('node:crypto');
const path = require('node:path');
const { Client } = require('pg');
const { ROOT, log, sql, seededRandom, getJson, canonical } = require('./lib');
const { DOCUMENT_WORKLOADS } = require('./documents');
const { LISTING_WORKLOADS } = require('./listings');
const { NETWORK_WORKLOADS } = require('./network');
const { SEARCH_WORKLOADS } = require('./search');
const { EVENT_WORKLOADS } = require('./events');

const PAGES = 50;

// ---- ingest (issue 12): call PUTs through an integration key
/** PUTs per leg, split over the rounds (a count, not seconds: every leg sends the same requests). */
const INGEST_REQUESTS = Number(process.env.BENCH_INGEST_REQUESTS ?? 50_000);
/** PUTs per leg before the rounds. */
const INGEST_WARMUP = Number(process.env.BENCH_INGEST_WARMUP ?? 1_000);
/**
 * Requests per integration key. A key's budget is fixed (600/min, 3,000/10 min, 15,000/h, no
 * per-key override, unlike API keys' rate_limit_per_minute), so the harness issues enough keys and
 * moves to the next one after 500 requests: no key ever meets a limit, and each costs both sides
 * one door lookup (a key-cache miss) per 500 requests.
 */
const KEY_USES = 500;
const CONNECTOR = 'bench-phone';
const CALL_STATUSES = ['completed', 'completed', 'completed', 'no-answer', 'busy', 'failed', 'canceled'];
const EPOCH = Date.parse('2026-10-01T00:00:00Z');

/** Issues `count` integration keys of the agency with SQL (as the session route stores them: sha256, first 12). */
async function issueIntegrationKeys(databaseUrl, agency, count) {
  const secrets = Array.from({ length: count }, () => `svc_int_${randomBytes(16).toString('hex')}`);
  await sql(
    databaseUrl,
    `insert into integration_keys (id, organization_id, name, connector, key_hash, prefix_hint, created_by_id, created_at)
     select gen_random_uuid(), $1, 'bench ' || n, $2, h, p, $3, now()
       from unnest($4::text[], $5::text[]) with ordinality as k(h, p, n)`,
    [
      agency.organizationId,
      CONNECTOR,
      agency.admin.userId,
      secrets.map((s) => createHash('sha256').update(s).digest('hex')),
      secrets.map((s) => s.slice(0, 12)),
    ],
  );
  return secrets;
}

/** A realistic call for `leadId`, drawn from `random`. */
function callBody(random, leadId) {
  const status = CALL_STATUSES[Math.floor(random() * CALL_STATUSES.length)];
  const durationSeconds = status === 'completed' ? 20 + Math.floor(random() * 900) : 0;
  const startedAt = EPOCH + Math.floor(random() * 50 * 86_400) * 1000;
  return {
    leadId,
    direction: random() < 0.4 ? 'inbound' : 'outbound',
    status,
    durationSeconds,
    hasRecording: status === 'completed',
    startedAt: new Date(startedAt).toISOString(),
    endedAt: new Date(startedAt + durationSeconds * 1000).toISOString(),
  };
}

/** The next integration key: each serves KEY_USES requests, across every leg. */
function nextKey(state) {
  const secret = state.keys[Math.floor(state.used / KEY_USES)];
  if (!secret) throw new Error('bench ingest: out of integration keys');
  state.used += 1;
  return secret;
}

/** An answer with its ids blanked and its error cut to the code, to compare the two sides. */
const comparable = ({ status, body }) =>
  `${status} ${JSON.stringify(
    body?.error
      ? { code: body.error.code }
      : { ...body, id: typeof body?.id === 'string' ? 'uuid' : body?.id },
  )}`;

// ---- routing (issue 14): lead intake onto a round robin of 10 people
/** Intakes per leg, split over the rounds; warm-up intakes per leg. */
const ROUTING_REQUESTS = Number(process.env.BENCH_ROUTING_REQUESTS ?? 10_000);
const ROUTING_WARMUP = Number(process.env.BENCH_ROUTING_WARMUP ?? 500);
const ROUTING_POOL = 10;
/** A leg's name as a slug: its externalIds, emails and `source` (which picks its route). */
const slug = (legName) => legName.toLowerCase().replace(/[^a-z0-9]+/g, '-');
const routingSource = (legName) => `bench-${slug(legName)}`;

/**
 * The pool: the seeded agency's admin and members, and as many more members as make 10 (users and
 * memberships rows, as identity stores them).
 */
async function routingPool(databaseUrl, agency) {
  const known = [agency.admin.userId, ...agency.members.map((m) => m.userId)];
  const more = Math.max(0, ROUTING_POOL - known.length);
  const added = await sql(
    databaseUrl,
    `with people as (
       select gen_random_uuid() as id, n from generate_series(1, $2::int) n),
     u as (
       insert into users (id, email, password_hash, first_name, last_name, created_at, updated_at)
       select id, 'router-' || n || '@bench.test', 'x', 'Router', 'No ' || n, now(), now() from people
       returning id)
     insert into memberships (id, organization_id, user_id, role, created_at, updated_at)
     select gen_random_uuid(), $1, id, 'member', now(), now() from u
     returning user_id`,
    [agency.organizationId, more],
  );
  return [...known, ...added.map((row) => row.user_id)].slice(0, ROUTING_POOL);
}

/**
 * One round-robin route per leg, stored through the API by the admin (`POST
 * /v1/lead-routing/rules`), each taking the leads whose `source` is the leg's, so each leg's
 * fairness is its own route's. The legs' routes are in leg order: a later leg's leads first
 * pass the earlier legs' routes (a `no_match` step each, evaluated by the same engine).
 */
async function routingRoutes(legs, ctx) {
  if (ctx.routing.routes) return ctx.routing.routes;
  const headers = { authorization: `Bearer ${ctx.routing.adminKey}`, 'content-type': 'application/json' };
  const routes = {};
  for (const leg of legs) {
    const body = {
      name: `Bench ${leg.name}`,
      strategy: 'round_robin',
      userIds: ctx.routing.pool,
      conditions: {
        type: 'group',
        combinator: 'and',
        children: [
          {
            type: 'condition',
            field: 'source',
            operator: 'has_any_of',
            value: { kind: 'strings', values: [routingSource(leg.name)] },
          },
        ],
      },
    };
    const res = await getJson(
      ctx.routing.apiBase,
      '/v1/lead-routing/rules',
      headers,
      'POST',
      JSON.stringify(body),
    );
    if (res.status !== 201)
      throw new Error(`bench routing: route not created: ${res.status} ${JSON.stringify(res.body)}`);
    routes[leg.name] = res.body.id;
    log(`routing: route ${res.body.id} for ${leg.name}: ${res.body.summary}`);
  }
  ctx.routing.routes = routes;
  return routes;
}

/**
 * The rows each side wrote for its check lead (a new lead, then the same externalId, then the same
 * email): the lead, its history, inquiries and routing decision, with what differs by leg (ids, the
 * leg's source and route, times, the integration key) blanked, and the other routes' `no_match`
 * steps (and the `why`'s "after … did not match") left out: a later leg's leads pass the earlier
 * legs' routes. Logged; equal = alike.
 */
async function routingRowsAlike(databaseUrl, legs, ctx) {
  const texts = [];
  for (const leg of legs) {
    const email = `route-${slug(leg.name)}-check@bench.test`;
    const [row] = await sql(
      databaseUrl,
      `select to_jsonb(l) - 'id' - 'organization_id' - 'email' - 'source' - 'assignee_ids' - 'search_text'
                - 'created_at' - 'updated_at' - 'purchased_at' - 'changed_at' as lead,
              l.created_at = l.updated_at and l.created_at = l.purchased_at as same_times,
              cardinality(l.assignee_ids) as owners,
              (select jsonb_agg(jsonb_build_object('type', h.type, 'payload', h.payload, 'source', h.source,
                        'actorId', h.actor_id, 'at', h.occurred_at = l.created_at) order by h.type)
                 from lead_history h where h.lead_id = l.id) as history,
              (select jsonb_agg(jsonb_build_object('origin', i.origin, 'message', i.message, 'listing', i.listing,
                        'actor', left(i.actor, 12)) order by i.occurred_at, i.id)
                 from lead_inquiries i where i.lead_id = l.id) as inquiries,
              (select jsonb_agg(to_jsonb(d) - 'id' - 'organization_id' - 'lead_id' - 'at' - 'rule_id' - 'route_name'
                        - 'user_id' - 'chain_user_ids' - 'steps'
                        || jsonb_build_object('chain', cardinality(d.chain_user_ids),
                             'why', regexp_replace(d.why, ' after .* did not match', ''),
                             'steps', (select jsonb_agg(st) from jsonb_array_elements(d.steps) st
                                        where st->>'outcome' <> 'no_match')))
                 from routing_decisions d where d.lead_id = l.id) as decisions,
              (select count(*)::int from integration_external_ids e where e.lead_id = l.id) as external_ids
         from leads l where l.email = $1`,
      [email],
    );
    const text = JSON.stringify(row ?? null)
      .replaceAll(ctx.routing.routes[leg.name], '<rule>')
      .replaceAll(`Bench ${leg.name}`, '<route>')
      .replaceAll(routingSource(leg.name), '<source>')
      .replace(/"integration:[^"]*"/g, '"integration:<key>"')
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) =>
        ctx.routing.pool.includes(id) ? '<pool>' : id,
      );
    texts.push(text);
  }
  const alike = texts.every((t) => t === texts[0]);
  if (alike) log(`routing: the check leads' rows are alike on every side: ${texts[0].slice(0, 1500)}`);
  else {
    log("WARNING routing: the check leads' rows differ");
    for (const [i, t] of texts.entries()) log(`  ${legs[i].name}: ${t}`);
  }
  return alike;
}

/** An intake answer with its ids blanked (the assignee: whether it is one of the pool). */
const intakeComparable =
  (pool) =>
  ({ status, body }) =>
    `${status} ${JSON.stringify(
      body?.error
        ? { code: body.error.code }
        : {
            ...body,
            leadId: typeof body?.leadId === 'number' ? 'id' : body?.leadId,
            assigneeIds: body?.assigneeIds?.map((id) => (pool.includes(id) ? 'pool' : id)),
          },
    )}`;

// ---- queues (issue 13, W5): a stored queue's preview over the whole agency
/** Seconds per leg, split over the rounds; connections. */
const QUEUE_SECONDS = Number(process.env.BENCH_QUEUE_SECONDS ?? 30);
const QUEUE_CONNECTIONS = Number(process.env.BENCH_QUEUE_CONNECTIONS ?? 4);
const condition = (field, operator, value) => ({ type: 'condition', field, operator, value });
const group = (combinator, ...children) => ({ type: 'group', combinator, children });
const boolean = { kind: 'boolean', value: true };

/**
 * 4 lanes; the root a condition plus one nested group; over `lastCallAt`, `taskOverdue`, `tag`
 * and `notesContain` (the demo's notes: "viewing" and "mortgage" each match a share of leads).
 */
const queueBody = (tagIds) => ({
  name: 'Bench: who to call',
  scope: 'shared',
  root: group(
    'and',
    condition('tag', 'has_none_of', { kind: 'strings', values: [tagIds[3]] }),
    group(
      'or',
      condition('lastCallAt', 'not_in_last_n_days', { kind: 'integer', value: 3 }),
      condition('taskOverdue', 'is_true', boolean),
      condition('notesContain', 'contains', { kind: 'string', value: 'viewing' }),
    ),
  ),
  lanes: [
    { id: 'overdue', name: 'Overdue', when: group('and', condition('taskOverdue', 'is_true', boolean)) },
    {
      id: 'mortgage',
      name: 'Mortgage',
      when: group('and', condition('notesContain', 'contains', { kind: 'string', value: 'mortgage' })),
      sort: { key: 'lastCallAt', dir: 'desc' },
    },
    {
      id: 'tagged',
      name: 'Tagged',
      when: group('and', condition('tag', 'has_any_of', { kind: 'strings', values: [tagIds[0]] })),
    },
    {
      id: 'stale',
      name: 'Not called this week',
      when: group('and', condition('lastCallAt', 'not_in_last_n_days', { kind: 'integer', value: 7 })),
      sort: { key: 'nextTaskDueAt', dir: 'asc' },
    },
  ],
  rest: 'last',
});

/** The built modules the API runs (the same ones the baseline imports). */
const built = (file) => require(path.join(ROOT, 'dist/libs', file));

/** The preview's statement for the stored queue, as the API builds it for the key's person. */
async function queueStatement(ctx, memberId) {
  const [queue] = await sql(
    ctx.databaseUrl,
    'select name, icon, scope, definition from queues where id = $1',
    [ctx.queue.id],
  );
  const definition = { name: queue.name, icon: queue.icon, scope: queue.scope, ...queue.definition };
  const population = built('crm/src/domain/lead-reach.js').leadReachSql('l', {
    organizationId: ctx.organizationId,
    memberId,
  });
  const statement = built('queues/src/domain/queue-preview.sql.js').queuePreviewStatement(
    population,
    definition,
    { now: new Date(), viewerId: memberId ?? ctx.queue.viewerId },
  );
  return numbered(statement);
}

/** A statement's `?` placeholders as `$1`, `$2`, … for `pg`. */
function numbered(statement) {
  let n = 0;
  return { text: statement.sql.replace(/\?/g, () => `$${++n}`), params: statement.params };
}

const WORKLOADS = {
  door: {
    title: '`GET /v1/me` against `GET /health` on the same API process (what the `/v1` door adds)',
    row: '`GET /v1/me` ÷ `GET /health` (door)',
    legs: [
      { side: 'api', route: '/v1/me', path: () => () => '/v1/me' },
      { side: 'api', route: '/health', path: () => () => '/health', reference: true },
    ],
  },
  me: {
    title: '`GET /v1/me`',
    row: '`GET /v1/me`',
    path: () => () => '/v1/me',
    target: { ratio: 0.5 },
    before: { apiRps: 1218, baselineRps: 4829, ratio: 0.26, apiP99: 74 },
  },
  list: {
    title: `\`GET /v1/leads?limit=25&page=p\`, p uniform in 1-${PAGES}`,
    row: `\`GET /v1/leads?limit=25&page=p\`, p uniform in 1-${PAGES}`,
    path: () => {
      const random = seededRandom(1);
      return () => `/v1/leads?limit=25&page=${1 + Math.floor(random() * PAGES)}`;
    },
    target: { ratio: 0.8 },
    before: { apiRps: 66, baselineRps: 70, ratio: 0.94, apiP99: 813 },
  },
  'list-page50': {
    title: `\`GET /v1/leads?limit=25&page=${PAGES}\` (the deepest page of the list workload)`,
    row: `\`GET /v1/leads?limit=25&page=${PAGES}\``,
    path: () => () => `/v1/leads?limit=25&page=${PAGES}`,
    target: { ratio: 0.8, openP99Ms: 40 },
  },
  lead: {
    title: '`GET /v1/leads/{id}`, id uniform over the agency’s leads',
    row: '`GET /v1/leads/{id}`',
    path: (ctx) => {
      const random = seededRandom(2);
      return () => `/v1/leads/${ctx.leadIds[Math.floor(random() * ctx.leadIds.length)]}`;
    },
    target: { ratio: 0.8, apiRps: 2000 },
    before: { apiRps: 868, baselineRps: 1532, ratio: 0.46, apiP99: 98 },
  },
  'search-rare': {
    title: '`GET /v1/leads?limit=25&search=` a rare term',
    row: (ctx) => `\`GET /v1/leads?search=${ctx.rare.term}\` rare term (${ctx.rare.matches} matches)`,
    path: (ctx) => () => `/v1/leads?limit=25&search=${encodeURIComponent(ctx.rare.term)}`,
    target: { ratio: 0.85 },
    before: { apiRps: 241, baselineRps: 294, ratio: 0.91, apiP99: 253 },
  },
  'search-common': {
    title: '`GET /v1/leads?limit=25&search=` a common term',
    row: (ctx) =>
      `\`GET /v1/leads?search=${ctx.common.term}\` common term (${ctx.common.matches.toLocaleString('en')} matches)`,
    path: (ctx) => () => `/v1/leads?limit=25&search=${encodeURIComponent(ctx.common.term)}`,
    target: { ratio: 0.85 },
    before: { apiRps: 104, baselineRps: 127, ratio: 0.83, apiP99: 541 },
  },
  ingest: {
    title: `\`PUT /integrations/v1/calls/{externalId}\`: ${INGEST_REQUESTS.toLocaleString('en')} new calls per leg`,
    row: '`PUT /integrations/v1/calls/{externalId}` (a new call each)',
    section: 'ingest',
    rateOn2xx: true,
    requests: INGEST_REQUESTS,
    warmupRequests: INGEST_WARMUP,
    open: false,
    /** Enough keys for every leg's warm-up and rounds, and the answer checks. */
    prepare: async ({ databaseUrl, ctx, agency, legCount, rounds }) => {
      const perLeg = INGEST_WARMUP + rounds * Math.ceil(INGEST_REQUESTS / rounds) + 100;
      const keys = await issueIntegrationKeys(
        databaseUrl,
        agency,
        Math.ceil((legCount * perLeg) / KEY_USES) + 2,
      );
      const [{ calls }] = await sql(databaseUrl, 'select count(*)::int as calls from calls');
      ctx.ingest = { keys, used: 0, counters: new Map(), callsBefore: calls };
      log(
        `ingest: ${keys.length} integration keys issued; ${calls.toLocaleString('en')} calls stored before`,
      );
    },
    /**
     * Each leg writes into its own externalId range (`bench-<leg>-<n>`, n never reused), so every
     * PUT creates a call; the leads come from a seeded generator restarted for every run, so both
     * sides link the same leads in the same order.
     */
    request: (ctx, legName) => {
      const random = seededRandom(12);
      const prefix = `bench-${legName.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-`;
      const state = ctx.ingest;
      return () => {
        const n = (state.counters.get(prefix) ?? 0) + 1;
        state.counters.set(prefix, n);
        const leadId = ctx.leadIds[Math.floor(random() * ctx.leadIds.length)];
        return {
          method: 'PUT',
          path: `/integrations/v1/calls/${prefix}${n}`,
          headers: { authorization: `Bearer ${nextKey(state)}` },
          body: JSON.stringify(callBody(random, leadId)),
        };
      };
    },
    /** Both sides answer the same statuses and shapes: 201 create, 200 update, 409 flip, 404 lead, 401 wrong key. */
    check: async (legs, ctx, headers) => {
      const random = seededRandom(99);
      const body = callBody(random, ctx.leadIds[0]);
      const texts = [];
      for (const leg of legs) {
        const key = { authorization: `Bearer ${nextKey(ctx.ingest)}` };
        const route = `/integrations/v1/calls/bench-check-${leg.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
        const put = (json, h = key) =>
          getJson(
            leg.server.base,
            route,
            { ...h, 'content-type': 'application/json' },
            'PUT',
            JSON.stringify(json),
          );
        const answers = [
          await put(body),
          await put({ ...body, status: 'failed' }),
          await put({ ...body, direction: body.direction === 'inbound' ? 'outbound' : 'inbound' }),
          await put({ ...body, leadId: 999_999_999 }),
          await put(body, headers),
        ];
        texts.push(answers.map(comparable).join(' | '));
      }
      return texts;
    },
    /** Calls created by each leg (its externalId range). */
    after: async ({ databaseUrl, legs }) => {
      const out = {};
      for (const leg of legs) {
        const prefix = `bench-${leg.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-`;
        const [{ n }] = await sql(
          databaseUrl,
          "select count(*)::int as n from calls where connector = $1 and external_id like $2 || '%'",
          [CONNECTOR, prefix],
        );
        out[leg.name] = n;
      }
      return { callsCreated: out };
    },
  },
  routing: {
    title: `\`PUT /integrations/v1/leads/{externalId}\`: ${ROUTING_REQUESTS.toLocaleString('en')} new leads per leg onto a ${ROUTING_POOL}-person round robin`,
    row: `\`PUT /integrations/v1/leads/{externalId}\` (a new person each, routed round robin over ${ROUTING_POOL})`,
    section: 'routing',
    rateOn2xx: true,
    /** The error codes of answers other than 2xx are counted (503 shed or otherwise). */
    errorCodes: true,
    requests: ROUTING_REQUESTS,
    warmupRequests: ROUTING_WARMUP,
    open: false,
    /** The pool of 10, the integration keys (each serves KEY_USES intakes), the admin's key. */
    prepare: async ({ databaseUrl, ctx, agency, legCount, rounds, api }) => {
      const pool = await routingPool(databaseUrl, agency);
      const perLeg = ROUTING_WARMUP + rounds * Math.ceil(ROUTING_REQUESTS / rounds) + 100;
      const keys = await issueIntegrationKeys(
        databaseUrl,
        agency,
        Math.ceil((legCount * perLeg) / KEY_USES) + 2,
      );
      ctx.routing = {
        pool,
        adminKey: agency.admin.apiKey,
        apiBase: api.base,
        keys: { keys, used: 0 },
        counters: new Map(),
        routes: null,
      };
      log(`routing: pool of ${pool.length} people; ${keys.length} integration keys issued`);
    },
    /** A new person each time: externalId `route-<leg>-<n>`, email `route-<leg>-<n>@bench.test`. */
    request: (ctx, legName) => {
      const prefix = `route-${slug(legName)}-`;
      const source = routingSource(legName);
      const state = ctx.routing;
      return () => {
        const n = (state.counters.get(prefix) ?? 0) + 1;
        state.counters.set(prefix, n);
        return {
          method: 'PUT',
          path: `/integrations/v1/leads/${prefix}${n}`,
          headers: { authorization: `Bearer ${nextKey(state.keys)}` },
          body: JSON.stringify({
            source,
            firstName: 'Bench',
            lastName: `Lead ${n}`,
            email: `${prefix}${n}@bench.test`,
            message: 'Is it still available?',
          }),
        };
      };
    },
    /**
     * The legs' routes first (through the API); then both sides answer alike: 201 a new lead
     * routed to one of the pool, 200 the same externalId again, 200 a new externalId with the same
     * email, 401 a wrong key.
     */
    check: async (legs, ctx, headers) => {
      await routingRoutes(legs, ctx);
      const texts = [];
      for (const leg of legs) {
        const key = { authorization: `Bearer ${nextKey(ctx.routing.keys)}` };
        const prefix = `route-${slug(leg.name)}-check`;
        const body = { source: routingSource(leg.name), email: `${prefix}@bench.test`, firstName: 'Check' };
        const put = (id, h = key) =>
          getJson(
            leg.server.base,
            `/integrations/v1/leads/${id}`,
            { ...h, 'content-type': 'application/json' },
            'PUT',
            JSON.stringify(body),
          );
        const answers = [
          await put(prefix),
          await put(prefix),
          await put(`${prefix}-2`),
          await put(prefix, headers),
        ];
        texts.push(answers.map(intakeComparable(ctx.routing.pool)).join(' | '));
      }
      return texts;
    },
    /**
     * Per leg: its route's decisions per person (fairness: max − min, must be ≤ 1), its leads
     * (email `route-<leg>-%`), how many stayed unassigned, and the decisions on them.
     */
    after: async ({ databaseUrl, legs, ctx }) => {
      const fairness = {};
      for (const leg of legs) {
        const ruleId = ctx.routing.routes[leg.name];
        const counts = await sql(
          databaseUrl,
          `select p.user_id, count(d.id)::int as n
             from unnest($2::uuid[]) as p(user_id)
             left join routing_decisions d on d.rule_id = $1 and d.user_id = p.user_id
            group by p.user_id`,
          [ruleId, ctx.routing.pool],
        );
        const [leads] = await sql(
          databaseUrl,
          `select count(*)::int as leads, count(*) filter (where cardinality(l.assignee_ids) = 0)::int as unassigned,
                  (select count(*)::int from routing_decisions d join leads x on x.id = d.lead_id
                    where x.email like $1 || '%') as decisions
             from leads l where l.email like $1 || '%'`,
          [`route-${slug(leg.name)}-`],
        );
        const [outside] = await sql(
          databaseUrl,
          `select count(*)::int as n from routing_decisions where rule_id = $1 and not (user_id = any($2::uuid[]))`,
          [ruleId, ctx.routing.pool],
        );
        const values = counts.map((row) => row.n);
        const max = Math.max(...values);
        const min = Math.min(...values);
        fairness[leg.name] = {
          ruleId,
          decisions: values.reduce((a, b) => a + b, 0),
          perPerson: Object.fromEntries(counts.map((row) => [row.user_id, row.n])),
          min,
          max,
          spread: max - min,
          fair: max - min <= 1 && outside.n === 0,
          outsidePool: outside.n,
          ...leads,
        };
        log(
          `routing ${leg.name}: ${leads.leads} leads (${leads.unassigned} unassigned), ${fairness[leg.name].decisions} decisions on its route; ` +
            `per person ${min}–${max}: max − min = ${max - min} ${max - min <= 1 ? '(fair)' : '(**UNFAIR**)'}`,
        );
      }
      return { fairness, rowsAlike: await routingRowsAlike(databaseUrl, legs, ctx) };
    },
  },
  queues: {
    title: `\`POST /v1/queues/preview {queueId}\`: a stored queue of 4 lanes over the whole agency (admin), ${QUEUE_CONNECTIONS} connections, ${QUEUE_SECONDS} s per leg`,
    row: '`POST /v1/queues/preview {queueId}` (4 lanes, admin: every lead)',
    connections: QUEUE_CONNECTIONS,
    secondsPerLeg: QUEUE_SECONDS,
    open: false,
    target: { ratio: 0.85, p99Ms: 250 },
    /** The queue, stored through the API by the admin; its statement's plan before the runs. */
    prepare: async ({ ctx, agency, api }) => {
      const headers = { authorization: `Bearer ${agency.admin.apiKey}`, 'content-type': 'application/json' };
      const res = await getJson(
        api.base,
        '/v1/queues',
        headers,
        'POST',
        JSON.stringify(queueBody(agency.tagIds)),
      );
      if (res.status !== 201)
        throw new Error(`bench queues: queue not created: ${res.status} ${JSON.stringify(res.body)}`);
      ctx.queue = { id: res.body.id, viewerId: agency.admin.userId };
      log(`queues: queue ${ctx.queue.id} stored: ${res.body.summary}`);
    },
    request: (ctx) => {
      const body = JSON.stringify({ queueId: ctx.queue.id });
      return () => ({ method: 'POST', path: '/v1/queues/preview', body });
    },
    check: async (legs, ctx, headers) => {
      const texts = [];
      for (const leg of legs) {
        const res = await getJson(
          leg.server.base,
          '/v1/queues/preview',
          { ...headers, 'content-type': 'application/json' },
          'POST',
          JSON.stringify({ queueId: ctx.queue.id }),
        );
        texts.push(`${res.status} ${canonical(res.body)}`);
      }
      return texts;
    },
    /** The statement's plan (EXPLAIN ANALYZE, BUFFERS) on the seeded database, after the runs. */
    after: async ({ ctx, memberId = null }) => {
      const { text, params } = await queueStatement(ctx, memberId);
      // in a transaction with the preview's own settings, as both sides run it
      const settings = numbered(
        built('platform/src/db/transaction-settings.js').transactionSettingsStatement(
          built('queues/src/domain/queue-preview.sql.js').previewSettings(5_000),
        ),
      );
      const client = new Client({ connectionString: ctx.databaseUrl });
      await client.connect();
      let plan;
      try {
        await client.query('begin');
        await client.query(settings.text, settings.params);
        const { rows } = await client.query(`explain (analyze, buffers) ${text}`, params);
        plan = rows.map((row) => row['QUERY PLAN']).join('\n');
        await client.query('rollback');
      } finally {
        await client.end();
      }
      log(`queues: plan of the preview statement:\n${plan}`);
      return { plan };
    },
  },
  'queues-member': {
    title: `the same preview opened by a member (the leads assigned to them), ${QUEUE_CONNECTIONS} connections, ${QUEUE_SECONDS} s per leg`,
    row: '`POST /v1/queues/preview {queueId}` (4 lanes, a member: their leads)',
    connections: QUEUE_CONNECTIONS,
    secondsPerLeg: QUEUE_SECONDS,
    open: false,
    target: { ratio: 0.85, p99Ms: 250 },
    /** The queue (shared with everyone) stored by the admin unless the `queues` workload did. */
    prepare: async (args) => {
      if (!args.ctx.queue) await WORKLOADS.queues.prepare(args);
      const member = args.agency.members[0];
      args.ctx.queueMember = { authorization: `Bearer ${member.apiKey}`, userId: member.userId };
    },
    request: (ctx) => {
      const body = JSON.stringify({ queueId: ctx.queue.id });
      const headers = { authorization: ctx.queueMember.authorization };
      return () => ({ method: 'POST', path: '/v1/queues/preview', body, headers });
    },
    check: (legs, ctx) => WORKLOADS.queues.check(legs, ctx, { authorization: ctx.queueMember.authorization }),
    after: ({ ctx }) => WORKLOADS.queues.after({ ctx, memberId: ctx.queueMember.userId }),
  },
  deals: {
    title: "`GET /v1/deals?status=open`: the key's person's open deals (capped at 1,000) with participants",
    row: '`GET /v1/deals?status=open`',
    path: () => () => '/v1/deals?status=open',
  },
  // issue 15 (bench/documents.js): `documents-big`, `documents-list`, `documents-list-body`
  ...DOCUMENT_WORKLOADS,
  // issue 16 (bench/listings.js): `listings-box`, `listings-price`, `listings-count`
  ...LISTING_WORKLOADS,
  // issue 17 (bench/network.js): `brochure-page`, `viewings-list`
  ...NETWORK_WORKLOADS,
  // issue 18 (bench/search.js): `crm-search-rare`, `-common`, `-multilingual`, `-typo`, `crm-search-note`
  ...SEARCH_WORKLOADS,
  // issue 19 (bench/events.js): `events-note` (the outbox's cost), `events-lag` (webhook delivery)
  ...EVENT_WORKLOADS,
};

const DEFAULT_WORKLOADS = ['me', 'list', 'list-page50', 'lead', 'search-rare', 'search-common', 'door'];

/**
 * What the workloads draw from, read from the seeded agency with SQL: every lead id, a rare search
 * term (an email's local part matching about 3 leads) and a common one (the last name matching
 * the most leads; thousands on the demo agency).
 */
async function prepareContext(databaseUrl, organizationId) {
  const leadIds = (
    await sql(databaseUrl, 'select id from leads where organization_id = $1 order by id', [organizationId])
  ).map((row) => Number(row.id));
  const matches = `(select count(*) from leads l
                     where l.organization_id = $1 and l.search_text like '%' || c.term || '%')::int`;
  const plain = `c.term !~ '[%_\\\\]'`;
  const [common] = await sql(
    databaseUrl,
    `select term, matches from (
       select c.term, ${matches} as matches
         from (select distinct lower(last_name) as term from leads where organization_id = $1) c
        where ${plain}) x
      order by matches desc, term limit 1`,
    [organizationId],
  );
  const [rare] = await sql(
    databaseUrl,
    `select term, matches from (
       select c.term, ${matches} as matches
         from (select split_part(email, '@', 1) as term from leads where organization_id = $1
                order by created_at desc, id desc limit 300) c
        where ${plain}) x
      order by abs(matches - 3), term limit 1`,
    [organizationId],
  );
  log(
    `search terms: rare "${rare.term}" (${rare.matches} matches), common "${common.term}" (${common.matches})`,
  );
  return { databaseUrl, organizationId, leadIds, rare, common };
}

function selectWorkloads(names) {
  const unknown = names.filter((name) => !WORKLOADS[name]);
  if (unknown.length) {
    throw new Error(`unknown workload(s) ${unknown.join(', ')}; known: ${Object.keys(WORKLOADS).join(', ')}`);
  }
  return names.map((name) => ({ name, ...WORKLOADS[name] }));
}

module.exports = { WORKLOADS, DEFAULT_WORKLOADS, prepareContext, selectWorkloads };
