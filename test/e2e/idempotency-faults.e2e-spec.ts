import { PgFailpointProxy, type Failpoint } from '../pg-failpoint-proxy';
import { Client } from 'pg';
import { Agency, api, expectError, leadBody, TestApp } from '../fixtures';

const REPLAYED = 'idempotent-replayed';
const LEAD_INSERT = /^insert into "leads"/i;
const COMMIT = /^commit/i;

/**
 * "No create twice, ever": the connection between the API and PostgreSQL is dropped at each step
 * of an idempotent create (a proxy that reads the protocol), then the client retries with the same
 * Idempotency-Key and body until it gets a definitive answer. Exactly one lead exists afterwards,
 * and a retry answers with it.
 */
describe('Idempotency-Key through connection faults', () => {
  let proxy: PgFailpointProxy;
  let t: TestApp;
  let a: Agency;

  beforeAll(async () => {
    const database = new URL(process.env.DATABASE_URL!);
    proxy = await PgFailpointProxy.start({ host: database.hostname, port: Number(database.port || 5432) });
    t = await TestApp.start({ env: { DATABASE_URL: proxy.urlFor(process.env.DATABASE_URL!) } });
  });
  afterAll(async () => {
    await t.stop();
    await proxy.stop();
  });
  beforeEach(async () => {
    await t.resetRows();
    a = await t.seed.agency();
  });

  const cases: { step: string; failpoint: Failpoint; committed: boolean }[] = [
    // the store is the database: a claim that fails means the create cannot run safely either (503)
    {
      step: 'at the claim',
      failpoint: { at: /^insert into idempotency_records/i, action: 'drop-before' },
      committed: false,
    },
    { step: 'before the insert', failpoint: { at: LEAD_INSERT, action: 'drop-before' }, committed: false },
    {
      step: 'after the insert',
      failpoint: { at: LEAD_INSERT, action: 'drop-after-answer' },
      committed: false,
    },
    {
      step: 'at COMMIT, which never reaches the server',
      failpoint: { after: LEAD_INSERT, at: COMMIT, action: 'drop-before' },
      committed: false,
    },
    {
      step: 'during COMMIT: the server commits, its answer is lost',
      failpoint: { after: LEAD_INSERT, at: COMMIT, action: 'drop-answer' },
      committed: true,
    },
    // a server that stops answering mid-transaction: the client gives up (its read timeout), its
    // ROLLBACK never leaves; the connection must not go back to the pool inside that transaction
    {
      step: 'after the insert, the server frozen for 4 s',
      failpoint: { at: LEAD_INSERT, action: 'hold-answer', holdMs: 4_000 },
      committed: false,
    },
    {
      step: 'after COMMIT',
      failpoint: { after: LEAD_INSERT, at: COMMIT, action: 'drop-after-answer' },
      committed: true,
    },
  ];

  it.each(cases)(
    'connection dropped $step: one lead, and the retry answers with it',
    async ({ step, failpoint, committed }) => {
      const firstName = `Fault ${step}`;
      const body = JSON.stringify(leadBody({ firstName }));
      const post = () =>
        api(t, a.admin.key)
          .post('/v1/leads')
          .set('Content-Type', 'application/json')
          .set('Idempotency-Key', `fault-${cases.findIndex((c) => c.step === step)}`)
          .send(body);
      // observed on a connection of the test's own, not through the proxy
      const leadIds = async () => {
        const direct = new Client({ connectionString: process.env.DATABASE_URL });
        await direct.connect();
        try {
          const { rows } = await direct.query<{ id: string }>('select id from leads where first_name = $1', [
            firstName,
          ]);
          return rows.map((row) => Number(row.id));
        } finally {
          await direct.end();
        }
      };

      proxy.arm(failpoint);
      const first = await post();
      expect(proxy.hit).toBe(true);
      if (first.status !== 201) expectError(first, 503, 'INTERNAL');
      expect(await leadIds()).toHaveLength(committed ? 1 : 0);

      // the client's retry loop: same key, same body, until an answer that is not "retry later"
      let retry = await post();
      for (let round = 0; round < 5 && (retry.status === 409 || retry.status === 503); round++) {
        if (retry.status === 409) expectError(retry, 409, 'IDEMPOTENCY_KEY_IN_PROGRESS');
        t.clock.advance(3_500); // past the grace a new attempt has to lock its record
        retry = await post();
      }
      expect(retry.status).toBe(201);
      const ids = await leadIds();
      expect(ids).toHaveLength(1);
      expect(retry.body.lead.id).toBe(ids[0]);
      expect(retry.headers[REPLAYED]).toBe(committed ? 'true' : undefined);
      if (first.status === 201) expect(retry.body).toEqual(first.body);
      // and from now on, a replay of that answer
      // every pooled connection serves some writes: none may run inside a transaction a fault left open
      for (let i = 0; i < 12; i++) {
        const other = await api(t, a.admin.key)
          .post('/v1/leads')
          .set('Idempotency-Key', `other-${cases.findIndex((c) => c.step === step)}-${i}`)
          .send(leadBody({ firstName: `Other ${i}` }));
        expect(other.status).toBe(201);
      }
      expect(await leadIds()).toHaveLength(1);
      const again = await post();
      expect({ status: again.status, replayed: again.headers[REPLAYED] }).toEqual({
        status: 201,
        replayed: 'true',
      });
      expect(again.body).toEqual(retry.body);
    },
  );

  it('a transaction the server froze under: its locks go as soon as the server runs again, not after the idle timeout', async () => {
    const key = 'frozen-locks';
    proxy.arm({ at: LEAD_INSERT, action: 'hold-answer', holdMs: 3_500 });
    const heldAt = Date.now();
    const first = await api(t, a.admin.key)
      .post('/v1/leads')
      .set('Idempotency-Key', key)
      .send(leadBody({ firstName: 'Frozen locks' }));
    expectError(first, 503, 'INTERNAL');
    // the server "thaws" when the proxy lets its answers through; give it a moment past that
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, heldAt + 3_500 - Date.now()) + 500));
    const direct = new Client({ connectionString: process.env.DATABASE_URL });
    await direct.connect();
    try {
      // no connection sits idle inside the frozen transaction, holding what it locked
      const idle = await direct.query<{ n: string }>(
        `select count(*) as n from pg_stat_activity
          where datname = current_database() and state like 'idle in transaction%' and pid <> pg_backend_pid()`,
      );
      expect(Number(idle.rows[0].n)).toBe(0);
    } finally {
      await direct.end();
    }
  });
});
