import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort, ROOT } from '../child-process';
import { SHED_STALL_MS } from '@app/platform';
import { asKey, expectError, leadBody, TestApp } from '../fixtures';

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
 * Faults of the database under a running API, on a PostgreSQL of the test's own (embedded), with
 * one pooled connection so every request meets the fault: a restart, forgotten prepared
 * statements, a frozen server, a held lock.
 */
describe('database faults', () => {
  let dataDir: string;
  let port: number;
  let server: ChildProcessWithoutNullStreams;
  let t: TestApp;
  let url: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'estate-restart-'));
    port = await freePort();
    server = spawn(process.execPath, [
      join(ROOT, 'test/embedded-postgres-server.mjs'),
      dataDir,
      String(port),
    ]);
    await ready(server);
    url = `postgres://postgres:postgres@127.0.0.1:${port}/estate`;
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

  /** A connection of the test's own to the same database. */
  const session = async () => {
    const client = new Client({ connectionString: url });
    await client.connect();
    return client;
  };

  it('a frozen server: every request is answered (503 in the envelope, or 200 on a fresh connection) while it is frozen, full service after', async () => {
    const admin = await t.seed.organization();
    const lead = await t.seed.lead(admin);
    const secret = (await t.seed.apiKey(admin, { scopes: ['crm:read'] })).key;
    await asKey(t.http.get(`/v1/leads/${lead.id}`), secret).expect(200);

    const probe = await session();
    const { rows } = await probe.query<{ pid: number }>(
      `select pid from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`,
    );
    await probe.end();
    expect(rows.length).toBeGreaterThan(0);
    // SIGSTOP freezes the API's own server processes: its pooled connection stops answering
    for (const { pid } of rows) process.kill(pid, 'SIGSTOP');
    let thawed = false;
    const thaw = () => {
      if (thawed) return;
      thawed = true;
      for (const { pid } of rows) process.kill(pid, 'SIGCONT');
    };
    // should a request hang, thaw anyway after 15 s so the test fails instead of the suite
    const deadline = setTimeout(thaw, 15_000);
    try {
      const answers = await Promise.all([
        asKey(t.http.get(`/v1/leads/${lead.id}`), secret),
        asKey(t.http.get('/v1/leads'), secret),
        asKey(t.http.get('/v1/me'), secret),
      ]);
      const answeredWhileFrozen = !thawed;
      thaw();
      expect(answeredWhileFrozen).toBe(true);
      for (const res of answers) {
        if (res.status !== 200) expectError(res, 503, 'INTERNAL');
      }
      expect(answers.some((res) => res.status === 503)).toBe(true);
    } finally {
      clearTimeout(deadline);
      thaw();
    }
    await asKey(t.http.get(`/v1/leads/${lead.id}`), secret).expect(200);
    await asKey(t.http.get('/v1/me'), secret).expect(200);
  }, 30_000);

  it('a write caught by a frozen server leaves no broken connection behind: the next requests answer 200, not 500', async () => {
    const admin = await t.seed.organization();
    const secret = (await t.seed.apiKey(admin, { scopes: ['crm:read', 'crm:write'] })).key;
    await asKey(t.http.get('/v1/leads'), secret).expect(200);
    const probe = await session();
    const { rows } = await probe.query<{ pid: number }>(
      `select pid from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`,
    );
    await probe.end();
    for (const { pid } of rows) process.kill(pid, 'SIGSTOP');
    try {
      const write = await asKey(t.http.post('/v1/leads'), secret).send(leadBody());
      expectError(write, 503, 'INTERNAL');
    } finally {
      for (const { pid } of rows) process.kill(pid, 'SIGCONT');
    }
    // the one pooled connection saw its transaction's answers given up on: it must not be reused as is
    for (const path of ['/v1/me', '/v1/leads', '/v1/leads/counts']) {
      const res = await asKey(t.http.get(path), secret);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
    }
  }, 30_000);

  it('a saturated pool sheds new requests at once (503 with Retry-After) instead of queueing them behind the fault', async () => {
    const admin = await t.seed.organization();
    const secret = (await t.seed.apiKey(admin, { scopes: ['crm:read'] })).key;
    await asKey(t.http.get('/v1/me'), secret).expect(200);
    const pool = t.orm.em.getConnection().getKnex().client as {
      acquireConnection(): Promise<object>;
      releaseConnection(connection: object): Promise<void>;
    };
    // the pool's one connection, held for a second as a stuck request would hold it: within the
    // pool's 1.5 s wait, so a request that queued for it would get it and answer 200
    const held = await pool.acquireConnection();
    let released = false;
    const release = new Promise<void>((done) =>
      setTimeout(() => {
        released = true;
        void pool.releaseConnection(held).then(done);
      }, 1_000),
    );
    const queued = [1, 2].map(() => asKey(t.http.get('/v1/leads'), secret).then((res) => res));
    // both wait for the connection now, and nothing was handed out for the stall time
    await new Promise((resolve) => setTimeout(resolve, SHED_STALL_MS + 100));
    const shed = await asKey(t.http.get('/v1/leads'), secret);
    const answeredWhileHeld = !released;
    await release;
    expect(answeredWhileHeld).toBe(true);
    expectError(shed, 503, 'INTERNAL');
    expect(shed.headers['retry-after']).toBe('1');
    for (const res of await Promise.all(queued)) expect(res.status).toBe(200);
    await asKey(t.http.get('/v1/leads'), secret).expect(200);
  });

  it('a lock held on leads: lead reads give up with 503 (lock timeout) while it is held, other reads go on; 200 once it is released', async () => {
    const admin = await t.seed.organization();
    const lead = await t.seed.lead(admin);
    const secret = (await t.seed.apiKey(admin, { scopes: ['crm:read'] })).key;
    const holder = await session();
    await holder.query('begin');
    await holder.query('lock table leads in access exclusive mode');
    try {
      const read = await asKey(t.http.get(`/v1/leads/${lead.id}`), secret);
      expectError(read, 503, 'INTERNAL');
      expect(read.headers['retry-after']).toBe('1');
      await asKey(t.http.get('/v1/me'), secret).expect(200);
    } finally {
      await holder.query('rollback');
      await holder.end();
    }
    await asKey(t.http.get(`/v1/leads/${lead.id}`), secret).expect(200);
  });
});
