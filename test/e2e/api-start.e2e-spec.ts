import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { MIGRATIONS } from '@migrations';
import { childEnv, finished, freePort, run, start, TS_LOADER } from '../child-process';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const answers = async (url: string) => {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
};

/** The API as `npm start` runs it, but from source: no DATABASE_URL, so embedded PostgreSQL. */
describe('apps/api start-up', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'estate-api-start-'));
  const postmasterPid = () =>
    existsSync(join(dataDir, 'postmaster.pid'))
      ? Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0])
      : null;

  afterAll(() => {
    // a failed test must not leave our embedded server running: stop it by its own pid
    const pid = postmasterPid();
    if (pid) process.kill(pid, 'SIGINT');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts on embedded PostgreSQL, migrates it, answers /health, and stops both on SIGTERM', async () => {
    const port = await freePort();
    // a port the OS says is free: a random one collided now and then with a socket the suite held
    const pgPort = await freePort();
    const { child, output } = start(
      'node',
      [...TS_LOADER, 'apps/api/src/main.ts'],
      childEnv({
        DATABASE_URL: undefined,
        REDIS_URL: undefined,
        MIGRATE_ON_START: undefined,
        EMBEDDED_DATA_DIR: dataDir,
        EMBEDDED_PG_PORT: String(pgPort),
        PORT: String(port),
        LOG_LEVEL: 'warn',
      }),
    );
    const exited = finished(child, output, 90_000);
    try {
      let status = 0;
      for (const deadline = Date.now() + 60_000; Date.now() < deadline && child.exitCode === null;) {
        status = await fetch(`http://127.0.0.1:${port}/health`).then(
          (res) => res.status,
          () => 0,
        );
        if (status === 200) break;
        await sleep(200);
      }
      // the API's own account of a failed start, shown when there is one
      expect({ status, stderr: status === 200 ? '' : output.stderr }).toEqual({ status: 200, stderr: '' });

      const db = new Client({ connectionString: `postgres://postgres:postgres@127.0.0.1:${pgPort}/estate` });
      await db.connect();
      const { rows } = await db.query<{ n: number }>('select count(*)::int as n from mikro_orm_migrations');
      await db.end();
      expect(rows[0].n).toBe(MIGRATIONS.length);
      expect(postmasterPid()).not.toBeNull();
    } finally {
      child.kill('SIGTERM');
    }

    const res = await exited;
    // a graceful stop: the embedded database is stopped by the API's own shutdown, then exit 0
    expect({ signal: res.signal, status: res.status }).toEqual({ signal: null, status: 0 });
    expect(postmasterPid()).toBeNull();
    expect(await answers(`postgres://postgres:postgres@127.0.0.1:${pgPort}/estate`)).toBe(false);
  });

  it('refuses PORT=abc with exit 1 and one line naming PORT', async () => {
    const res = await run('node', [...TS_LOADER, 'apps/api/src/main.ts'], childEnv({ PORT: 'abc' }));
    expect(res.status).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr.trim()).toMatch(/^[^\n]*PORT[^\n]*$/);
  });
});
