'use strict';
// What the /v1 door (key lookup, key rules, scopes, rate limits, usage) adds per request:
// authenticated GET /v1/me against unauthenticated GET /health on the same process.
// Run: npm run build && node bench/door.js
const { createBenchDatabase, sql, startApi, measure, json } = require('./lib');

async function main() {
  const db = await createBenchDatabase();
  const api = await startApi({ databaseUrl: db.url, port: 3900 });
  try {
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

    const duration = Number(process.env.BENCH_SECONDS ?? 10);
    await measure(`${api.base}/health`, { duration: 2 }); // warm-up
    await measure(`${api.base}/v1/me`, { duration: 2, headers: { authorization: `Bearer ${key.key}` } });
    const health = await measure(`${api.base}/health`, { duration });
    const me = await measure(`${api.base}/v1/me`, {
      duration,
      headers: { authorization: `Bearer ${key.key}` },
    });
    const report = {
      connections: 10,
      durationSeconds: duration,
      health,
      me,
      ratio: Number((me.rps / health.rps).toFixed(2)),
      addedMsPerRequest: Number((1000 / me.rps - 1000 / health.rps).toFixed(3)),
    };
    console.log(JSON.stringify(report, null, 2));
  } finally {
    await api.stop();
    await db.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
