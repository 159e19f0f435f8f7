'use strict';
// What the /v1 door (declaration, authentication and key rules, scopes, admin, plan, rate limits,
// usage) adds per request: authenticated GET /v1/me against unauthenticated GET /health on the
// same process, in interleaved rounds; medians reported.
// Run: npm run build && node bench/door.js
// Compare two builds on one machine, interleaved: BENCH_COMPARE=<another checkout, built> node bench/door.js
const path = require('node:path');
const { createBenchDatabase, sql, startApi, measure, cpuSeconds, json, median, ROOT } = require('./lib');

/** A throwaway database, the API of one checkout on it, and a key without a practical budget. */
async function startBuild(label, root, port) {
  const db = await createBenchDatabase();
  const api = await startApi({ databaseUrl: db.url, port, root });
  const admin = await json(api.base, 'POST', '/auth/sign-up', {
    body: {
      organizationName: 'Bench',
      email: 'bench@example.test',
      password: 'bench password 1',
      firstName: 'B',
      lastName: 'Ench',
    },
  });
  const key = await json(api.base, 'POST', '/api-keys', {
    token: admin.token,
    body: { name: 'bench', scopes: ['crm:read'] },
  });
  // the bench measures the door, not the 120/min budget
  await sql(db.url, 'update api_keys set rate_limit_per_minute = 100000000 where id = $1', [key.id]);
  const headers = { authorization: `Bearer ${key.key}` };
  /** One autocannon run, plus the API process's CPU time per request during it. */
  const run = async (route, options) => {
    const cpuBefore = cpuSeconds(api.pid);
    const result = await measure(`${api.base}${route}`, options);
    const cpuMsPerRequest = ((cpuSeconds(api.pid) - cpuBefore) * 1000) / result.requests;
    return { ...result, cpuMsPerRequest: Number(cpuMsPerRequest.toFixed(4)) };
  };
  return {
    label,
    rounds: [],
    health: (duration) => run('/health', { duration }),
    me: (duration) => run('/v1/me', { duration, headers }),
    async stop() {
      await api.stop();
      await db.drop();
    },
  };
}

const summary = (build) => {
  const pick = (f) => median(build.rounds.map(f));
  const ratios = build.rounds.map((r) => r.me.rps / r.health.rps);
  const of = (endpoint) => ({
    rps: pick((r) => r[endpoint].rps),
    p50: pick((r) => r[endpoint].p50),
    p99: pick((r) => r[endpoint].p99),
    cpuMsPerRequest: pick((r) => r[endpoint].cpuMsPerRequest),
  });
  return {
    health: of('health'),
    me: of('me'),
    doorCpuMsPerRequest: Number(
      median(build.rounds.map((r) => r.me.cpuMsPerRequest - r.health.cpuMsPerRequest)).toFixed(4),
    ),
    ratio: Number(median(ratios).toFixed(2)),
    ratioRange: [Number(Math.min(...ratios).toFixed(2)), Number(Math.max(...ratios).toFixed(2))],
    addedMsPerRequest: Number(
      median(build.rounds.map((r) => 1000 / r.me.rps - 1000 / r.health.rps)).toFixed(3),
    ),
  };
};

async function main() {
  const duration = Number(process.env.BENCH_SECONDS ?? 10);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
  const compare = process.env.BENCH_COMPARE;
  const builds = [await startBuild(compare ? 'after' : 'this build', ROOT, 3900)];
  try {
    if (compare) builds.unshift(await startBuild('before', path.resolve(compare), 3901));
    for (const build of builds) {
      await build.health(2); // warm-up
      await build.me(2);
    }
    for (let round = 0; round < rounds; round += 1) {
      // alternate which build goes first, so a drift in machine load hits both alike
      const order = round % 2 ? [...builds].reverse() : builds;
      for (const build of order) {
        const health = await build.health(duration);
        const me = await build.me(duration);
        build.rounds.push({ health, me });
      }
    }
    const report = { connections: 10, durationSeconds: duration, rounds };
    for (const build of builds) report[build.label] = { ...summary(build), perRound: build.rounds };
    if (compare) {
      const [before, after] = builds.map(summary);
      report.afterOverBefore = {
        me: Number((after.me.rps / before.me.rps).toFixed(3)),
        health: Number((after.health.rps / before.health.rps).toFixed(3)),
        ratio: Number((after.ratio / before.ratio).toFixed(3)),
        meCpuMsPerRequest: Number((after.me.cpuMsPerRequest / before.me.cpuMsPerRequest).toFixed(3)),
      };
    }
    console.log(JSON.stringify(report, null, 2));
  } finally {
    for (const build of builds) await build.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
