import { asKey, TestApp } from '../fixtures';
import { childEnv, run } from '../child-process';

const ops = (args: string[]) =>
  run(
    'npm',
    ['run', 'ops', '--silent', '--', ...args],
    childEnv({ DATABASE_URL: process.env.DATABASE_URL, REDIS_URL: undefined }),
  );

describe('npm run ops: key-rate and seed:demo', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.stop());
  beforeEach(() => t.resetRows());

  it('key-rate raises a key’s per-minute limit and the windows scale with it', async () => {
    const admin = await t.seed.organization();
    const key = await t.seed.apiKey(admin, { scopes: ['crm:read'] });
    const res = await ops(['key-rate', '--key', key.id, '--per-minute', '240', '--json']);
    expect(res.status).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({ id: key.id, rateLimitPerMinute: 240 });

    const call = await asKey(t.http.get('/v1/me'), key.key).expect(200);
    expect(call.headers['x-ratelimit-limit-short']).toBe('240');
    expect(call.headers['x-ratelimit-limit-medium']).toBe('1200');
    expect(call.headers['x-ratelimit-limit-long']).toBe('6000');
  });

  it('key-rate refuses an unknown key and a bad number with one line and exit 1', async () => {
    const unknown = await ops([
      'key-rate',
      '--key',
      '01a20000-0000-7000-8000-000000000000',
      '--per-minute',
      '10',
    ]);
    expect(unknown.status).toBe(1);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toContain('NOT_FOUND');

    const bad = await ops(['key-rate', '--key', 'x', '--per-minute', 'zero']);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('--per-minute');
  });

  it('seed:demo makes an agency whose people and keys work, with leads, notes, tasks and deals', async () => {
    const res = await ops(['seed:demo', '--leads', '300', '--json']);
    expect(res.status).toBe(0);
    const agency = JSON.parse(res.stdout);
    expect(agency).toMatchObject({
      organizationId: expect.any(String),
      admin: {
        userId: expect.any(String),
        email: expect.any(String),
        password: expect.any(String),
        apiKey: expect.stringMatching(/^svc_pk_/),
      },
      teamId: expect.any(String),
      leads: 300,
      listings: 2000,
      feed: { source: 'jsonfeed', listings: 120 },
    });
    expect(agency.members).toHaveLength(2);
    expect(agency.tagIds).toHaveLength(4);
    // stdout stays one JSON object; a line per 10 % of the leads goes to stderr
    const progress = res.stderr.split('\n').filter((line: string) => line.startsWith('seed:demo: '));
    expect(progress).toHaveLength(10);
    expect(progress[9]).toBe('seed:demo: 100% (300 of 300 leads)');

    await t.http
      .post('/auth/sign-in')
      .send({ email: agency.admin.email, password: agency.admin.password })
      .expect(200);
    const me = await asKey(t.http.get('/v1/me'), agency.admin.apiKey).expect(200);
    expect(me.body.role).toBe('admin');
    expect(me.body.key.scopes).toEqual(
      expect.arrayContaining(['crm:read', 'crm:write', 'properties:write', 'media:write']),
    );
    const memberMe = await asKey(t.http.get('/v1/me'), agency.members[0].apiKey).expect(200);
    expect(memberMe.body.key.scopes).not.toContain('properties:write');

    // 2,000 listings in three countries, readable with the admin's key
    const [listings] = await t.orm.em
      .getConnection()
      .execute<{ n: string; countries: string; cities: string; agents: string }[]>(
        `select count(*) as n, count(distinct country_code) as countries, count(distinct city) as cities,
                count(distinct agent_id) as agents
           from listings where organization_id = ? and source = 'internal'`,
        [agency.organizationId],
      );
    expect(listings).toEqual({ n: '2000', countries: '3', cities: '16', agents: '3' });
    // and a connected feed with its listings, searchable through /property-sources
    const sources = await asKey(t.http.get('/property-sources'), agency.admin.apiKey).expect(200);
    expect(sources.body.data).toContainEqual(
      expect.objectContaining({ source: 'jsonfeed', kind: 'feed', connected: true }),
    );
    const fed = await asKey(t.http.post('/property-sources/jsonfeed/search'), agency.admin.apiKey)
      .send({ limit: 1 })
      .expect(200);
    expect(fed.body.total).toBe(120);
    expect(fed.body.data[0].ref).toEqual({ source: 'jsonfeed', id: fed.body.data[0].id });
    const [someListing] = await t.orm.em
      .getConnection()
      .execute<{ id: string }[]>(
        `select id from listings where organization_id = ? and source = 'internal' limit 1`,
        [agency.organizationId],
      );
    await asKey(t.http.get(`/properties/${someListing.id}`), agency.admin.apiKey).expect(200);

    const leads = await asKey(t.http.get('/v1/leads?limit=5'), agency.admin.apiKey).expect(200);
    expect(leads.body.total).toBe(300);
    const languages = await t.orm.em
      .getConnection()
      .execute<{ n: string }[]>('select count(distinct language) as n from leads where organization_id = ?', [
        agency.organizationId,
      ]);
    expect(Number(languages[0].n)).toBeGreaterThanOrEqual(5);
    const [{ notes, tasks }] = await t.orm.em
      .getConnection()
      .execute<{ notes: string; tasks: string }[]>(
        'select (select count(*) from notes where organization_id = ?) as notes, (select count(*) from tasks where organization_id = ?) as tasks',
        [agency.organizationId, agency.organizationId],
      );
    expect(Number(notes)).toBeGreaterThan(0);
    expect(Number(tasks)).toBeGreaterThan(0);

    // what connectors push: calls with transcripts and analyses, messages on four channels, emails of each source
    const [records] = await t.orm.em.getConnection().execute<
      {
        calls: string;
        transcripts: string;
        analyses: string;
        channels: string;
        sources: string;
        facts: string;
      }[]
    >(
      `select (select count(*) from calls where organization_id = ?) as calls,
              (select count(*) from calls where organization_id = ? and transcript is not null) as transcripts,
              (select count(*) from calls where organization_id = ? and analysis is not null) as analyses,
              (select count(distinct channel) from chat_messages where organization_id = ?) as channels,
              (select count(distinct source) from emails where organization_id = ?) as sources,
              (select count(*) from lead_facts where organization_id = ? and total_calls > 0) as facts`,
      Array(6).fill(agency.organizationId),
    );
    expect(Number(records.calls)).toBeGreaterThan(0);
    expect(Number(records.transcripts)).toBeGreaterThan(0);
    expect(Number(records.analyses)).toBeGreaterThan(0);
    expect(Number(records.channels)).toBe(4);
    expect(Number(records.sources)).toBe(3);
    expect(Number(records.facts)).toBe(150);
    const called = await asKey(t.http.get('/v1/leads?limit=100'), agency.admin.apiKey).expect(200);
    expect(called.body.data.some((lead: { totalCalls: number }) => lead.totalCalls > 0)).toBe(true);

    // facts:rebuild recomputes them from the stored rows: nothing changes
    const rebuild = await ops(['facts:rebuild', '--org', agency.organizationId, '--json']);
    expect(rebuild.status).toBe(0);
    expect(JSON.parse(rebuild.stdout)).toEqual({
      organizationId: agency.organizationId,
      leads: 300,
      changed: 0,
    });
    const badOrg = await ops(['facts:rebuild', '--org', 'nope']);
    expect(badOrg.status).toBe(1);
    expect(badOrg.stderr).toContain('--org');

    // deals in every status and stage, with participants and invoices, readable through /v1/deals
    const [deals] = await t.orm.em.getConnection().execute<
      {
        statuses: string;
        stages: string;
        pairs: string;
        participants: string;
        invoiced: string;
        collected: string;
      }[]
    >(
      `select count(distinct status) as statuses, count(distinct stage) as stages,
              count(distinct (status, stage)) as pairs,
              (select count(*) from deal_participants p join deals x on x.id = p.deal_id where x.organization_id = ?) as participants,
              count(*) filter (where invoice_number is not null) as invoiced,
              count(*) filter (where collected_at is not null) as collected
         from deals where organization_id = ?`,
      [agency.organizationId, agency.organizationId],
    );
    expect(deals).toMatchObject({ statuses: '3', stages: '5', pairs: '15' });
    expect(Number(deals.participants)).toBeGreaterThan(0);
    expect(Number(deals.invoiced)).toBeGreaterThan(Number(deals.collected));
    expect(Number(deals.collected)).toBeGreaterThan(0);
    const listed = await asKey(
      t.http.get(
        `/v1/deals?status=won&assigneeIds=${[agency.admin, ...agency.members].map((p) => p.userId).join(',')}`,
      ),
      agency.admin.apiKey,
    ).expect(200);
    expect(listed.body.data.length).toBeGreaterThan(0);
  });
});
