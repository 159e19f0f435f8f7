'use strict';
// GET /v1/leads on a 100,000-lead agency: the API against the framework-free baseline server
// running the identical SQL. Run: npm run bench:leads (builds first).
const { spawn } = require('node:child_process');
const path = require('node:path');
const { createBenchDatabase, sql, startApi, measure, ROOT } = require('./lib');

const LEADS = Number(process.env.BENCH_LEADS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

function runOps(databaseUrl, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'dist/apps/ops/src/main.js'), ...args], {
      cwd: ROOT,
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

async function startBaseline(databaseUrl, organizationId, port) {
  const child = spawn(process.execPath, [path.join(__dirname, 'baseline-server.js')], {
    env: { ...process.env, DATABASE_URL: databaseUrl, ORGANIZATION_ID: organizationId, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`${base}/leads?limit=1`)).ok) return { base, stop: () => child.kill('SIGTERM') };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGTERM');
  throw new Error('baseline server did not start');
}

async function main() {
  const db = await createBenchDatabase();
  const api = await startApi({ databaseUrl: db.url, port: 3902 });
  let baseline;
  try {
    const started = Date.now();
    const agency = await runOps(db.url, ['seed:demo', '--leads', String(LEADS), '--json']);
    const seedSeconds = (Date.now() - started) / 1000;
    await sql(db.url, 'update api_keys set rate_limit_per_minute = 100000000'); // measure the API, not its budget
    baseline = await startBaseline(db.url, agency.organizationId, 3903);
    const [{ first_name: name }] = await sql(
      db.url,
      'select first_name from leads where organization_id = $1 limit 1',
      [agency.organizationId],
    );
    const auth = { authorization: `Bearer ${agency.admin.apiKey}` };
    const cases = [
      { name: 'list', query: 'limit=25' },
      { name: 'search', query: `limit=25&search=${encodeURIComponent(name.toLowerCase())}` },
    ];
    const results = [];
    for (const c of cases) {
      await measure(`${api.base}/v1/leads?${c.query}`, { duration: 2, headers: auth }); // warm-up
      await measure(`${baseline.base}/leads?${c.query}`, { duration: 2 });
      const viaApi = await measure(`${api.base}/v1/leads?${c.query}`, { duration: SECONDS, headers: auth });
      const viaBaseline = await measure(`${baseline.base}/leads?${c.query}`, { duration: SECONDS });
      results.push({
        case: `GET /v1/leads?${c.query}`,
        api: viaApi,
        baseline: viaBaseline,
        ratio: Number((viaApi.rps / viaBaseline.rps).toFixed(2)),
      });
    }
    console.log(
      JSON.stringify(
        { leads: LEADS, seedSeconds, connections: 10, durationSeconds: SECONDS, results },
        null,
        2,
      ),
    );
  } finally {
    baseline?.stop();
    await api.stop();
    await db.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
