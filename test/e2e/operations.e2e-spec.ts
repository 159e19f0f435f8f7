import { MikroORM } from '@mikro-orm/postgresql';
import Redis from 'ioredis';
import { Client } from 'pg';
import { MIGRATIONS } from '@migrations';
import { DatabaseMigrations, ormOptions } from '@app/platform';
import { freePort } from '../child-process';
import { asKey, expectError, leadBody, sql, TestApp } from '../fixtures';

/** The value of one sample line (`name{labels} value`) in a Prometheus text scrape. */
const sample = (text: string, line: string): number | undefined => {
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
};

describe('operations: /metrics', () => {
  it('is an unknown route (404 in the envelope) by default', async () => {
    const t = await TestApp.start();
    try {
      expectError(await t.http.get('/metrics'), 404, 'NOT_FOUND');
      expectError(await t.http.get('/v1/metrics'), 404, 'NOT_FOUND');
    } finally {
      await t.stop();
    }
  });

  describe('with METRICS_ENABLED=true', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await TestApp.start({ env: { METRICS_ENABLED: 'true' } });
    });
    afterAll(() => t.stop());
    beforeEach(() => t.resetRows());

    it('answers the Prometheus text format without a credential, never under /v1', async () => {
      const res = await t.http.get('/metrics').expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4; charset=utf-8$/);
      expect(res.text).toContain('# TYPE http_request_duration_seconds histogram');
      expect(res.text).toContain('# TYPE process_cpu_user_seconds_total counter');
      expectError(await t.http.get('/v1/metrics'), 404, 'NOT_FOUND');
    });

    it('counts requests by method, route template and status class, and the door, pool and job metrics', async () => {
      const admin = await t.seed.organization();
      const key = await t.seed.apiKey(admin, ['crm:read']);
      await asKey(t.http.get('/v1/me'), key.key).expect(200);
      await asKey(t.http.get('/v1/me'), key.key).expect(200);
      await asKey(t.http.get('/v1/leads/999999999'), key.key).expect(404);
      await sql(t, 'update api_keys set rate_limit_per_minute = 1 where id = ?', [key.id]);
      const other = await t.seed.apiKey(admin, ['crm:read']);
      await sql(t, 'update api_keys set rate_limit_per_minute = 1 where id = ?', [other.id]);
      await asKey(t.http.get('/v1/me'), other.key).expect(200);
      await asKey(t.http.get('/v1/me'), other.key).expect(429);

      const text = (await t.http.get('/metrics').expect(200)).text;
      expect(
        sample(text, 'http_request_duration_seconds_count{method="GET",route="/v1/me",status_class="2xx"}'),
      ).toBe(3);
      expect(
        sample(text, 'http_request_duration_seconds_count{method="GET",route="/v1/me",status_class="4xx"}'),
      ).toBe(1);
      expect(
        sample(
          text,
          'http_request_duration_seconds_count{method="GET",route="/v1/leads/:leadId",status_class="4xx"}',
        ),
      ).toBe(1);
      expect(
        sample(
          text,
          'http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/v1/me",status_class="2xx"}',
        ),
      ).toBe(3);
      expect(sample(text, 'api_key_cache_lookups_total{result="miss"}')).toBeGreaterThanOrEqual(2);
      expect(sample(text, 'api_key_cache_lookups_total{result="hit"}')).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'rate_limit_refusals_total{window="short"}')).toBe(1);
      expect(sample(text, 'db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'db_pool_connections{state="idle"}')).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'db_pool_connections{state="waiting"}')).toBe(0);
      for (const name of ['idempotency_replays_total', 'job_runs_total', 'job_failures_total']) {
        expect(text).toContain(`# TYPE ${name} counter`);
      }
      // no credential ever reaches a label
      expect(text).not.toContain(key.key);
    });

    it('counts an idempotent replay', async () => {
      const admin = await t.seed.organization();
      const key = await t.seed.apiKey(admin, ['crm:write']);
      const before = sample((await t.http.get('/metrics')).text, 'idempotency_replays_total') ?? 0;
      const body = leadBody();
      const create = () =>
        asKey(t.http.post('/v1/leads'), key.key).set('Idempotency-Key', 'metrics-replay-1').send(body);
      await create().expect(201);
      const again = await create().expect(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(sample((await t.http.get('/metrics')).text, 'idempotency_replays_total')).toBe(before + 1);
    });
  });

  it('with METRICS_PORT, answers on that port only', async () => {
    const port = await freePort();
    const t = await TestApp.start({ env: { METRICS_PORT: String(port), METRICS_ENABLED: 'true' } });
    try {
      expectError(await t.http.get('/metrics'), 404, 'NOT_FOUND');
      await t.http.get('/health/live').expect(200);
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      const text = await res.text();
      expect(text).toContain(
        'http_request_duration_seconds_count{method="GET",route="/health/live",status_class="2xx"} 1',
      );
      expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
    } finally {
      await t.stop();
    }
    // the port is released with the app
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
  });
});

describe('operations: /health/ready and /health/live', () => {
  it('ready: 200 with the database up and migrations applied; live: 200', async () => {
    const t = await TestApp.start();
    try {
      const ready = await t.http.get('/health/ready').expect(200);
      expect(ready.body).toEqual({ status: 'ok', checks: { database: 'up', migrations: 'up' } });
      const live = await t.http.get('/health/live').expect(200);
      expect(live.body).toEqual({ status: 'ok' });
      expect(live.headers['x-request-id']).toEqual(expect.any(String));
    } finally {
      await t.stop();
    }
  });

  it('ready: checks Redis when REDIS_URL is set: 200 while it answers, 503 in the envelope when not', async () => {
    const t = await TestApp.start({ env: { REDIS_URL: 'redis://127.0.0.1:6379' } });
    try {
      const ready = await t.http.get('/health/ready').expect(200);
      expect(ready.body.checks).toEqual({ database: 'up', migrations: 'up', redis: 'up' });
      // a Redis that stops answering (an unreachable URL at boot costs the other clients' retries)
      const ping = jest.spyOn(Redis.prototype, 'ping').mockRejectedValue(new Error('Connection is closed.'));
      try {
        const res = await t.http.get('/health/ready');
        expectError(res, 503, 'INTERNAL');
        expect(res.headers['retry-after']).toBe('1');
        await t.http.get('/health/live').expect(200);
      } finally {
        ping.mockRestore();
      }
      await t.http.get('/health/ready').expect(200);
    } finally {
      await t.stop();
    }
  });

  it('ready: 503 when the database does not answer', async () => {
    const t = await TestApp.start();
    const orm = t.app.get(MikroORM);
    const ping = jest.spyOn(orm.em.getConnection(), 'execute').mockRejectedValue(new Error('down'));
    try {
      expectError(await t.http.get('/health/ready'), 503, 'INTERNAL');
    } finally {
      ping.mockRestore();
      await t.stop();
    }
  });
});

describe('operations: migrations under an advisory lock', () => {
  it('two migrators started at once on a fresh database both succeed, each migration applied once; ready follows', async () => {
    const server = new URL(process.env.DATABASE_URL as string);
    const name = `${server.pathname.slice(1)}_migrate_race`;
    const admin = new Client({ connectionString: server.toString() });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
    const fresh = new URL(server);
    fresh.pathname = `/${name}`;
    const orms = await Promise.all([1, 2].map(() => MikroORM.init(ormOptions(fresh.toString()))));
    const api = await TestApp.start({ env: { DATABASE_URL: fresh.toString() } });
    try {
      // an API on a database nobody migrated is live but not ready
      expectError(await api.http.get('/health/ready'), 503, 'INTERNAL');
      await api.http.get('/health/live').expect(200);

      const results = await Promise.all(orms.map((orm) => new DatabaseMigrations(orm).applyPending()));
      expect(results.map((r) => r.executed)).toEqual([MIGRATIONS.length, MIGRATIONS.length]);
      expect(results.flatMap((r) => r.applied).sort()).toEqual(MIGRATIONS.map((m) => m.name).sort());
      const rows = await orms[0].em.getConnection().execute('select name from mikro_orm_migrations');
      expect(rows).toHaveLength(MIGRATIONS.length);
      await api.http.get('/health/ready').expect(200);
    } finally {
      await api.stop();
      await Promise.all(orms.map((orm) => orm.close(true)));
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});
