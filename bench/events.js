'use strict';
// Issue 19's workloads (bench/README.md "Issue 19: events and webhooks"), not in the default set:
// - `events-list`: `GET /v1/events?after=…&limit=100` as the admin, halfway through 200,000 events of
//   the agency (seeded as the Outbox writes them), against the baseline's same page statement and view.
// - `events-note`: what the outbox costs a write: `POST /v1/leads/{id}/notes` on the API (its
//   event recorded in the transaction when the build emits `note.created`), and on the baseline the
//   same note insert (with the indexer's statements, as the API) with and without the outbox's
//   statement (`insertEventsStatement`, the last before COMMIT, as the Outbox's subscriber runs it).
// - `events-lag`: commit-to-receiver lag of webhook deliveries at 200 events a second: a local
//   receiver behind one endpoint (`*`), events committed straight into the log by the outbox's own
//   statement (one transaction each, paced), the time from each COMMIT to its POST's arrival. The
//   API runs without REDIS_URL (its in-process pump); signatures checked with `standardwebhooks`.
const http = require('node:http');
const path = require('node:path');
const { Client } = require('pg');
const { Webhook } = require('standardwebhooks');
const { ROOT, log, sql, seededRandom, getJson, canonical, interleavedLegs, round } = require('./lib');

const env = process.env;
/** `events-note`: notes per leg (a count), before the rounds, and connections. */
const NOTE_REQUESTS = Number(env.BENCH_EVENTS_NOTES ?? 2000);
const NOTE_WARMUP = Number(env.BENCH_EVENTS_NOTE_WARMUP ?? 100);
const CONNECTIONS = Number(env.BENCH_EVENTS_CONNECTIONS ?? 4);
/** `events-lag`: events a second, for how long, and how long to wait for the last deliveries. */
const LAG_RATE = Number(env.BENCH_EVENTS_RATE ?? 200);
const LAG_SECONDS = Number(env.BENCH_EVENTS_SECONDS ?? 30);
const LAG_DRAIN_SECONDS = Number(env.BENCH_EVENTS_DRAIN_SECONDS ?? 30);

const built = (file) => require(path.join(ROOT, 'dist/libs', file));
const n = (value) => (value === null || value === undefined ? '–' : Number(value).toLocaleString('en'));
const ms = (value) =>
  value === null || value === undefined ? '–' : String(round(value, value < 10 ? 1 : 0));
const sleep = (t) => new Promise((resolve) => setTimeout(resolve, t));
const percentile = (sorted, p) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : null;

// ---------------------------------------------------------------- events-note

const NOTE_TEXT = 'Called the client back: second viewing of the villa on Saturday, budget confirmed.';

/** Three legs, closed loop, every leg the same notes on the same leads (a seeded generator per leg). */
async function runNotes({ sides, ctx, meter, headers, config }) {
  const legs = [
    { name: 'API (outbox in the transaction)', server: sides.api, query: '' },
    { name: 'baseline with the outbox statement', server: sides.baseline, query: '?events=1' },
    { name: 'baseline without it', server: sides.baseline, query: '?events=0' },
  ];
  const result = { name: 'events-note', legs: {}, pairs: [], warmup: {} };
  const next = (leg) => {
    const random = seededRandom(1919);
    let i = 0;
    return () => {
      i += 1;
      const leadId = ctx.leadIds[Math.floor(random() * ctx.leadIds.length)];
      return {
        method: 'POST',
        path: `/v1/leads/${leadId}/notes${leg.query}`,
        body: JSON.stringify({ content: `${NOTE_TEXT} (bench event note ${i})` }),
      };
    };
  };
  // one note per leg first: its answer, and whether it left an event
  const checks = [];
  for (const leg of legs) {
    const route = next(leg)();
    const res = await getJson(
      leg.server.base,
      route.path,
      { ...headers, 'content-type': 'application/json' },
      'POST',
      route.body,
    );
    const events = res.body?.id
      ? (
          await sql(
            ctx.databaseUrl,
            `select count(*)::int as n from event where organization_id = $1 and subject_id = $2`,
            [ctx.organizationId, res.body.id],
          )
        )[0].n
      : null;
    checks.push({ leg: leg.name, status: res.status, events });
  }
  log(`events-note: one note per leg: ${JSON.stringify(checks)}`);
  result.checks = checks;
  await interleavedLegs({
    label: 'events-note',
    unit: 'notes',
    legs,
    next,
    headers,
    connections: CONNECTIONS,
    warmup: NOTE_WARMUP,
    requests: NOTE_REQUESTS,
    rounds: config.rounds,
    meter,
    result,
  });
  const [api, withEvent, without] = legs.map((leg) => result.legs[leg.name]);
  result.outboxCost = {
    // the ratio the issue asks for: the API's notes with the outbox over the baseline's without it
    apiOverBaselineWithout: round(api.rps / without.rps, 2),
    baselineWithOverWithout: round(withEvent.rps / without.rps, 2),
    p50AddedMs: round(withEvent.p50 - without.p50, 2),
    dbCpuAddedMs: round(withEvent.dbCpuMsPerRequest - without.dbCpuMsPerRequest, 3),
  };
  log(`events-note: the outbox costs ${JSON.stringify(result.outboxCost)}`);
  const removed = await sql(
    ctx.databaseUrl,
    `with gone as (delete from notes where organization_id = $1 and content like '%(bench event note %' returning id)
     select count(*)::int as notes from gone`,
    [ctx.organizationId],
  );
  result.removed = removed[0];
  return result;
}

// ---------------------------------------------------------------- events-lag

/** A receiver on a local port: the arrival time of each `webhook-id`, its body and headers. */
async function receiver() {
  const arrivals = new Map();
  const received = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const at = performance.timeOrigin + performance.now();
      const id = String(req.headers['webhook-id']);
      received.push({ id, at, body, headers: req.headers });
      if (!arrivals.has(id)) arrivals.set(id, at);
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://localhost:${server.address().port}/bench-hook`,
    arrivals,
    received,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

async function runLag({ sides, ctx, headers }) {
  const outbox = built('platform/src/events/outbox.js');
  const sink = await receiver();
  const result = { name: 'events-lag', legs: {}, pairs: [] };
  const created = await getJson(
    sides.api.base,
    '/v1/webhook-endpoints',
    { ...headers, 'content-type': 'application/json' },
    'POST',
    JSON.stringify({ url: sink.url, events: ['*'], description: 'bench events-lag' }),
  );
  if (created.status !== 201)
    throw new Error(`events-lag: endpoint not created: ${created.status} ${JSON.stringify(created.body)}`);
  const endpoint = created.body;
  const total = Math.round(LAG_RATE * LAG_SECONDS);
  const committed = new Map();
  // a few connections, each committing its share in turn: one transaction per event, paced
  const clients = await Promise.all(
    [0, 1, 2, 3].map(async () => {
      const c = new Client({ connectionString: ctx.databaseUrl });
      await c.connect();
      return c;
    }),
  );
  const toPg = (s) => {
    let i = 0;
    return { text: s.sql.replace(/\?/g, () => `$${++i}`), values: s.params };
  };
  const started = performance.now();
  let late = 0;
  const commits = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / LAG_RATE;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    else if (wait < -50) late += 1;
    const client = clients[i % clients.length];
    const id = `evt_bench_${process.pid}_${i}`;
    const draft = {
      id,
      organizationId: ctx.organizationId,
      type: 'note.created',
      occurredAt: new Date(),
      subject: { type: 'note', id: `bench-${i}`, leadId: ctx.leadIds[i % ctx.leadIds.length] },
      recordVersion: 1,
      actor: { type: 'system', id: null, userId: null },
      data: { object: { id: `bench-${i}`, content: NOTE_TEXT } },
    };
    // each connection runs its transactions one after another (a chain per connection)
    client.chain = (client.chain ?? Promise.resolve()).then(async () => {
      await client.query('begin');
      await client.query(toPg(outbox.insertEventsStatement(ctx.organizationId, [draft])));
      await client.query('commit');
      committed.set(id, performance.timeOrigin + performance.now());
    });
    commits.push(client.chain);
  }
  await Promise.all(commits);
  const sendSeconds = round((performance.now() - started) / 1000, 1);
  const drainUntil = Date.now() + LAG_DRAIN_SECONDS * 1000;
  while (sink.arrivals.size < total && Date.now() < drainUntil) await sleep(100);
  await Promise.all(clients.map((c) => c.end()));
  const lags = [];
  for (const [id, at] of committed) {
    const arrived = sink.arrivals.get(id);
    if (arrived !== undefined) lags.push(arrived - at);
  }
  lags.sort((x, y) => x - y);
  // every signature, with the package integrators use
  const wh = new Webhook(
    (await sql(ctx.databaseUrl, 'select secret from webhook_endpoint where id = $1', [endpoint.id]))[0]
      .secret,
  );
  let verified = 0;
  for (const r of sink.received) {
    try {
      wh.verify(r.body, {
        'webhook-id': r.headers['webhook-id'],
        'webhook-timestamp': r.headers['webhook-timestamp'],
        'webhook-signature': r.headers['webhook-signature'],
      });
      verified += 1;
    } catch {
      // counted below as unverified
    }
  }
  result.lag = {
    rate: LAG_RATE,
    seconds: LAG_SECONDS,
    sendSeconds,
    lateCommits: late,
    events: total,
    delivered: lags.length,
    posts: sink.received.length,
    duplicates: sink.received.length - sink.arrivals.size,
    verified,
    p50: round(percentile(lags, 50), 1),
    p90: round(percentile(lags, 90), 1),
    p99: round(percentile(lags, 99), 1),
    max: round(lags[lags.length - 1], 1),
  };
  log(`events-lag: ${JSON.stringify(result.lag)}`);
  await getJson(sides.api.base, `/v1/webhook-endpoints/${endpoint.id}`, headers, 'DELETE');
  await sql(ctx.databaseUrl, `delete from event where organization_id = $1 and id like 'evt_bench_%'`, [
    ctx.organizationId,
  ]);
  await sink.close();
  return result;
}

// ---------------------------------------------------------------- the workloads and the report

// ---------------------------------------------------------------- events-list

/** Events seeded in the demo agency for `events-list`; the page read starts halfway. */
const LIST_EVENTS = Number(env.BENCH_EVENTS_LOG ?? 200_000);
const LIST_LIMIT = 100;

/**
 * LIST_EVENTS `note.created` events of the agency's leads, numbered after its counter (the rows the
 * Outbox writes, written directly), the counter moved past them; then `vacuum analyze event`.
 */
async function seedEventLog({ databaseUrl, ctx }) {
  if (ctx.eventLog) return;
  const started = Date.now();
  const [{ first }] = await sql(
    databaseUrl,
    `select coalesce((select last from org_event_counter where organization_id = $1), 0)::bigint + 1 as first`,
    [ctx.organizationId],
  );
  const object = { content: NOTE_TEXT, authorId: null, untrusted: false };
  await sql(
    databaseUrl,
    `insert into event (id, organization_id, sequence, type, occurred_at, subject_type, subject_id, lead_id,
                        record_version, actor, data, changed_fields)
     select 'evt_bench_' || g, $1, $2::bigint + g - 1, 'note.created',
            now() - make_interval(secs => ($3 - g) * 2), 'note', gen_random_uuid()::text,
            ($4::bigint[])[1 + (g % array_length($4::bigint[], 1))], 1,
            '{"type": "system", "id": null, "userId": null}'::jsonb,
            jsonb_build_object('object', $5::jsonb || jsonb_build_object('id', 'bench-' || g)), null
       from generate_series(1, $3) g`,
    [ctx.organizationId, first, LIST_EVENTS, ctx.leadIds, JSON.stringify(object)],
  );
  const last = Number(first) + LIST_EVENTS - 1;
  await sql(
    databaseUrl,
    `insert into org_event_counter (organization_id, last) values ($1, $2)
     on conflict (organization_id) do update set last = greatest(org_event_counter.last, excluded.last)`,
    [ctx.organizationId, last],
  );
  await sql(databaseUrl, 'vacuum analyze event');
  ctx.eventLog = { first: Number(first), last, after: Number(first) + Math.floor(LIST_EVENTS / 2) };
  log(`events-list: ${n(LIST_EVENTS)} events seeded in ${round((Date.now() - started) / 1000, 1)} s`);
}

const eventsPath = (ctx) => `/v1/events?after=${ctx.eventLog.after}&limit=${LIST_LIMIT}`;

const eventsList = {
  title: `\`GET /v1/events?after=…&limit=${LIST_LIMIT}\` as the admin, halfway through ${n(LIST_EVENTS)} events of the agency`,
  row: () => `\`GET /v1/events?after=…&limit=${LIST_LIMIT}\` (${n(LIST_EVENTS)} events)`,
  open: false,
  prepare: async (args) => {
    await seedEventLog(args);
    const res = await getJson(args.api.base, eventsPath(args.ctx), args.headers);
    if (res.status !== 200 || res.body.data?.length !== LIST_LIMIT || res.body.hasMore !== true)
      throw new Error(`events-list: answered ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  },
  path: (ctx) => {
    const route = eventsPath(ctx);
    return () => route;
  },
  check: async (legs, ctx, headers) => {
    const texts = [];
    for (const leg of legs) {
      const res = await getJson(leg.server.base, eventsPath(ctx), headers);
      texts.push(`${res.status} ${canonical(res.body)}`);
    }
    return texts;
  },
};

const EVENT_WORKLOADS = {
  'events-list': eventsList,
  'events-note': {
    title: `\`POST /v1/leads/{id}/notes\`: ${n(NOTE_REQUESTS)} notes per leg, with and without the outbox, ${CONNECTIONS} connections`,
    row: '`POST /v1/leads/{id}/notes`',
    section: 'events',
    run: runNotes,
  },
  'events-lag': {
    title: `webhook delivery lag at ${LAG_RATE} events/s for ${LAG_SECONDS} s`,
    row: 'commit → receiver',
    section: 'events',
    apiEnv: { WEBHOOK_ALLOW_INSECURE: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' },
    run: runLag,
  },
};

/** Issue 19's tables: the outbox's cost on note creation; the delivery lag. */
function eventsMarkdown(report) {
  const lines = [];
  const notes = report.workloads['events-note'];
  if (notes) {
    lines.push('| note creation | notes/s | p50 / p99 | CPU ms per note server / PostgreSQL | answers |');
    lines.push('|---|---|---|---|---|');
    for (const [name, leg] of Object.entries(notes.legs)) {
      lines.push(
        `| ${name} | ${n(leg.rps)} | ${ms(leg.p50)} / ${ms(leg.p99)} ms | ${leg.serverCpuMsPerRequest} / ${leg.dbCpuMsPerRequest} | ${JSON.stringify(leg.statuses)} |`,
      );
    }
    lines.push('');
    lines.push(`Events written by the first note of each leg: ${JSON.stringify(notes.checks)}.`);
    lines.push(`Outbox cost: ${JSON.stringify(notes.outboxCost)}.`);
  }
  const lag = report.workloads['events-lag']?.lag;
  if (lag) {
    if (lines.length) lines.push('');
    lines.push(
      '| delivery | events | delivered | duplicates | signatures verified | lag p50 / p90 / p99 / max |',
    );
    lines.push('|---|---|---|---|---|---|');
    lines.push(
      `| ${lag.rate} events/s for ${lag.seconds} s (sent in ${lag.sendSeconds} s, ${lag.lateCommits} late) | ${n(lag.events)} | ` +
        `${n(lag.delivered)} | ${n(lag.duplicates)} | ${n(lag.verified)} of ${n(lag.posts)} | ` +
        `${ms(lag.p50)} / ${ms(lag.p90)} / ${ms(lag.p99)} / ${ms(lag.max)} ms |`,
    );
  }
  return lines;
}

module.exports = { EVENT_WORKLOADS, eventsMarkdown };
