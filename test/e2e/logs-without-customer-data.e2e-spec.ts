import { startApi } from '../api-child';
import { sql, TestApp } from '../fixtures';

/** Values the log must never carry: they are a lead's. */
const PLANTED = {
  firstName: 'Plantedfirstname',
  lastName: 'Plantedlastname',
  email: 'planted.secret@example.test',
  phoneNumber: '+34 611 222 333',
  companyName: 'Planted Company SL',
  crmStatus: 'lead',
};

/**
 * A trigger fails the lead's insert for the planted email, with the email in the server's message
 * too; the statement knex puts in the error carries every value of the lead.
 */
const PLANT = `
  create function planted_failure() returns trigger language plpgsql as $$
  begin
    if new.email = '${PLANTED.email}' then
      raise exception 'planted failure for %', new.email;
    end if;
    return new;
  end $$;
  create trigger planted_failure before insert on leads for each row execute function planted_failure();`;
const UPROOT = `
  drop trigger if exists planted_failure on leads;
  drop function if exists planted_failure();`;

describe('logs without customer data', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start();
    await t.resetRows();
  });

  afterAll(async () => {
    await sql(t, UPROOT);
    await t.stop();
  });

  it('a failed insert logs the request id, SQLSTATE and statement shape, never the lead', async () => {
    const admin = await t.seed.organization();
    const { key } = await t.seed.apiKey(admin, ['crm:read', 'crm:write']);
    await sql(t, PLANT);
    const api = await startApi();
    try {
      const res = await fetch(`http://127.0.0.1:${api.port}/v1/leads`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(PLANTED),
      });
      const body = await res.json();
      const requestId = res.headers.get('x-request-id');
      expect({ status: res.status, body }).toEqual({
        status: 500,
        body: { error: { code: 'INTERNAL', message: expect.any(String), status: 500 }, requestId },
      });

      const failed = await api.line('request failed');
      expect(failed).toMatchObject({
        level: 50,
        requestId,
        route: '/v1/leads',
        status: 500,
        code: 'INTERNAL',
        err: {
          name: 'DriverException',
          code: 'P0001', // raise_exception
          statement: expect.stringMatching(
            /^insert into "leads" \(.*\) values \(\?(, (\?|NULL))+\) returning "id"$/,
          ),
          message: 'planted failure for ?',
        },
      });
    } finally {
      api.signal('SIGTERM');
      await api.exited;
    }
    const everything = api.lines().map((line) => JSON.stringify(line));
    for (const value of Object.values(PLANTED).filter((v) => v !== 'lead')) {
      expect(everything.filter((line) => line.includes(value))).toEqual([]);
    }
    expect(everything.filter((line) => /611.?222|planted\.secret/i.test(line))).toEqual([]);
  });
});
