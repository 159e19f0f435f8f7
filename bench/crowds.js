'use strict';
// Crowds on a healthy database: the built API on a throwaway database with a demo agency, then
// bursts as people make them: 300 concurrent `GET /v1/leads/{id}` by one key (its limit raised)
// per round, 55 concurrent opens of one brochure page once (60 page calls a minute per IP), and a
// closed loop of 32 connections on the lead list. Every answer should be a 200; a 503 here is
// load shedding refusing a database that is fine.
// Run: npm run build && node bench/crowds.js. Env: CROWD_LEADS (3000), CROWD_LOOP_S (45),
// CROWD_ROUNDS (3).
const http = require('node:http');
const {
  createBenchDatabase,
  startApi,
  runOps,
  sql,
  closedLoop,
  log,
  machine,
  timedRequest,
} = require('./lib');

const LEADS = Number(process.env.CROWD_LEADS ?? 3000);
const LOOP_S = Number(process.env.CROWD_LOOP_S ?? 45);
const ROUNDS = Number(process.env.CROWD_ROUNDS ?? 3);

const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });

const request = (base, route, headers = {}, method = 'GET', body = undefined) =>
  timedRequest(base, method, route, { headers, body, agent });

const countBy = (values) => values.reduce((m, v) => ({ ...m, [v]: (m[v] ?? 0) + 1 }), {});
const worst = (answers) => Math.round(Math.max(...answers.map((a) => a.ms)));

async function burst(label, n, send) {
  const answers = await Promise.all(Array.from({ length: n }, () => send()));
  const statuses = countBy(answers.map((a) => a.status || a.error));
  log(`${label}: ${JSON.stringify(statuses)}, slowest ${worst(answers)} ms`);
  return { label, n, statuses, slowestMs: worst(answers) };
}

async function main() {
  const db = await createBenchDatabase();
  const api = await startApi({ databaseUrl: db.url, env: { LOG_LEVEL: 'warn' } });
  const results = [];
  try {
    const agency = await runOps(db.url, ['seed:demo', '--leads', String(LEADS), '--json']);
    await sql(db.url, 'update api_keys set rate_limit_per_minute = 100000000');
    await new Promise((r) => setTimeout(r, 5_500)); // the key cache holds a key 5 s
    const auth = { authorization: `Bearer ${agency.admin.apiKey}` };
    const [lead] = await sql(db.url, 'select id from leads where organization_id = $1 order by id limit 1', [
      agency.organizationId,
    ]);
    const [listing] = await sql(
      db.url,
      "select id from listings where organization_id = $1 and deleted_at is null and status = 'ACTIVE' order by id limit 1",
      [agency.organizationId],
    );
    for (let round = 1; round <= ROUNDS; round += 1) {
      results.push(
        await burst(`round ${round}: 300 × GET /v1/leads/{id}`, 300, () =>
          request(api.base, `/v1/leads/${lead.id}`, auth),
        ),
      );
    }
    const created = await request(api.base, '/v1/brochures', auth, 'POST', {
      title: 'Crowd',
      listings: [{ source: 'internal', id: String(listing.id) }],
    });
    const brochure = JSON.parse(created.text);
    if (created.status !== 201) throw new Error(`brochure: ${created.status} ${created.text}`);
    const opens = await burst(`once: 55 × GET /b/{slug}`, 55, () =>
      request(api.base, `/b/${brochure.slug}`, { 'user-agent': 'Mozilla/5.0 (crowd)' }),
    );
    await new Promise((r) => setTimeout(r, 1_500)); // views are flushed once a second
    const read = JSON.parse((await request(api.base, `/v1/brochures/${brochure.id}`, auth)).text);
    opens.viewCount = read.viewCount;
    log(`once: viewCount ${read.viewCount}`);
    results.push(opens);
    const loop = await closedLoop({
      base: api.base,
      next: () => ({ path: '/v1/leads?limit=25' }),
      headers: auth,
      connections: 32,
      seconds: LOOP_S,
      errorCodes: true,
    });
    log(`closed loop, 32 connections, ${LOOP_S} s on the lead list: ${JSON.stringify(loop)}`);
    results.push({ label: `32 connections × ${LOOP_S} s GET /v1/leads?limit=25`, ...loop });
    console.log(JSON.stringify({ date: new Date().toISOString(), machine: machine(), results }, null, 2));
  } finally {
    await api.stop();
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
