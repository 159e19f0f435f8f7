import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, ROOT } from '../child-process';
import { asKey, TestApp } from '../fixtures';

/** Resolves at the server's next "ready" line. */
const ready = (server: ChildProcessWithoutNullStreams) =>
  new Promise<void>((done, fail) => {
    const onData = (chunk: Buffer) => {
      if (!chunk.toString().includes('ready')) return;
      server.stdout.off('data', onData);
      done();
    };
    server.stdout.on('data', onData);
    server.once('exit', (code) => fail(new Error(`embedded PostgreSQL exited (${code})`)));
  });

/**
 * Hot reads run as named prepared statements, which live in a database session: a restart ends
 * every session, so the API must prepare them again on fresh connections rather than fail. A
 * PostgreSQL of its own (embedded) is stopped and started under a running API.
 */
describe('prepared statements', () => {
  let dataDir: string;
  let port: number;
  let server: ChildProcessWithoutNullStreams;
  let t: TestApp;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'estate-restart-'));
    port = await freePort();
    server = spawn(process.execPath, [
      join(ROOT, 'test/embedded-postgres-server.mjs'),
      dataDir,
      String(port),
    ]);
    await ready(server);
    const url = `postgres://postgres:postgres@127.0.0.1:${port}/estate`;
    // one connection: every read below runs on the connection whose statements the server lost
    t = await TestApp.start({
      env: { DATABASE_URL: url, MIGRATE_ON_START: 'true', DATABASE_POOL_SIZE: '1' },
    });
  }, 120_000);

  afterAll(async () => {
    await t?.stop();
    if (server) {
      const exited = new Promise((done) => server.once('exit', done));
      server.stdin.write('stop\n');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('survive a database restart: the same reads answer the same rows afterwards', async () => {
    const admin = await t.seed.organization();
    const lead = await t.seed.lead(admin, { firstName: 'Rosa' });
    const first = await t.seed.apiKey(admin, { scopes: ['crm:read'] });
    // used only after the restart, so the door's key lookup runs then (a used key stays cached for seconds)
    const second = await t.seed.apiKey(admin, { scopes: ['crm:read'] });
    const reads = async (secret: string) => ({
      me: await asKey(t.http.get('/v1/me'), secret),
      list: await asKey(t.http.get('/v1/leads?limit=5'), secret),
      search: await asKey(t.http.get('/v1/leads?search=rosa'), secret),
      one: await asKey(t.http.get(`/v1/leads/${lead.id}`), secret),
    });
    const before = await reads(first.key);
    for (const res of Object.values(before)) expect(res.status).toBe(200);
    expect(before.list.body).toMatchObject({ total: 1, data: [{ id: lead.id }] });

    const restarted = ready(server);
    server.stdin.write('restart\n');
    await restarted;

    const after = await reads(second.key);
    for (const [name, res] of Object.entries(after)) {
      expect({ name, status: res.status }).toEqual({ name, status: 200 });
    }
    expect(after.me.body.key.id).toBe(second.id);
    expect(after.list.body).toEqual(before.list.body);
    expect(after.search.body).toEqual(before.search.body);
    expect(after.one.body).toEqual(before.one.body);
  }, 120_000);

  it('are prepared again when the server forgot them (DEALLOCATE ALL, as a pooler does)', async () => {
    const admin = await t.seed.organization();
    const lead = await t.seed.lead(admin, { firstName: 'Luz' });
    const secret = (await t.seed.apiKey(admin, { scopes: ['crm:read'] })).key;
    const read = () => asKey(t.http.get(`/v1/leads/${lead.id}`), secret);
    const before = await read().expect(200);

    type Connection = { query(sql: string): Promise<{ rows: { n: string }[] }> };
    const pool = t.orm.em.getConnection().getKnex().client as {
      acquireConnection(): Promise<Connection>;
      releaseConnection(connection: Connection): Promise<void>;
    };
    const connection = await pool.acquireConnection();
    const [{ n }] = (await connection.query('select count(*) as n from pg_prepared_statements')).rows;
    await connection.query('deallocate all');
    await pool.releaseConnection(connection);
    expect(Number(n)).toBeGreaterThan(0);

    const after = await read();
    expect({ status: after.status, body: after.body }).toEqual({ status: 200, body: before.body });
  });
});
