import { Agent, request } from 'node:http';
import { Client } from 'pg';
import { VIEWS_FLUSH_MS } from '@app/brochures';
import { startApi, type ChildApp } from '../api-child';
import { Agency, leadBody, sql, TestApp } from '../fixtures';
import { insertBrochure } from '../fixtures/brochures';

/**
 * Crowds on a healthy database, against the API in a process of its own as an operator runs it
 * (docs/reliability.md, "Load shedding" and "Counters without a hot row"): a burst queues for the
 * pool and is served, never shed; parallel opens of one brochure are all counted, written within
 * a second, and a graceful stop writes the views still in memory.
 */

/** A call on a connection of its own, as many people at once make them; its status and time. */
const call = (port: number, method: string, path: string, headers: Record<string, string>, body?: object) =>
  new Promise<{ status: number; ms: number }>((resolve) => {
    const start = Date.now();
    const payload = body ? JSON.stringify(body) : undefined;
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method,
        agent: false,
        headers: payload ? { ...headers, 'content-type': 'application/json' } : headers,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: Date.now() - start }));
      },
    );
    req.on('error', () => resolve({ status: 0, ms: Date.now() - start }));
    req.end(payload);
  });

/** GET on a connection of its own. */
const get = async (port: number, path: string, headers: Record<string, string> = {}) =>
  (await call(port, 'GET', path, headers)).status;

const countBy = (values: number[]) =>
  values.reduce<Record<number, number>>((m, v) => ({ ...m, [v]: (m[v] ?? 0) + 1 }), {});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('crowds on a healthy database', () => {
  let t: TestApp;
  let a: Agency;
  let api: ChildApp;

  beforeAll(async () => {
    t = await TestApp.start();
    await t.resetRows();
    a = await t.seed.agency('Crowd Agency');
    await sql(t, 'update api_keys set rate_limit_per_minute = 1000000');
    // each test's visitors come from an address of their own (60 page calls a minute per IP)
    api = await startApi({ TRUST_PROXY_HOPS: '1' });
  });

  afterAll(async () => {
    api.signal('SIGKILL');
    await api.exited.catch(() => undefined);
    await t.stop();
  });

  const viewCountOf = async (id: string) =>
    (await sql<{ view_count: number }>(t, 'select view_count from brochures where id = ?', [id]))[0]
      .view_count;

  it('300 concurrent GET /v1/leads/{id} by one key → 300 × 200', async () => {
    const lead = await t.seed.lead(a.admin);
    const auth = { authorization: `Bearer ${a.admin.key}` };
    const statuses = await Promise.all(
      Array.from({ length: 300 }, () => get(api.port, `/v1/leads/${lead.id}`, auth)),
    );
    expect(countBy(statuses)).toEqual({ 200: 300 });
  });

  it('keeps an idle connection 65 s, past what clients keep theirs, so it never resets one in use', async () => {
    const header = await new Promise<string | undefined>((resolve, reject) => {
      const agent = new Agent({ keepAlive: true });
      request({ host: '127.0.0.1', port: api.port, path: '/health/live', agent }, (res) => {
        res.resume();
        res.on('end', () => (agent.destroy(), resolve(String(res.headers['keep-alive']))));
      })
        .on('error', reject)
        .end();
    });
    expect(header).toBe('timeout=65');
  });

  it('a view writes no row: with the brochure row locked the page still answers, the count follows the lock', async () => {
    const brochure = await insertBrochure(t, a.admin.organizationId, a.admin.userId);
    const holder = new Client({ connectionString: process.env.DATABASE_URL });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select 1 from brochures where id = $1 for update', [brochure.id]);
      const statuses = await Promise.all(
        Array.from({ length: 5 }, () =>
          get(api.port, `/b/${brochure.slug}`, {
            'user-agent': 'Mozilla/5.0',
            'x-forwarded-for': '203.0.113.7',
          }),
        ),
      );
      expect(countBy(statuses)).toEqual({ 200: 5 });
      await sleep(VIEWS_FLUSH_MS * 2); // a flush meets the lock, gives up and keeps the views
      expect(await viewCountOf(brochure.id)).toBe(0);
    } finally {
      await holder.query('rollback');
      await holder.end();
    }
    await sleep(VIEWS_FLUSH_MS * 2 + 1_500);
    expect(await viewCountOf(brochure.id)).toBe(5);
  });

  it("one agency's writes stuck on its event counter leave two connections: another agency is served", async () => {
    const b = await t.seed.agency('Neighbour Agency');
    const lead = await t.seed.lead(b.admin);
    await sql(t, 'update api_keys set rate_limit_per_minute = 1000000');
    await t.seed.lead(a.admin); // the counter row exists
    const holder = new Client({ connectionString: process.env.DATABASE_URL });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select 1 from org_event_counter where organization_id = $1 for update', [
        a.admin.organizationId,
      ]);
      const stuck = Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          call(
            api.port,
            'POST',
            '/v1/leads',
            { authorization: `Bearer ${a.admin.key}` },
            leadBody({ firstName: `Stuck${i}` }),
          ),
        ),
      );
      await sleep(200); // the stuck writes hold what they may of the pool
      const bAuth = { authorization: `Bearer ${b.admin.key}` };
      const served = await Promise.all([
        ...Array.from({ length: 10 }, () => call(api.port, 'GET', `/v1/leads/${lead.id}`, bAuth)),
        ...Array.from({ length: 5 }, (_, i) =>
          call(api.port, 'POST', `/v1/leads/${lead.id}/notes`, bAuth, { content: `served ${i}` }),
        ),
      ]);
      expect(countBy(served.map((r) => r.status))).toEqual({ 200: 10, 201: 5 });
      expect(Math.max(...served.map((r) => r.ms))).toBeLessThan(1_000);
      // the stuck agency's writes give up on the lock or the queue: 503, nothing written
      const refused = await stuck;
      expect(countBy(refused.map((r) => r.status))).toEqual({ 503: 30 });
    } finally {
      await holder.query('rollback');
      await holder.end();
    }
    const [{ n }] = await sql<{ n: string }>(
      t,
      "select count(*) n from leads where first_name like 'Stuck%'",
    );
    expect(Number(n)).toBe(0);
  });

  it('55 concurrent opens of one brochure → 55 × 200, viewCount 55 within a second; a stop writes the rest', async () => {
    const brochure = await insertBrochure(t, a.admin.organizationId, a.admin.userId);
    const open = () =>
      get(api.port, `/b/${brochure.slug}`, { 'user-agent': 'Mozilla/5.0', 'x-forwarded-for': '203.0.113.8' });
    const statuses = await Promise.all(Array.from({ length: 55 }, open));
    expect(countBy(statuses)).toEqual({ 200: 55 });
    await sleep(VIEWS_FLUSH_MS + 500);
    expect(await viewCountOf(brochure.id)).toBe(55);

    for (let i = 0; i < 3; i += 1) expect(await open()).toBe(200);
    api.signal('SIGTERM'); // within the second: the three views are still in memory
    expect((await api.exited).status).toBe(0);
    expect(await viewCountOf(brochure.id)).toBe(58);
  });
});
