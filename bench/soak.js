'use strict';
// The soak: the built API and worker as deployed (jobs and webhook deliveries in the worker, over
// Redis; SOAK_REDIS=off: no Redis, the jobs on the API's own timers) on a throwaway database with a
// demo agency, under an open-loop load of mixed traffic for SOAK_MINUTES (30) at SOAK_RPS (300)
// requests/s: lead lists and reads by an admin's and two members' keys, `/v1/me`, keyword and
// semantic searches, idempotent creates (one in ten sent twice with the same key), notes, the
// event log, and a webhook endpoint delivering `lead.created` and `note.created` to a local
// receiver. The mix, per 1,000 requests: 200 lead lists, 350 lead reads, 200 `/v1/me`, 100 keyword
// searches, 3 semantic searches, 50 creates, 30 notes, 67 event-log pages (docs/reliability.md).
// Every 10 s it samples the answers (status, p50/p99) and the process (RSS, V8 heap,
// event loop lag from /metrics). Targets: 0 × 5xx, heap and RSS flat (under 10 % growth after the
// warm-up), p99 stable. Run: npm run build && node bench/soak.js. Writes bench/results/soak-<date>.json.
// Env: SOAK_MINUTES (30), SOAK_RPS (300), SOAK_LEADS (3000), SOAK_WARMUP_MINUTES (5), SOAK_REDIS
// (redis://127.0.0.1:6379/7, flushed first; `off`).
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const {
  createBenchDatabase,
  cpuSeconds,
  startApi,
  runOps,
  sql,
  log,
  machine,
  percentile,
  round,
  ROOT,
  timedRequest,
} = require('./lib');

const REDIS_URL =
  process.env.SOAK_REDIS === 'off' ? undefined : (process.env.SOAK_REDIS ?? 'redis://127.0.0.1:6379/7');
const FIRST_SECONDS = 30;
/** SOAK_PROFILE_DIR: a CPU profile of the API over the first seconds, written there. */
const PROFILE_DIR = process.env.SOAK_PROFILE_DIR || undefined;
const MINUTES = Number(process.env.SOAK_MINUTES ?? 30);
const RPS = Number(process.env.SOAK_RPS ?? 300);
const LEADS = Number(process.env.SOAK_LEADS ?? 3_000);
const WARMUP_MINUTES = Number(process.env.SOAK_WARMUP_MINUTES ?? Math.min(5, MINUTES / 3));
const SAMPLE_MS = 10_000;
const TIMEOUT_MS = 30_000;

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/** Each kind's p99 in a sample: which route a climbing p99 comes from. */
const p99ByKind = (answers) => {
  const byKind = {};
  for (const a of answers) (byKind[a.kind] ??= []).push(a.ms);
  return Object.fromEntries(
    Object.entries(byKind).map(([kind, ms]) => [
      kind,
      round(percentile(Float64Array.from(ms).sort(), 99), 1),
    ]),
  );
};

const request = (base, method, route, headers, body) =>
  timedRequest(base, method, route, { headers, body, agent, timeoutMs: TIMEOUT_MS });

/** A local webhook receiver: counts deliveries by event type, answers 204. */
function startReceiver() {
  const received = { total: 0, byType: {} };
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      received.total += 1;
      try {
        const type = JSON.parse(Buffer.concat(chunks).toString()).type;
        received.byType[type] = (received.byType[type] ?? 0) + 1;
      } catch {
        // not JSON: counted in total only
      }
      res.writeHead(204).end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ received, url: `http://127.0.0.1:${server.address().port}/hook`, server }),
    ),
  );
}

async function metricsOf(port) {
  try {
    const text = await (
      await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(2_000) })
    ).text();
    const value = (name) =>
      Number(new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+-]+)$`, 'm').exec(text)?.[1] ?? NaN);
    return {
      rssMB: round(value('process_resident_memory_bytes') / 2 ** 20, 1),
      heapUsedMB: round(value('nodejs_heap_size_used_bytes') / 2 ** 20, 1),
      eventLoopLagP99Ms: round(value('nodejs_eventloop_lag_p99_seconds') * 1000, 1),
      poolWaiting: value('db_pool_connections\\{state="waiting"\\}'),
    };
  } catch {
    return { unavailable: true };
  }
}

/** The built worker on the soak's database and Redis; resolves once it logged that it started. */
async function startWorker(databaseUrl, logFile) {
  const out = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, [path.join(ROOT, 'dist/apps/worker/src/main.js')], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      REDIS_URL,
      LOG_LEVEL: 'info',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      WEBHOOK_ALLOW_INSECURE: 'true',
    },
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  const deadline = Date.now() + 60_000;
  while (!fs.readFileSync(logFile, 'utf8').includes('worker started')) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`worker did not start (see ${logFile})`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return child;
}

async function main() {
  const db = await createBenchDatabase();
  if (REDIS_URL) {
    const Redis = require('ioredis');
    const redis = new Redis(REDIS_URL);
    await redis.flushdb();
    redis.disconnect();
  }
  const receiver = await startReceiver();
  const metricsPort = 20_000 + Math.floor(Math.random() * 20_000);
  const api = await startApi({
    databaseUrl: db.url,
    env: {
      LOG_LEVEL: 'warn',
      METRICS_PORT: String(metricsPort),
      OUTBOUND_ALLOW_PRIVATE: 'true',
      WEBHOOK_ALLOW_INSECURE: 'true',
      ...(REDIS_URL ? { REDIS_URL } : {}),
    },
    logFile: path.join(require('node:os').tmpdir(), `soak-api-${Date.now()}.log`),
    profileDir: PROFILE_DIR,
  });
  const worker = REDIS_URL
    ? await startWorker(db.url, path.join(require('node:os').tmpdir(), `soak-worker-${Date.now()}.log`))
    : null;
  const samples = [];
  const totals = {
    requests: 0,
    statuses: {},
    errors: {},
    creates: 0,
    replays: 0,
    replaysRefused: 0,
    replayMismatches: 0,
  };
  try {
    const agency = await runOps(db.url, ['seed:demo', '--leads', String(LEADS), '--json']);
    await runOps(db.url, [
      'search-rate',
      '--org',
      agency.organizationId,
      '--per-minute',
      '1000000',
      '--json',
    ]);
    await sql(db.url, 'update api_keys set rate_limit_per_minute = 100000000');
    await new Promise((r) => setTimeout(r, 5_500)); // the key cache holds a key 5 s
    const keys = [agency.admin.apiKey, ...agency.members.map((m) => m.apiKey)];
    const auth = (i) => ({ authorization: `Bearer ${keys[i % keys.length]}` });
    const admin = { authorization: `Bearer ${agency.admin.apiKey}` };
    const hook = await request(api.base, 'POST', '/v1/webhook-endpoints', admin, {
      url: receiver.url,
      events: ['lead.created', 'note.created'],
    });
    if (hook.status !== 201) throw new Error(`webhook endpoint: ${hook.status} ${hook.text}`);
    const leadIds = (
      await sql(db.url, 'select id from leads where organization_id = $1 order by id', [
        agency.organizationId,
      ])
    ).map((r) => Number(r.id));
    const words = ['garden', 'terrace', 'pool', 'sea view', 'garage', 'penthouse', 'Marbella', 'García'];

    let n = 0;
    let window = [];
    // the first seconds one by one: how a just-started process meets the full rate
    const firstSeconds = [];
    const pick = (list) => list[Math.floor(Math.random() * list.length)];
    const one = async () => {
      const i = n++;
      const r = Math.random();
      let res;
      let kind;
      if (r < 0.2) {
        kind = 'list';
        res = await request(api.base, 'GET', '/v1/leads?limit=25', auth(i));
      } else if (r < 0.55) {
        kind = 'lead';
        res = await request(api.base, 'GET', `/v1/leads/${pick(leadIds)}`, admin);
      } else if (r < 0.75) {
        kind = 'me';
        res = await request(api.base, 'GET', '/v1/me', auth(i));
      } else if (r < 0.85) {
        kind = 'keyword search';
        res = await request(
          api.base,
          'GET',
          `/v1/leads?limit=25&search=${encodeURIComponent(pick(words))}`,
          auth(i),
        );
      } else if (r < 0.853) {
        kind = 'semantic search';
        res = await request(api.base, 'POST', '/v1/search', auth(i), {
          query: `${pick(words)} with ${pick(words)}`,
        });
      } else if (r < 0.903) {
        kind = 'create';
        const body = {
          firstName: `Soak${i}`,
          lastName: 'Run',
          email: `soak${i}@soak.example`,
          phoneNumber: `+3469${String(i % 10_000_000).padStart(7, '0')}`,
          crmStatus: 'lead',
        };
        const headers = { ...admin, 'idempotency-key': `soak-${process.pid}-${i}` };
        res = await request(api.base, 'POST', '/v1/leads', headers, body);
        totals.creates += 1;
        if (res.status === 201) {
          const id = JSON.parse(res.text).lead?.id;
          if (id) leadIds.push(Number(id));
          if (i % 10 === 0) {
            const again = await request(api.base, 'POST', '/v1/leads', headers, body);
            totals.replays += 1;
            // a replay shed (503) ran nothing and is retried by a client; a different lead is a fault
            if (again.status !== 201) totals.replaysRefused += 1;
            else if (JSON.parse(again.text).lead?.id !== id) totals.replayMismatches += 1;
          }
        }
      } else if (r < 0.933) {
        kind = 'note';
        res = await request(api.base, 'POST', `/v1/leads/${pick(leadIds)}/notes`, admin, {
          content: `Called about the ${pick(words)}; call back next week.`,
        });
      } else {
        kind = 'events';
        res = await request(api.base, 'GET', '/v1/events?limit=100', admin);
      }
      totals.requests += 1;
      const status = res.status ? String(res.status) : `error ${res.error}`;
      totals.statuses[status] = (totals.statuses[status] ?? 0) + 1;
      if (res.status >= 400 || !res.status) {
        let code = '';
        try {
          code = JSON.parse(res.text).error?.code ?? '';
        } catch {
          // not JSON
        }
        const key = `${kind} ${status} ${code}`.trim();
        totals.errors[key] = (totals.errors[key] ?? 0) + 1;
      }
      window.push({ kind, ms: res.ms, status: res.status });
      const second = Math.floor((Date.now() - res.ms - started) / 1000); // by when it was sent
      if (second < FIRST_SECONDS) (firstSeconds[second] ??= []).push(res);
    };

    if (PROFILE_DIR) {
      await api.ask({ profile: 'start' });
      setTimeout(
        () =>
          void api
            .ask({ profile: 'stop', label: 'soak-first-seconds' })
            .then((r) => log(`profile: ${r.profiled}`)),
        FIRST_SECONDS * 1000,
      );
    }
    const started = Date.now();
    const endAt = started + MINUTES * 60_000;
    let sent = 0;
    const ticker = setInterval(() => {
      const due = Math.min(Math.floor(((Date.now() - started) * RPS) / 1000), Math.floor(MINUTES * 60 * RPS));
      for (; sent < due; sent++) void one();
    }, 5);
    const sampler = setInterval(async () => {
      const answers = window;
      window = [];
      const ms = Float64Array.from(answers.map((a) => a.ms)).sort();
      const sample = {
        minute: round((Date.now() - started) / 60_000, 2),
        answered: answers.length,
        rps: round(answers.length / (SAMPLE_MS / 1000), 1),
        fiveHundreds: answers.filter((a) => a.status >= 500 || !a.status).length,
        p50: ms.length ? round(percentile(ms, 50), 1) : null,
        p99: ms.length ? round(percentile(ms, 99), 1) : null,
        delivered: receiver.received.total,
        p99ByKind: p99ByKind(answers),
        ...(await metricsOf(metricsPort)),
      };
      samples.push(sample);
      log(JSON.stringify(sample));
    }, SAMPLE_MS);
    while (Date.now() < endAt) await new Promise((r) => setTimeout(r, 1_000));
    clearInterval(ticker);
    await new Promise((r) => setTimeout(r, 5_000)); // the last answers
    clearInterval(sampler);
    await new Promise((r) => setTimeout(r, 20_000)); // the last deliveries

    const [events] = await sql(
      db.url,
      "select count(*)::int as n from event where organization_id = $1 and type in ('lead.created', 'note.created')",
      [agency.organizationId],
    );
    // per 5-minute block: the heap's floor (its lowest sample, after a collection) tells growth from
    // the sawtooth of a busy heap; RSS as sampled
    const blocks = [];
    const blockMinutes = Math.min(5, MINUTES / 2);
    for (let m = 0; m < MINUTES; m += blockMinutes) {
      const inBlock = samples.filter((s) => s.minute > m && s.minute <= m + blockMinutes && !s.unavailable);
      if (!inBlock.length) continue;
      const p99s = Float64Array.from(inBlock.map((s) => s.p99 ?? 0)).sort();
      blocks.push({
        minutes: `${round(m, 1)}-${round(m + blockMinutes, 1)}`,
        answered: inBlock.reduce((a, s) => a + s.answered, 0),
        fiveHundreds: inBlock.reduce((a, s) => a + s.fiveHundreds, 0),
        medianP99: round(percentile(p99s, 50), 1),
        worstP99: p99s[p99s.length - 1],
        heapFloorMB: Math.min(...inBlock.map((s) => s.heapUsedMB)),
        heapPeakMB: Math.max(...inBlock.map((s) => s.heapUsedMB)),
        rssMeanMB: round(inBlock.reduce((a, s) => a + s.rssMB, 0) / inBlock.length, 1),
      });
    }
    const warm = blocks.filter((b) => Number(b.minutes.split('-')[0]) >= WARMUP_MINUTES);
    const growth = (key) =>
      warm.length < 2 ? null : round(((warm.at(-1)[key] - warm[0][key]) / warm[0][key]) * 100, 1);
    const summary = {
      date: new Date().toISOString(),
      machine: machine(),
      redis: Boolean(REDIS_URL),
      cpuSeconds: { api: cpuSeconds(api.pid), worker: worker ? cpuSeconds(worker.pid) : null },
      minutes: MINUTES,
      rps: RPS,
      leadsSeeded: LEADS,
      totals,
      webhooks: {
        eventsRecorded: events.n,
        delivered: receiver.received.total,
        byType: receiver.received.byType,
      },
      afterWarmup: {
        fromMinute: WARMUP_MINUTES,
        heapFloorGrowthPercent: growth('heapFloorMB'),
        rssGrowthPercent: growth('rssMeanMB'),
      },
      firstSeconds: Array.from(firstSeconds, (answers = [], second) => {
        const ms = Float64Array.from(answers.map((a) => a.ms)).sort();
        return {
          second,
          answered: answers.length,
          fiveHundreds: answers.filter((a) => a.status >= 500 || !a.status).length,
          p50: ms.length ? round(percentile(ms, 50), 1) : null,
          p99: ms.length ? round(percentile(ms, 99), 1) : null,
        };
      }),
      blocks,
      samples,
    };
    const dir = path.join(ROOT, 'bench', 'results');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `soak-${summary.date.slice(0, 16).replace(/:/g, '')}.json`);
    fs.writeFileSync(file, JSON.stringify(summary, null, 2) + '\n');
    const { samples: _all, ...short } = summary;
    console.log(JSON.stringify(short, null, 2));
    log(`written: ${path.relative(ROOT, file)}`);
  } finally {
    if (worker) {
      worker.kill('SIGTERM');
      await new Promise((r) => (worker.exitCode !== null ? r() : worker.once('exit', r)));
    }
    await api.stop();
    receiver.server.close();
    agent.destroy();
    await db.drop();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
