import { createServer, type Server, type Socket } from 'node:net';
import { Controller, Get, Post } from '@nestjs/common';
import { RequireScopes, SharedRateLimit } from '@app/platform';
import { asKey, asSession, SignedIn, sql, TestApp } from '../fixtures';

const REDIS_URL = 'redis://127.0.0.1:6379';

describe('two API processes sharing Redis', () => {
  let one: TestApp;
  let two: TestApp;
  beforeAll(async () => {
    one = await TestApp.start({ env: { REDIS_URL } });
    two = await TestApp.start({ env: { REDIS_URL } });
  });
  afterAll(async () => {
    await one.stop();
    await two.stop();
  });
  beforeEach(async () => {
    await one.resetRows();
    two.clock.set(one.clock.now()); // one rate window for both processes, whatever the wall clock does
  });

  it('count one budget per key and endpoint across both processes', async () => {
    const admin = await one.seed.organization();
    const key = await one.seed.apiKey(admin, ['crm:read']);
    await sql(one, 'update api_keys set rate_limit_per_minute = 2 where id = ?', [key.id]);
    await asKey(one.http.get('/v1/me'), key.key).expect(200);
    const second = await asKey(two.http.get('/v1/me'), key.key).expect(200);
    expect(second.headers['x-ratelimit-remaining-short']).toBe('0');
    const third = await asKey(one.http.get('/v1/me'), key.key).expect(429);
    expect(third.body.error.code).toBe('RATE_LIMITED');
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('report a refused call’s budget from the shared counters without spending it', async () => {
    const admin = await one.seed.organization();
    const key = await one.seed.apiKey(admin, ['crm:read']);
    await sql(one, 'update api_keys set rate_limit_per_minute = 5 where id = ?', [key.id]);
    await asKey(one.http.post('/v1/leads/status'), key.key)
      .send({ leadIds: [], crmStatus: 'lead' })
      .expect(403);
    const refused = await asKey(two.http.post('/v1/leads/status'), key.key).send({
      leadIds: [],
      crmStatus: 'lead',
    });
    expect(refused.status).toBe(403);
    expect(refused.headers['x-ratelimit-remaining-short']).toBe('5');
  });

  it('stop a revoked key at once in the other process too (cache invalidated through Redis)', async () => {
    const admin = await one.seed.organization();
    const key = await one.seed.apiKey(admin, ['crm:read']);
    await asKey(two.http.get('/v1/me'), key.key).expect(200); // now cached in process two
    await asSession(one.http.delete(`/api-keys/${key.id}`), admin).expect(200);
    for (let i = 0; i < 50; i++) {
      const res = await asKey(two.http.get('/v1/me'), key.key);
      if (res.status === 401) return;
      await new Promise((resolve) => setTimeout(resolve, 20)); // pub/sub delivery, well under the 5 s cache
    }
    throw new Error('process two still accepts the revoked key');
  });
});

@Controller('v1/probe-search')
class SearchProbeController {
  @Post('a')
  @RequireScopes('crm:read')
  @SharedRateLimit('search')
  a() {
    return { ok: true };
  }

  @Get('b')
  @RequireScopes('crm:read')
  @SharedRateLimit('search')
  b() {
    return { ok: true };
  }
}

describe('the shared search limit', () => {
  let probe: TestApp;
  beforeAll(async () => {
    probe = await TestApp.start({ controllers: [SearchProbeController] });
  });
  afterAll(() => probe.stop());

  const agency = () => probe.seed.organization({ name: 'Probe Agency', firstName: 'Pia', lastName: 'Probe' });
  const keyFor = async (admin: SignedIn) =>
    (await probe.seed.apiKey(admin, { name: 'k', scopes: ['crm:read'] })).key;

  it('allows 30 calls a minute per key across every route that shares it', async () => {
    const key = await keyFor(await agency());
    for (let i = 0; i < 15; i++)
      await probe.http.post('/v1/probe-search/a').auth(key, { type: 'bearer' }).expect(201);
    for (let i = 0; i < 15; i++)
      await probe.http.get('/v1/probe-search/b').auth(key, { type: 'bearer' }).expect(200);
    const over = await probe.http.get('/v1/probe-search/b').auth(key, { type: 'bearer' }).expect(429);
    expect(over.body.error.code).toBe('RATE_LIMITED');
    expect(over.headers['retry-after']).toBeDefined();
    expect(over.headers['x-ratelimit-reset']).toBeDefined();
  });

  it('allows 30 calls a minute per organization across its keys', async () => {
    const admin = await agency();
    const first = await keyFor(admin);
    const second = await keyFor(admin);
    for (let i = 0; i < 30; i++) {
      await probe.http
        .get('/v1/probe-search/b')
        .auth(i % 2 ? first : second, { type: 'bearer' })
        .expect(200);
    }
    await probe.http.get('/v1/probe-search/b').auth(first, { type: 'bearer' }).expect(429);
    // another agency has its own budget
    const other = await keyFor(await agency());
    await probe.http.get('/v1/probe-search/b').auth(other, { type: 'bearer' }).expect(200);
  });
});

describe('Redis that does not answer', () => {
  let silent: Server;
  let t: TestApp;
  const held: Socket[] = [];
  beforeAll(async () => {
    // accepts connections and never answers: a paused or stalled Redis
    silent = createServer((socket) => held.push(socket.on('error', () => undefined)));
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    const { port } = silent.address() as { port: number };
    t = await TestApp.start({ env: { REDIS_URL: `redis://127.0.0.1:${port}`, METRICS_ENABLED: 'true' } });
  });
  afterAll(async () => {
    await t.stop();
    for (const socket of held) socket.destroy();
    await new Promise((done) => silent.close(done));
  });

  it('does not stall the door: limits are counted in this process, and the fallback is counted in /metrics', async () => {
    const admin = await t.seed.organization();
    const key = await t.seed.apiKey(admin, ['crm:read']);
    await sql(t, 'update api_keys set rate_limit_per_minute = 2 where id = ?', [key.id]);
    const first = await asKey(t.http.get('/v1/me'), key.key).expect(200);
    expect(first.headers['x-ratelimit-remaining-short']).toBe('1');
    await asKey(t.http.get('/v1/me'), key.key).expect(200);
    const third = await asKey(t.http.get('/v1/me'), key.key);
    expect(third.body.error.code).toBe('RATE_LIMITED');
    const metrics = await t.http.get('/metrics').expect(200);
    expect(metrics.text).toMatch(/^rate_limit_store_fallbacks_total [1-9]/m);
  });

  it('keeps no key in the door while it cannot hear the other processes: a revoke made elsewhere is refused at the next call', async () => {
    const admin = await t.seed.organization();
    const key = await t.seed.apiKey(admin, ['crm:read']);
    await asKey(t.http.get('/v1/me'), key.key).expect(200);
    // what another process's revoke leaves behind; its message never reaches this one
    await sql(t, 'update api_keys set revoked_at = now() where id = ?', [key.id]);
    expect((await asKey(t.http.get('/v1/me'), key.key)).status).toBe(401);
  });
});
