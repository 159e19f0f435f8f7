import { Client } from 'pg';
import { MIGRATIONS } from '@migrations';
import { childEnv, ownStderr, run } from '../child-process';
import { TestApp } from '../fixtures';

/** The real `npm run ops` script, as an operator types it, against the run's database. */
const ops = (args: string[], databaseUrl = process.env.DATABASE_URL) =>
  run(
    'npm',
    ['run', 'ops', '--silent', '--', ...args],
    childEnv({ DATABASE_URL: databaseUrl, REDIS_URL: undefined }),
  );

describe('npm run ops', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.stop());
  beforeEach(() => t.resetRows());

  const organizationRow = async (id: string) => {
    const [row] = await t.orm.em
      .getConnection()
      .execute<{ plan_active: boolean; disabled: boolean }[]>(
        'select plan_active, disabled from organizations where id = ?',
        [id],
      );
    return row;
  };

  it('migrate --json reports nothing pending on a migrated database', async () => {
    const res = await ops(['migrate', '--json']);
    expect(res.status).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({ applied: [], executed: MIGRATIONS.length });
  });

  it('migrate --json applies every migration to an empty database and names them', async () => {
    const server = new URL(process.env.DATABASE_URL as string);
    const name = `${server.pathname.slice(1)}_ops_migrate`;
    const admin = new Client({ connectionString: server.toString() });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
    try {
      const empty = new URL(server);
      empty.pathname = `/${name}`;
      const res = await ops(['migrate', '--json'], empty.toString());
      expect(res.status).toBe(0);
      expect(JSON.parse(res.stdout)).toEqual({
        applied: MIGRATIONS.map((m) => m.name),
        executed: MIGRATIONS.length,
      });
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });

  it('plan --inactive / --active switches the plan and prints one JSON object', async () => {
    const { organizationId } = await t.seed.organization();
    const off = await ops(['plan', '--org', organizationId, '--inactive', '--json']);
    expect(off.status).toBe(0);
    expect(JSON.parse(off.stdout)).toMatchObject({ id: organizationId, planActive: false, disabled: false });
    expect(await organizationRow(organizationId)).toEqual({ plan_active: false, disabled: false });

    const on = await ops(['plan', '--org', organizationId, '--active']);
    expect(on.status).toBe(0);
    expect(on.stdout).toContain('plan active');
    expect((await organizationRow(organizationId)).plan_active).toBe(true);
  });

  it('org --disable / --enable switches the organization', async () => {
    const { organizationId } = await t.seed.organization();
    const disabled = await ops(['org', '--org', organizationId, '--disable', '--json']);
    expect(disabled.status).toBe(0);
    expect(JSON.parse(disabled.stdout)).toMatchObject({ id: organizationId, disabled: true });
    expect((await organizationRow(organizationId)).disabled).toBe(true);

    const enabled = await ops(['org', '--org', organizationId, '--enable', '--json']);
    expect(enabled.status).toBe(0);
    expect(JSON.parse(enabled.stdout)).toMatchObject({ id: organizationId, disabled: false });
    expect((await organizationRow(organizationId)).disabled).toBe(false);
  });

  it('an unknown organization exits non-zero with one line on stderr and nothing on stdout', async () => {
    const res = await ops(['plan', '--org', '0190a0a0-0000-7000-8000-000000000000', '--active', '--json']);
    expect(res.status).not.toBe(0);
    expect(res.stdout).toBe('');
    expect(ownStderr(res.stderr)).toMatch(/^[^\n]*not found[^\n]*$/i);
  });

  it('seed:demo --help prints its options on stdout and exits 0 (the process, as typed)', async () => {
    const res = await ops(['seed:demo', '--help']);
    expect(res.status).toBe(0);
    expect(res.stdout).toContain('Usage: npm run ops -- seed:demo [--leads N] [--json]');
    expect(res.stdout).toContain('--leads');
    expect(ownStderr(res.stderr)).toBe('');
  });

  it('refuses a bad command line or environment with one line on stderr, before booting', async () => {
    // the cases run in-process in apps/ops/src/ops-cli.spec.ts; one real process checks the exit code
    const res = await run(
      'npm',
      ['run', 'ops', '--silent', '--', 'migrate'],
      childEnv({ REDIS_URL: undefined, DATABASE_URL: 'mysql://nope' }),
    );
    expect({ status: res.status, stdout: res.stdout }).toEqual({ status: 1, stdout: '' });
    const stderr = ownStderr(res.stderr);
    expect(stderr).not.toContain('\n');
    expect(stderr).toMatch(/^Invalid configuration: DATABASE_URL /);
  });
});
