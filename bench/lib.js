'use strict';
// The harness's machinery: a throwaway database, the servers as child processes, a closed-loop
// load (autocannon, fixed connections, bounded time), an open-loop load (own client, fixed rate,
// latency from each request's scheduled send time), CPU accounting from /proc, and the summary of a
// V8 CPU profile. Nothing here knows a workload; bench/workloads.js does, bench/run.js runs them.
const { spawn, execFileSync } = require('node:child_process');
const { once } = require('node:events');
const fs = require('node:fs');
const http = require('node:http');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const autocannon = require('autocannon');
const { Client } = require('pg');

const ROOT = path.resolve(__dirname, '..');
const SERVER_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const log = (...parts) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}]`, ...parts);

// ---------------------------------------------------------------- database

async function createBenchDatabase() {
  const name = `estate_bench_${Date.now()}`;
  const admin = new Client({ connectionString: SERVER_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const client = new Client({ connectionString: SERVER_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

async function sql(url, text, params = []) {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, params)).rows;
  } finally {
    await client.end();
  }
}

/** `ops <command>` of the checkout `root`, its stdout parsed as JSON. */
function runOps(databaseUrl, args, root = ROOT) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'dist/apps/ops/src/main.js'), ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', REDIS_URL: '' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`ops ${args[0]} exited ${code}`)),
    );
  });
}

// ---------------------------------------------------------------- servers

/** A port nobody listens on right now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Spawns a server and waits until `GET /health` answers 200. `logFile`: its stdout and stderr
 * appended there (otherwise stdout dropped, stderr inherited).
 */
async function startServer({ label, args, cwd, env, port, ipc = false, logFile }) {
  const out = logFile ? fs.openSync(logFile, 'a') : null;
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', out ?? 'ignore', out ?? 'inherit', ...(ipc ? ['ipc'] : [])],
  });
  if (out !== null) fs.closeSync(out);
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${label} exited during start`);
    try {
      if ((await fetch(`${base}/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(`${label} did not start in 60 s`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    label,
    base,
    pid: child.pid,
    child,
    /** A message to the process over IPC, and its first answer. */
    async ask(message) {
      const answer = once(child, 'message');
      child.send(message);
      const [reply] = await answer;
      if (reply.error) throw new Error(`${label}: ${reply.error}`);
      return reply;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * The built API of checkout `root` (its `npm run build` output). `profileDir`: preload the CPU
 * profiler hook (bench/profile-hook.js), driven over IPC. `env`: what the chosen workloads add.
 */
async function startApi({ label = 'API', databaseUrl, root = ROOT, profileDir, env = {}, logFile }) {
  const args = [path.join(root, 'dist/apps/api/src/main.js')];
  if (profileDir) args.unshift('--require', path.join(__dirname, 'profile-hook.js'));
  return startServer({
    label,
    args,
    cwd: root,
    port: await freePort(),
    ipc: Boolean(profileDir),
    logFile,
    env: {
      DATABASE_URL: databaseUrl,
      MIGRATE_ON_START: 'true',
      LOG_LEVEL: 'warn',
      REDIS_URL: '',
      ...(profileDir ? { BENCH_PROFILE_DIR: profileDir } : {}),
      ...env,
    },
  });
}

/** bench/baseline-server.js, running the SQL modules built in `sqlRoot`. */
async function startBaseline({ databaseUrl, sqlRoot = ROOT, env = {} }) {
  return startServer({
    label: 'baseline',
    args: [path.join(__dirname, 'baseline-server.js')],
    cwd: __dirname,
    port: await freePort(),
    env: { DATABASE_URL: databaseUrl, BENCH_SQL_ROOT: sqlRoot, ...env },
  });
}

// ---------------------------------------------------------------- CPU accounting

const CLOCK_TICKS = 100;

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
function cpuSeconds(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** Busy CPU seconds of the whole machine so far (all cores), from /proc/stat. */
function machineBusySeconds() {
  const [cpu] = fs.readFileSync('/proc/stat', 'utf8').split('\n');
  const t = cpu.trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, , , irq, softirq, steal] = t;
  return (user + nice + system + irq + softirq + steal) / CLOCK_TICKS;
}

/** This process's own CPU seconds (the load generator). */
const selfCpuSeconds = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
};

/** CPU seconds so far of each live PostgreSQL backend connected to database `name`. */
async function backendCpu(admin, name) {
  const { rows } = await admin.query('select pid from pg_stat_activity where datname = $1', [name]);
  const cpu = new Map();
  for (const { pid } of rows) {
    try {
      cpu.set(pid, cpuSeconds(pid));
    } catch {
      // ended meanwhile
    }
  }
  return cpu;
}

/**
 * Accounts where the machine's CPU went while `fn` ran, in cores busy on average: the server
 * under load, the load generator (this process), the PostgreSQL backends of the bench database,
 * and everything else (`others`: other tenants of the machine; the noise).
 */
function cpuMeter(databaseName) {
  const admin = new Client({ connectionString: SERVER_URL });
  const connected = admin.connect();
  return {
    async measure(serverPid, fn) {
      await connected;
      const wall0 = performance.now();
      const server0 = cpuSeconds(serverPid);
      const self0 = selfCpuSeconds();
      const machine0 = machineBusySeconds();
      const db0 = await backendCpu(admin, databaseName);
      const result = await fn();
      const db1 = await backendCpu(admin, databaseName);
      const wall = (performance.now() - wall0) / 1000;
      const server = cpuSeconds(serverPid) - server0;
      const self = selfCpuSeconds() - self0;
      const machine = machineBusySeconds() - machine0;
      let db = 0;
      for (const [pid, seconds] of db1) db += seconds - (db0.get(pid) ?? 0);
      return {
        ...result,
        serverCpuMsPerRequest: result.requests ? round((server * 1000) / result.requests, 3) : null,
        dbCpuMsPerRequest: result.requests ? round((db * 1000) / result.requests, 3) : null,
        // per 2xx answer (a write that was done), where some were shed
        serverCpuMsPerOk: result.okRequests ? round((server * 1000) / result.okRequests, 3) : null,
        dbCpuMsPerOk: result.okRequests ? round((db * 1000) / result.okRequests, 3) : null,
        cores: {
          server: round(server / wall, 2),
          client: round(self / wall, 2),
          database: round(db / wall, 2),
          others: round(Math.max(0, machine - server - self - db) / wall, 2),
        },
      };
    },
    end: () => connected.then(() => admin.end()),
  };
}

/** Cores busy on the machine over `ms` while we do nothing: the other tenants' load. */
async function idleMachineLoad(ms = 2000) {
  const m0 = machineBusySeconds();
  const s0 = selfCpuSeconds();
  await new Promise((r) => setTimeout(r, ms));
  return round((machineBusySeconds() - m0 - (selfCpuSeconds() - s0)) / (ms / 1000), 2);
}

// ---------------------------------------------------------------- load

/**
 * Closed loop: `connections` keep-alive connections, each sending its next request when the last
 * answer arrived, for `seconds`, or until `amount` requests were answered. `next()` draws each
 * request (autocannon's setupRequest): a path to GET, or `{method, path, body, headers}` (its
 * headers added to `headers`, a body string sent as JSON).
 */
async function closedLoop({ base, next, headers = {}, connections, seconds, amount, errorCodes = false }) {
  const started = performance.now();
  // with `errorCodes`, the error code of every answer other than 2xx (autocannon then reads bodies)
  const codes = {};
  const onResponse = (status, body) => {
    if (status >= 200 && status < 300) return;
    let code = '';
    try {
      code = JSON.parse(body)?.error?.code ?? '';
    } catch {
      // not JSON
    }
    const name = `${status} ${code}`.trim();
    codes[name] = (codes[name] ?? 0) + 1;
  };
  let lastAnswer = started;
  const instance = autocannon({
    url: base,
    connections,
    ...(amount ? { amount } : { duration: seconds }),
    headers,
    requests: [
      {
        method: 'GET',
        setupRequest: (req) => {
          const drawn = next();
          if (typeof drawn === 'string') return { ...req, path: drawn };
          return {
            ...req,
            ...drawn,
            headers: {
              ...req.headers,
              ...(drawn.body === undefined ? {} : { 'content-type': 'application/json' }),
              ...drawn.headers,
            },
          };
        },
        ...(errorCodes ? { onResponse } : {}),
      },
    ],
  });
  // 2xx answers and their latencies apart: a shed request (503 at once) did no work and is fast
  const okLatencies = [];
  instance.on('response', (_client, status, _bytes, latency) => {
    lastAnswer = performance.now();
    if (status >= 200 && status < 300) okLatencies.push(latency);
  });
  const result = await instance;
  const ok = Float64Array.from(okLatencies).sort();
  // with `amount`, autocannon notices the end at its next 1-second tick and reports whole
  // seconds: the rate runs to the last answer instead
  const elapsed = amount ? (lastAnswer - started) / 1000 : result.duration;
  return {
    rps: rate(result.requests.total / elapsed),
    seconds: round(elapsed, 2),
    okRequests: ok.length,
    okRps: rate(ok.length / elapsed),
    okP50: ok.length ? round(percentile(ok, 50), 1) : null,
    okP99: ok.length ? round(percentile(ok, 99), 1) : null,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    ...(errorCodes ? { errorCodes: codes } : {}),
    // answers by status code, e.g. {"201": 9980, "503": 20}
    statuses: Object.fromEntries(
      Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, count]),
    ),
  };
}

/**
 * Open loop: request i is due at start + i / rate whatever happened to the earlier ones; its
 * latency runs from that due time to the end of its answer, so a stall counts against every
 * request it delayed (no coordinated omission). At most `connections` requests are on the wire;
 * a due request that finds them all busy waits in the agent's queue, and that wait counts too.
 * A server slower than the rate falls behind without bound: whatever is unanswered `drainSeconds`
 * after the last request was due is cut off and counted as `unanswered` (its latency is at least
 * that long, so percentiles it reaches are reported as null with `overloaded`).
 * `sendLag`: how late the client itself sent (timer granularity, its own CPU, a busy machine);
 * it is part of the latency, so it is reported to tell the client's share from the server's.
 */
async function openLoop({ base, next, headers = {}, connections, seconds, rate, drainSeconds = 5 }) {
  const { hostname, port } = new URL(base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const total = Math.max(1, Math.round(rate * seconds));
  const interval = 1000 / rate;
  const latencies = new Float64Array(total).fill(Infinity);
  const lags = new Float64Array(total);
  const inFlight = new Set();
  const counts = { ok: 0, non2xx: 0, errors: 0, unanswered: 0 };
  let sent = 0;
  let finished = 0;
  let lastAnswer = 0;
  const start = performance.now() + 20;
  await new Promise((resolve) => {
    let cutOff = false;
    let drain;
    const done = () => {
      clearTimeout(drain);
      resolve();
    };
    const fire = (i, scheduled) => {
      let settled = false;
      const settle = (outcome) => {
        if (settled || finished === total) return;
        settled = true;
        inFlight.delete(req);
        if (outcome !== 'unanswered') {
          lastAnswer = performance.now();
          latencies[i] = lastAnswer - scheduled;
        }
        counts[outcome] += 1;
        finished += 1;
        if (finished === total) done();
      };
      const req = http.request({ agent, hostname, port, path: next(), method: 'GET', headers }, (res) => {
        res.on('data', () => {});
        res.on('end', () => settle(res.statusCode >= 200 && res.statusCode < 300 ? 'ok' : 'non2xx'));
        res.on('error', () => settle(cutOff ? 'unanswered' : 'errors'));
      });
      req.on('error', () => settle(cutOff ? 'unanswered' : 'errors'));
      inFlight.add(req);
      req.end();
    };
    const tick = () => {
      const now = performance.now();
      while (sent < total && start + sent * interval <= now) {
        const scheduled = start + sent * interval;
        lags[sent] = now - scheduled;
        fire(sent, scheduled);
        sent += 1;
      }
      if (sent < total) setTimeout(tick, Math.max(0, start + sent * interval - performance.now()));
    };
    setTimeout(tick, Math.max(0, start - performance.now()));
    drain = setTimeout(
      () => {
        cutOff = true;
        for (const req of [...inFlight]) req.destroy(new Error('cut off'));
        // whatever the destroyed requests did not report within a second is unanswered too
        drain = setTimeout(() => {
          counts.unanswered += total - finished;
          finished = total;
          resolve();
        }, 1000);
      },
      start - performance.now() + (seconds + drainSeconds) * 1000,
    );
  });
  agent.destroy();
  const sorted = Float64Array.from(latencies).sort();
  const sortedLags = Float64Array.from(lags).sort();
  const at = (p) => {
    const value = percentile(sorted, p);
    return Number.isFinite(value) ? round(value, 1) : null;
  };
  return {
    rate: Math.round(rate),
    seconds,
    requests: total,
    ...counts,
    overloaded: counts.unanswered > 0,
    answeredPerSecond: Math.round((counts.ok + counts.non2xx) / ((lastAnswer - start) / 1000)),
    p50: at(50),
    p99: at(99),
    max: at(100),
    sendLag: { p50: round(percentile(sortedLags, 50), 2), p99: round(percentile(sortedLags, 99), 2) },
  };
}

// ---------------------------------------------------------------- numbers

const round = (value, digits = 0) => Number(value.toFixed(digits));

/** A rate in whole requests per second, or to a tenth below 100/s (where a whole number would hide a 10 % ratio). */
const rate = (perSecond) => round(perSecond, perSecond < 100 ? 1 : 0);

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Nearest-rank percentile of sorted values. */
const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** A small seeded generator (mulberry32), so both sides of a comparison get the same draws. */
function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---------------------------------------------------------------- HTTP helper

async function getJson(base, route, headers = {}, method = 'GET', body = undefined) {
  const res = await fetch(base + route, { method, headers, body });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/**
 * One HTTP request on `agent` (a keep-alive pool, or none): resolves with `{status, ms, text,
 * retryAfter}`, or `{status: 0, error, ms}` when no whole answer came (a refusal, a reset, or
 * `timeoutMs` passed since the send: `TIMEOUT`); never rejects. `ms` runs from the send to the end
 * of the answer.
 */
function timedRequest(base, method, route, { headers = {}, body, agent, timeoutMs = 30_000 } = {}) {
  return new Promise((resolve) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const url = new URL(base + route);
    const started = performance.now();
    let done = false;
    const finish = (result) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ ...result, ms: performance.now() - started });
    };
    const req = http.request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method,
        path: url.pathname + url.search,
        headers: {
          ...headers,
          ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          finish({
            status: res.statusCode,
            text: Buffer.concat(chunks).toString(),
            retryAfter: res.headers['retry-after'],
          }),
        );
        res.on('error', (err) => finish({ status: 0, error: err.code ?? err.message }));
      },
    );
    const timer = setTimeout(() => {
      req.destroy(new Error('client timeout'));
      finish({ status: 0, error: 'TIMEOUT' });
    }, timeoutMs);
    req.on('error', (err) => finish({ status: 0, error: err.code ?? err.message }));
    req.end(payload);
  });
}

/** JSON with object keys sorted, to compare two answers whatever order their keys were written in. */
const canonical = (value) =>
  JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, v[k]]),
        )
      : v,
  );

// ---------------------------------------------------------------- CPU profile

/** Where a frame's code lives, short: `dist/libs/…:line`, `node_modules/<package>/…:line`, `node:…`. */
function frameWhere(callFrame, root) {
  let url = callFrame.url || '';
  if (!url) return '';
  url = url.replace(/^file:\/\//, '');
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) url = url.slice(nm + 1);
  else if (url.startsWith(root)) url = url.slice(root.length + 1);
  return `${url}:${callFrame.lineNumber + 1}`;
}

/** The area a frame belongs to: a package, our code (dist/apps, dist/libs/<lib>), node itself, V8. */
function frameArea(where, functionName) {
  if (!where) return functionName.startsWith('(') ? functionName : '(native)';
  const nm = /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(where);
  if (nm) return nm[1];
  const ours = /^dist\/(apps\/[^/]+|libs\/[^/]+)/.exec(where);
  if (ours) return ours[1];
  if (where.startsWith('node:')) return 'node:internals';
  return where.split(':')[0];
}

/**
 * Self time per function from a `.cpuprofile` (the V8 format: nodes with call frames, samples
 * and the time between them); idle time left out. Returns the top `n` functions and the top
 * areas (packages, our libraries, node internals, GC).
 */
function summarizeProfile(file, { n = 25, root = ROOT } = {}) {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const selfUs = new Map();
  // a sample's state lasts until the next sample
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = profile.timeDeltas[i + 1] ?? 0;
    selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + delta);
  }
  const byFunction = new Map();
  const callers = new Map(); // function key -> (caller label -> µs)
  const byArea = new Map();
  let busyUs = 0;
  let idleUs = 0;
  for (const [id, us] of selfUs) {
    const { callFrame } = nodes.get(id);
    const name = callFrame.functionName || '(anonymous)';
    if (name === '(idle)') {
      idleUs += us;
      continue;
    }
    busyUs += us;
    const where = frameWhere(callFrame, root);
    const key = `${name}\u0000${where}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
    const parent = nodes.get(parents.get(id));
    if (parent) {
      const caller =
        `${parent.callFrame.functionName || '(anonymous)'} ${frameWhere(parent.callFrame, root)}`.trim();
      const mine = callers.get(key) ?? new Map();
      mine.set(caller, (mine.get(caller) ?? 0) + us);
      callers.set(key, mine);
    }
    const area = frameArea(where, name);
    byArea.set(area, (byArea.get(area) ?? 0) + us);
  }
  const top = (map, count) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([key, us]) => ({ key, selfMs: round(us / 1000, 1), share: round((100 * us) / busyUs, 1) }));
  return {
    busyMs: round(busyUs / 1000),
    idleMs: round(idleUs / 1000),
    functions: top(byFunction, n).map(({ key, ...rest }) => {
      const [fn, where] = key.split('\u0000');
      const mainCaller = [...(callers.get(key) ?? new Map()).entries()].sort((a, b) => b[1] - a[1])[0];
      return { function: fn, where, ...rest, calledBy: mainCaller?.[0] ?? '' };
    }),
    areas: top(byArea, 15).map(({ key, ...rest }) => ({ area: key, ...rest })),
  };
}

// ---------------------------------------------------------------- machine

function machine(databaseVersion) {
  const git = (root) => {
    try {
      return execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim();
    } catch {
      return 'not a git checkout';
    }
  };
  return {
    date: new Date().toISOString().slice(0, 10),
    cores: os.availableParallelism?.() ?? os.cpus().length,
    cpu: os.cpus()[0]?.model?.trim(),
    memoryGiB: round(os.totalmem() / 2 ** 30, 1),
    node: process.version,
    postgres: databaseVersion,
    build: git(ROOT),
    git,
  };
}

/**
 * A write workload's legs measured alike (crm-search-note, events-note): a closed-loop warm-up per
 * leg, then `rounds` rounds of `requests / rounds` requests each, legs interleaved A B B A, each
 * round metered (`meter.measure`); fills `result.warmup` and `result.legs` with each leg's medians
 * (`unit`: what a request makes, for the round lines of the log).
 */
async function interleavedLegs({
  label,
  unit,
  legs,
  next,
  headers,
  connections,
  warmup,
  requests,
  rounds,
  meter,
  result,
}) {
  for (const leg of legs) {
    const warm = await closedLoop({
      base: leg.server.base,
      next: next(leg),
      headers,
      connections,
      amount: warmup,
    });
    result.warmup[leg.name] = { requests: warm.requests, statuses: warm.statuses };
  }
  const perRound = Math.ceil(requests / rounds);
  for (const leg of legs) leg.rounds = [];
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? legs : [...legs].reverse();
    for (const leg of order) {
      const run = await meter.measure(leg.server.pid, () =>
        closedLoop({ base: leg.server.base, next: next(leg), headers, connections, amount: perRound }),
      );
      leg.rounds.push(run);
      log(
        `${label} round ${r + 1} ${leg.name}: ${run.rps} ${unit}/s, p50 ${run.p50} p99 ${run.p99} ms, ` +
          `server ${run.serverCpuMsPerRequest} ms CPU, PostgreSQL ${run.dbCpuMsPerRequest} ms CPU per request, ` +
          `${run.non2xx} non-2xx ${JSON.stringify(run.statuses)}, others ${run.cores.others} cores`,
      );
    }
  }
  for (const leg of legs) {
    const pick = (f) => median(leg.rounds.map(f));
    result.legs[leg.name] = {
      rps: round(
        pick((r) => r.rps),
        1,
      ),
      p50: pick((r) => r.p50),
      p99: pick((r) => r.p99),
      serverCpuMsPerRequest: round(
        pick((r) => r.serverCpuMsPerRequest),
        3,
      ),
      dbCpuMsPerRequest: round(
        pick((r) => r.dbCpuMsPerRequest),
        3,
      ),
      non2xx: leg.rounds.reduce((s, r) => s + r.non2xx, 0),
      errors: leg.rounds.reduce((s, r) => s + r.errors, 0),
      statuses: leg.rounds.reduce((all, r) => {
        for (const [code, count] of Object.entries(r.statuses ?? {})) all[code] = (all[code] ?? 0) + count;
        return all;
      }, {}),
      othersCores: {
        median: round(
          pick((r) => r.cores.others),
          2,
        ),
        max: Math.max(...leg.rounds.map((r) => r.cores.others)),
      },
      perRound: leg.rounds,
    };
  }
}

module.exports = {
  interleavedLegs,
  ROOT,
  log,
  createBenchDatabase,
  sql,
  runOps,
  startApi,
  startBaseline,
  cpuSeconds,
  cpuMeter,
  idleMachineLoad,
  closedLoop,
  openLoop,
  round,
  rate,
  median,
  percentile,
  seededRandom,
  getJson,
  timedRequest,
  canonical,
  summarizeProfile,
  machine,
};
