import {
  Agency,
  api,
  DEAL_FIELDS,
  expectError,
  expectNotFound,
  expectValidation,
  insertDeals,
  LeadJson,
  MINUTE,
  sql,
  TestApp,
} from '../fixtures';
import { agentOf, insertListings } from '../fixtures/listings';

const MISSING_UUID = '0190a0a0-0000-7000-8000-000000000001';

interface Deal {
  id: string;
  status: string;
  stage: string;
  updatedAt: string;
  [field: string]: unknown;
}

describe('CRM deals', () => {
  let t: TestApp;
  let a: Agency;
  /** The member's lead (created by the admin). */
  let lead: LeadJson;

  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.stop());
  beforeEach(async () => {
    await t.resetRows();
    a = await t.seed.agency();
    lead = await t.seed.lead(a.admin, { assigneeIds: [a.member.userId] });
  });

  const history = (dealId: string) =>
    sql<{ action: string; stage: string | null; source: string }>(
      t,
      `select payload->>'action' as action, payload->>'stage' as stage, source from lead_history
        where type = 'deal' and payload->>'dealId' = ? order by occurred_at, id`,
      [dealId],
    );

  describe('create, read, reach', () => {
    it('POST creates an open deal owned by the key person, in the agency currency: 201 Deal', async () => {
      const res = await api(t, a.member.key).post('/v1/deals').send({
        leadId: lead.id,
        title: 'Flat on Calle Mayor',
        amount: 250000,
        expectedCloseAt: '2026-12-15',
      });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body).sort()).toEqual(DEAL_FIELDS);
      const now = t.clock.now().toISOString();
      expect(res.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        leadId: lead.id,
        assigneeIds: [a.member.userId],
        title: 'Flat on Calle Mayor',
        status: 'open',
        stage: 'qualified',
        amount: '250000.00',
        currency: 'EUR',
        propertyListingId: null,
        expectedCloseAt: '2026-12-15T00:00:00.000Z',
        wonAt: null,
        lostAt: null,
        lostReason: null,
        stageChangedAt: now,
        createdAt: now,
        updatedAt: now,
        participants: [],
        commissionMode: 'percentage',
        commissionAmount: null,
        commissionPercent: null,
        invoiceNumber: null,
        estimatedCollectionAt: null,
        collectedAt: null,
      });
      expect(await history(res.body.id)).toEqual([{ action: 'created', stage: 'qualified', source: 'api' }]);
      const read = await api(t, a.member.key).get(`/v1/deals/${res.body.id}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(res.body);

      // a stage, a currency, and an Idempotency-Key replay
      const body = { leadId: lead.id, title: 'Garage', stage: 'offer', currency: 'USD', amount: '10.5' };
      const first = await api(t, a.member.key).post('/v1/deals').set('Idempotency-Key', 'deal-1').send(body);
      const again = await api(t, a.member.key).post('/v1/deals').set('Idempotency-Key', 'deal-1').send(body);
      expect([first.status, first.body.stage, first.body.currency, first.body.amount]).toEqual([
        201,
        'offer',
        'USD',
        '10.50',
      ]);
      expect([again.status, again.headers['idempotent-replayed'], again.body.id]).toEqual([
        201,
        'true',
        first.body.id,
      ]);
    });

    it('create: member vs admin on assignees and teams, unreachable lead → 404 Lead not found.', async () => {
      const post = (key: string, body: object) =>
        api(t, key)
          .post('/v1/deals')
          .send({ leadId: lead.id, title: 'Deal', ...body });
      expect((await post(a.member.key, { assigneeIds: [a.member.userId] })).status).toBe(201);
      expectError(await post(a.member.key, { assigneeIds: [a.colleague.userId] }), 403, 'FORBIDDEN');
      const team = await t.seed.team(a.admin, 'Sales', [a.colleague.userId]);
      expectError(await post(a.member.key, { teamIds: [team.id] }), 403, 'FORBIDDEN');
      const byAdmin = await post(a.admin.key, { assigneeIds: [a.member.userId], teamIds: [team.id] });
      expect(byAdmin.status).toBe(201);
      expect(byAdmin.body.assigneeIds.sort()).toEqual([a.member.userId, a.colleague.userId].sort());
      expectValidation(await post(a.admin.key, { assigneeIds: [MISSING_UUID] }), 'assigneeIds.0');
      expectNotFound(await post(a.colleague.key, {}), 'Lead');
      expectNotFound(await post(a.admin.key, { leadId: 999_999 }), 'Lead');
    });

    it("reach: admin every deal, a member through the deal's lead or by being on it; else 404 Deal not found.", async () => {
      const onLead = await t.seed.deal(a.admin, { leadId: lead.id, assigneeIds: [a.admin.userId] });
      const otherLead = await t.seed.lead(a.admin, { assigneeIds: [a.admin.userId] });
      const colleagueOn = await t.seed.deal(a.admin, {
        leadId: otherLead.id,
        assigneeIds: [a.colleague.userId],
      });
      expect((await api(t, a.member.key).get(`/v1/deals/${onLead.id}`)).status).toBe(200);
      expect((await api(t, a.colleague.key).get(`/v1/deals/${colleagueOn.id}`)).status).toBe(200);
      expect((await api(t, a.admin.key).get(`/v1/deals/${colleagueOn.id}`)).status).toBe(200);
      expectNotFound(await api(t, a.member.key).get(`/v1/deals/${colleagueOn.id}`), 'Deal');
      expectNotFound(
        await api(t, a.member.key).patch(`/v1/deals/${colleagueOn.id}`).send({ title: 'x' }),
        'Deal',
      );
      expectNotFound(await api(t, a.member.key).post(`/v1/deals/${colleagueOn.id}/won`), 'Deal');
      expectNotFound(await api(t, a.admin.key).get(`/v1/deals/${MISSING_UUID}`), 'Deal');
      expectValidation(await api(t, a.admin.key).get('/v1/deals/not-a-uuid'), 'dealId');

      // another agency's deal and lead, for its admin's key
      const other = await t.seed.agency('Other Agency');
      const theirs = await api(t, other.admin.key).get(`/v1/deals/${onLead.id}`);
      expectNotFound(theirs, 'Deal');
      for (const path of ['won', 'lost', 'reopen']) {
        expectNotFound(await api(t, other.admin.key).post(`/v1/deals/${onLead.id}/${path}`).send({}), 'Deal');
      }
      expectNotFound(
        await api(t, other.admin.key).put(`/v1/deals/${onLead.id}/stage`).send({ stage: 'offer' }),
        'Deal',
      );
      expectNotFound(
        await api(t, other.admin.key).patch(`/v1/deals/${onLead.id}`).send({ title: 'x' }),
        'Deal',
      );
      expectNotFound(await api(t, other.admin.key).get(`/v1/deals?leadId=${lead.id}`), 'Lead');
      expectNotFound(
        await api(t, other.admin.key).post('/v1/deals').send({ leadId: lead.id, title: 'x' }),
        'Lead',
      );
    });

    it('scopes and plan: reads need crm:read, writes crm:write and an active plan', async () => {
      const deal = await t.seed.deal(a.admin, { leadId: lead.id });
      const readOnly = (await t.seed.apiKey(a.admin, ['crm:read'])).key;
      expect((await api(t, readOnly).get(`/v1/deals/${deal.id}`)).status).toBe(200);
      expectError(
        await api(t, readOnly).post(`/v1/deals/${deal.id}/won`).send({}),
        403,
        'API_KEY_SCOPE_MISSING',
        {
          missing: ['crm:write'],
        },
      );
      await t.seed.plan(a.admin, false);
      expectError(
        await api(t, a.admin.key).put(`/v1/deals/${deal.id}/stage`).send({ stage: 'offer' }),
        403,
        'SUBSCRIPTION_REQUIRED',
      );
      expect((await api(t, a.admin.key).get('/v1/deals')).status).toBe(200);
    });
  });

  it('OpenAPI shows money fields as strings with a pattern', async () => {
    const doc = (await t.http.get('/v1/openapi.json').expect(200)).body;
    const deal = doc.components.schemas.DealView.properties;
    for (const field of ['amount', 'commissionAmount', 'commissionPercent']) {
      expect(deal[field]).toMatchObject({ type: 'string', pattern: expect.any(String), nullable: true });
    }
    expect(doc.components.schemas.DealParticipantView.properties.percent).toMatchObject({
      type: 'string',
      pattern: expect.any(String),
    });
  });

  describe('state table through HTTP', () => {
    it('stage moves, won, lost and reopen, with history rows only for create, moves and reopens', async () => {
      const deal = await t.seed.deal(a.member, { leadId: lead.id, stage: 'viewing' });
      const as = api(t, a.member.key);
      t.clock.advance(MINUTE);

      const same = await as.put(`/v1/deals/${deal.id}/stage`).send({ stage: 'viewing' });
      expect([same.status, same.body.updatedAt, same.body.stageChangedAt]).toEqual([
        200,
        deal.updatedAt,
        deal.updatedAt,
      ]);

      const moved = await as.put(`/v1/deals/${deal.id}/stage`).send({ stage: 'offer' });
      expect(moved.body).toMatchObject({
        status: 'open',
        stage: 'offer',
        stageChangedAt: t.clock.now().toISOString(),
      });

      t.clock.advance(MINUTE);
      const won = await as.post(`/v1/deals/${deal.id}/won`); // no body at all
      expect(won.status).toBe(200);
      expect(won.body).toMatchObject({
        status: 'won',
        stage: 'offer',
        wonAt: t.clock.now().toISOString(),
        lostAt: null,
      });

      const lost = await as
        .post(`/v1/deals/${deal.id}/lost`)
        .send({ lostReason: 'Price', lostAt: '2026-11-01T12:00:00Z' });
      expect(lost.body).toMatchObject({
        status: 'lost',
        wonAt: null,
        lostAt: '2026-11-01T12:00:00.000Z',
        lostReason: 'Price',
      });

      const wonAgain = await as.post(`/v1/deals/${deal.id}/won`).send({ wonAt: '2026-11-02' });
      expect(wonAgain.body).toMatchObject({
        status: 'won',
        wonAt: '2026-11-02T00:00:00.000Z',
        lostAt: null,
        lostReason: null,
      });

      const reopened = await as.post(`/v1/deals/${deal.id}/reopen`).send({});
      expect(reopened.body).toMatchObject({
        status: 'open',
        stage: 'offer',
        wonAt: null,
        lostAt: null,
        lostReason: null,
      });
      expectError(await as.post(`/v1/deals/${deal.id}/reopen`).send({}), 409, 'CONFLICT');

      await as.post(`/v1/deals/${deal.id}/lost`).send({});
      const reopenedAt = await as.post(`/v1/deals/${deal.id}/reopen`).send({ stage: 'reserved' });
      expect(reopenedAt.body).toMatchObject({ status: 'open', stage: 'reserved' });

      await as.post(`/v1/deals/${deal.id}/won`).send({});
      const byStage = await as.put(`/v1/deals/${deal.id}/stage`).send({ stage: 'under_contract' });
      expect(byStage.body).toMatchObject({ status: 'open', stage: 'under_contract', wonAt: null });

      expect((await history(deal.id)).map((h) => [h.action, h.stage])).toEqual([
        ['created', 'viewing'],
        ['stage-changed', 'offer'],
        ['reopened', 'offer'],
        ['reopened', 'reserved'],
        ['reopened', 'under_contract'],
      ]);
      // the admin may do the same on a deal they are not on
      expect((await api(t, a.admin.key).post(`/v1/deals/${deal.id}/won`).send({})).status).toBe(200);
      expect((await history(deal.id)).length).toBe(5);
    });

    it('refuses bad input: unknown stage, lostReason 2001, malformed dates', async () => {
      const deal = await t.seed.deal(a.member, { leadId: lead.id });
      const as = api(t, a.member.key);
      expectValidation(await as.put(`/v1/deals/${deal.id}/stage`).send({ stage: 'closing' }), 'stage');
      expectValidation(await as.put(`/v1/deals/${deal.id}/stage`).send({}), 'stage');
      expectValidation(await as.post(`/v1/deals/${deal.id}/reopen`).send({ stage: 'nope' }), 'stage');
      expectValidation(
        await as.post(`/v1/deals/${deal.id}/lost`).send({ lostReason: 'x'.repeat(2001) }),
        'lostReason',
      );
      expect((await as.post(`/v1/deals/${deal.id}/lost`).send({ lostReason: 'x'.repeat(2000) })).status).toBe(
        200,
      );
      expectValidation(await as.post(`/v1/deals/${deal.id}/won`).send({ wonAt: 'yesterday' }), 'wonAt');
      expectValidation(
        await as.post('/v1/deals').send({ leadId: lead.id, title: 'x', stage: 'closing' }),
        'stage',
      );
      expectValidation(await as.post('/v1/deals').send({ leadId: lead.id, title: '' }), 'title');
      expectValidation(await as.post('/v1/deals').send({ leadId: lead.id, title: 'x'.repeat(256) }), 'title');
      expectValidation(
        await as.post('/v1/deals').send({ leadId: lead.id, title: 'x', currency: 'eur' }),
        'currency',
      );
      expectValidation(
        await as.post('/v1/deals').send({ leadId: lead.id, title: 'x', expectedCloseAt: '2026-02-30' }),
        'expectedCloseAt',
      );
    });
  });

  describe('money, commission, participants', () => {
    it('amount: number or string, two decimals out, never rounded, bounds', async () => {
      const post = (amount: unknown) =>
        api(t, a.member.key).post('/v1/deals').send({ leadId: lead.id, title: 'x', amount });
      for (const bad of [-1, '1.234', 1.234, '1e5', '1000000000000', 'abc', true, '-0.5']) {
        expectValidation(await post(bad), 'amount');
      }
      expect((await post(999999999999.99)).body.amount).toBe('999999999999.99');
      expect((await post('0')).body.amount).toBe('0.00');
      expect((await post(null)).body.amount).toBeNull();
      expect(await sql(t, 'select count(*)::int as n from deals')).toEqual([{ n: 3 }]);
    });

    it('commission derivation both ways, PATCH clears with null, never moves stage or status', async () => {
      const deal = await t.seed.deal(a.member, { leadId: lead.id, amount: '250000', stage: 'offer' });
      const patch = (body: object) => api(t, a.member.key).patch(`/v1/deals/${deal.id}`).send(body);

      const pct = await patch({ commissionPercent: '3.5' });
      expect(pct.body).toMatchObject({
        commissionMode: 'percentage',
        commissionPercent: '3.50',
        commissionAmount: '8750.00',
      });
      const moreAmount = await patch({ amount: 300000.01 });
      expect(moreAmount.body).toMatchObject({ commissionPercent: '3.50', commissionAmount: '10500.00' }); // 10500.00035
      const exact = await patch({ commissionMode: 'exact', commissionAmount: 10000 });
      expect(exact.body).toMatchObject({
        commissionMode: 'exact',
        commissionAmount: '10000.00',
        commissionPercent: '3.33',
      });
      const noAmount = await patch({ amount: null });
      expect(noAmount.body).toMatchObject({
        amount: null,
        commissionAmount: '10000.00',
        commissionPercent: null,
      });
      const back = await patch({ amount: 20000, commissionMode: 'percentage', commissionPercent: 10 });
      expect(back.body).toMatchObject({ commissionAmount: '2000.00', commissionPercent: '10.00' });

      expectValidation(await patch({ commissionPercent: 101 }), 'commissionPercent');
      expectValidation(await patch({ commissionPercent: '3.555' }), 'commissionPercent');
      expectValidation(await patch({ commissionAmount: 5 }), 'commissionAmount'); // derived in percentage mode
      expectValidation(
        await patch({ commissionMode: 'exact', commissionAmount: 20000.01 }),
        'commissionAmount',
      );
      expectValidation(await patch({ commissionMode: 'half' }), 'commissionMode');
      expectValidation(await patch({ invoiceNumber: 'x'.repeat(256) }), 'invoiceNumber');
      expectValidation(await patch({ title: null }), 'title');

      // a deal names a listing the agency can read
      const [listingId] = await insertListings(t, a.admin.organizationId, await agentOf(t, a.admin), 1);
      expectValidation(await patch({ propertyListingId: MISSING_UUID }), 'propertyListingId');
      const full = await patch({
        title: 'Renamed',
        invoiceNumber: 'F-2026-001',
        estimatedCollectionAt: '2026-12-01',
        collectedAt: '2026-12-02T10:00:00+01:00',
        propertyListingId: listingId,
        expectedCloseAt: '2026-12-20',
        currency: 'GBP',
        stage: 'reserved', // not a PATCH field: ignored
        status: 'won',
      });
      expect(full.body).toMatchObject({
        title: 'Renamed',
        invoiceNumber: 'F-2026-001',
        estimatedCollectionAt: '2026-12-01T00:00:00.000Z',
        collectedAt: '2026-12-02T09:00:00.000Z',
        propertyListingId: listingId,
        currency: 'GBP',
        stage: 'offer',
        status: 'open',
      });
      const cleared = await patch({
        invoiceNumber: null,
        collectedAt: null,
        propertyListingId: null,
        expectedCloseAt: null,
        commissionPercent: null,
      });
      expect(cleared.body).toMatchObject({
        invoiceNumber: null,
        collectedAt: null,
        propertyListingId: null,
        expectedCloseAt: null,
        commissionPercent: null,
        commissionAmount: null,
      });
    });

    it('participants: full list by PATCH, members only, ≤ 10, no repeated (userId, role), sum ≤ 100', async () => {
      const deal = await t.seed.deal(a.member, { leadId: lead.id });
      const patch = (participants: unknown) =>
        api(t, a.member.key).patch(`/v1/deals/${deal.id}`).send({ participants });
      const rows = [
        { userId: a.member.userId, role: 'listing', percent: 50 },
        { userId: a.member.userId, role: 'selling', percent: '25.5' },
        { userId: a.colleague.userId, role: 'referral', percent: '24.50' },
      ];
      const set = await patch(rows);
      expect(set.status).toBe(200);
      expect(set.body.participants).toEqual([
        { userId: a.member.userId, role: 'listing', percent: '50.00' },
        { userId: a.member.userId, role: 'selling', percent: '25.50' },
        { userId: a.colleague.userId, role: 'referral', percent: '24.50' },
      ]);
      // the same rows in another order replace the list (unique pairs checked at commit)
      const reordered = await patch([rows[2], rows[0]]);
      expect(reordered.body.participants.map((p: { role: string }) => p.role)).toEqual([
        'referral',
        'listing',
      ]);
      expect((await api(t, a.member.key).get(`/v1/deals/${deal.id}`)).body.participants).toEqual(
        reordered.body.participants,
      );

      expectValidation(
        await patch([...rows, { userId: a.admin.userId, role: 'other', percent: '0.01' }]),
        'participants',
      );
      expectValidation(await patch([rows[0], { ...rows[0], percent: 1 }]), 'participants.1');
      expectValidation(
        await patch([{ userId: MISSING_UUID, role: 'other', percent: 1 }]),
        'participants.0.userId',
      );
      expectValidation(
        await patch([{ userId: a.member.userId, role: 'boss', percent: 1 }]),
        'participants.0.role',
      );
      expectValidation(
        await patch([{ userId: a.member.userId, role: 'other', percent: 100.5 }]),
        'participants.0.percent',
      );
      expectValidation(
        await patch(
          Array.from({ length: 11 }, (_, i) => ({
            userId: a.member.userId,
            role: ['listing', 'selling', 'referral', 'other'][i % 4],
            percent: 0,
          })),
        ),
        'participants',
      );
      expect((await patch([])).body.participants).toEqual([]);
      expect(await sql(t, 'select count(*)::int as n from deal_participants')).toEqual([{ n: 0 }]);
    });

    it('PATCH assigneeIds/teamIds: admin only (403 ORG_ADMIN_REQUIRED), with an owner-change history row', async () => {
      const deal = await t.seed.deal(a.member, { leadId: lead.id });
      expectError(
        await api(t, a.member.key)
          .patch(`/v1/deals/${deal.id}`)
          .send({ assigneeIds: [a.member.userId] }),
        403,
        'ORG_ADMIN_REQUIRED',
      );
      expectError(
        await api(t, a.member.key).patch(`/v1/deals/${deal.id}`).send({ teamIds: [] }),
        403,
        'ORG_ADMIN_REQUIRED',
      );
      const res = await api(t, a.admin.key)
        .patch(`/v1/deals/${deal.id}`)
        .send({ assigneeIds: [a.colleague.userId] });
      expect(res.body.assigneeIds).toEqual([a.colleague.userId]);
      expect((await history(deal.id)).map((h) => h.action)).toEqual(['created', 'assignees-changed']);
      // the member still reaches it through the lead
      expect((await api(t, a.member.key).get(`/v1/deals/${deal.id}`)).status).toBe(200);
    });
  });

  describe('timeline and calendar', () => {
    it("deal entries (created, stage-changed, reopened from history; won/lost from the deal's dates) and dealsById", async () => {
      t.clock.set(new Date('2026-11-20T09:00:00.000Z'));
      const deal = await t.seed.deal(a.member, { leadId: lead.id, amount: 1000 });
      const as = api(t, a.member.key);
      t.clock.advance(MINUTE);
      await as.put(`/v1/deals/${deal.id}/stage`).send({ stage: 'offer' });
      t.clock.advance(MINUTE);
      await as.post(`/v1/deals/${deal.id}/lost`).send({ lostReason: 'Price' });
      t.clock.advance(MINUTE);
      await as.post(`/v1/deals/${deal.id}/reopen`).send({});
      t.clock.advance(MINUTE);
      await as.post(`/v1/deals/${deal.id}/won`).send({});

      const res = await as.get(`/v1/leads/${lead.id}/timeline`);
      expect(res.status).toBe(200);
      const entries = res.body.data.filter((e: { type: string }) => e.type === 'deal');
      expect(entries).toEqual([
        {
          type: 'deal',
          date: '2026-11-20T09:04:00.000Z',
          deal: { dealId: deal.id, action: 'won', stage: 'offer' },
        },
        {
          type: 'deal',
          date: '2026-11-20T09:03:00.000Z',
          deal: { dealId: deal.id, action: 'reopened', stage: 'offer' },
        },
        {
          type: 'deal',
          date: '2026-11-20T09:01:00.000Z',
          deal: { dealId: deal.id, action: 'stage-changed', stage: 'offer' },
        },
        {
          type: 'deal',
          date: '2026-11-20T09:00:00.000Z',
          deal: { dealId: deal.id, action: 'created', stage: 'qualified' },
        },
      ]);
      expect(res.body.dealsById).toEqual({
        [deal.id]: {
          id: deal.id,
          title: 'Flat sale',
          status: 'won',
          stage: 'offer',
          amount: '1000.00',
          currency: 'EUR',
        },
      });
      // the lost closing was undone by the reopen: only the deal's current dates show
      t.clock.advance(MINUTE);
      await as.post(`/v1/deals/${deal.id}/lost`).send({});
      const after = await as.get(`/v1/leads/${lead.id}/timeline`);
      const closings = after.body.data.filter(
        (e: { deal?: { action: string } }) => e.deal?.action === 'won' || e.deal?.action === 'lost',
      );
      expect(closings).toEqual([
        {
          type: 'deal',
          date: '2026-11-20T09:05:00.000Z',
          deal: { dealId: deal.id, action: 'lost', stage: 'offer' },
        },
      ]);
    });

    it('deal_close items: all-day on the expected close date, only open deals of the person', async () => {
      t.clock.set(new Date('2026-12-01T08:00:00.000Z'));
      const mine = await t.seed.deal(a.member, {
        leadId: lead.id,
        title: 'Mine',
        expectedCloseAt: '2026-12-03',
      });
      const timed = await t.seed.deal(a.member, {
        leadId: lead.id,
        title: 'Timed',
        expectedCloseAt: '2026-12-04T22:30:00Z',
      });
      const won = await t.seed.deal(a.member, { leadId: lead.id, expectedCloseAt: '2026-12-03' });
      await api(t, a.member.key).post(`/v1/deals/${won.id}/won`).send({});
      await t.seed.deal(a.admin, { leadId: lead.id, expectedCloseAt: '2026-12-03' }); // the admin's
      await t.seed.deal(a.member, { leadId: lead.id, expectedCloseAt: '2026-12-10' }); // outside the window

      const res = await api(t, a.member.key).get(
        '/v1/calendar?from=2026-12-01&to=2026-12-08&tz=America/New_York',
      );
      expect(res.status).toBe(200);
      const closes = res.body.items.filter((i: { kind: string }) => i.kind === 'deal_close');
      expect(closes).toEqual([
        {
          kind: 'deal_close',
          title: 'Mine',
          startsAt: '2026-12-03T00:00:00.000Z',
          endsAt: '2026-12-04T00:00:00.000Z',
          allDay: true,
          status: 'open',
          leadId: lead.id,
          eventId: mine.id,
          attendeeCount: null,
          done: false,
          overdue: false,
        },
        expect.objectContaining({ eventId: timed.id, startsAt: '2026-12-04T00:00:00.000Z', allDay: true }),
      ]);
    });
  });

  describe('GET /v1/deals', () => {
    const ids = (res: { body: { data: Deal[] } }) => res.body.data.map((d) => d.id);

    it("without leadId: the key person's deals (admins too), newest activity first, participants on rows", async () => {
      const first = await t.seed.deal(a.member, { leadId: lead.id });
      t.clock.advance(MINUTE);
      const second = await t.seed.deal(a.member, { leadId: lead.id });
      const adminsOwn = await t.seed.deal(a.admin, { leadId: lead.id });
      t.clock.advance(MINUTE);
      await api(t, a.member.key)
        .patch(`/v1/deals/${first.id}`)
        .send({ participants: [{ userId: a.member.userId, role: 'listing', percent: 100 }] });

      const mine = await api(t, a.member.key).get('/v1/deals');
      expect(mine.status).toBe(200);
      expect(Object.keys(mine.body).sort()).toEqual(['data', 'hasMore']);
      expect(ids(mine)).toEqual([first.id, second.id]);
      expect(mine.body.hasMore).toBe(false);
      expect(Object.keys(mine.body.data[0]).sort()).toEqual(DEAL_FIELDS);
      expect(mine.body.data[0].participants).toEqual([
        { userId: a.member.userId, role: 'listing', percent: '100.00' },
      ]);
      expect(mine.body.data[1].participants).toEqual([]);
      expect(ids(await api(t, a.admin.key).get('/v1/deals'))).toEqual([adminsOwn.id]);

      // admin assigneeIds (comma-separated or repeated); a member → 403
      const both = await api(t, a.admin.key).get(
        `/v1/deals?assigneeIds=${a.member.userId},${a.admin.userId}`,
      );
      expect(ids(both).sort()).toEqual([first.id, second.id, adminsOwn.id].sort());
      const repeated = await api(t, a.admin.key).get(
        `/v1/deals?assigneeIds=${a.member.userId}&assigneeIds=${a.colleague.userId}`,
      );
      expect(ids(repeated)).toEqual([first.id, second.id]);
      expectError(
        await api(t, a.member.key).get(`/v1/deals?assigneeIds=${a.member.userId}`),
        403,
        'ORG_ADMIN_REQUIRED',
      );

      // with leadId: every deal of the lead, stages ignored, stage kept
      const ofLead = await api(t, a.member.key).get(`/v1/deals?leadId=${lead.id}&stages=offer`);
      expect(ids(ofLead).sort()).toEqual([first.id, second.id, adminsOwn.id].sort());
      expect(ids(await api(t, a.member.key).get(`/v1/deals?leadId=${lead.id}&stage=offer`))).toEqual([]);
      expectNotFound(await api(t, a.colleague.key).get(`/v1/deals?leadId=${lead.id}`), 'Lead');
    });

    it('each filter alone and combined', async () => {
      t.clock.set(new Date('2026-11-10T10:00:00.000Z'));
      const lead2 = await t.seed.lead(a.admin, {
        firstName: 'Lucía',
        lastName: 'Navarro',
        email: 'lucia@casas.test',
        assigneeIds: [a.member.userId],
      });
      const [listing] = await insertListings(t, a.admin.organizationId, await agentOf(t, a.admin), 1);
      const as = api(t, a.member.key);
      const mk = async (body: object) => t.seed.deal(a.member, { leadId: lead.id, ...body });
      const penthouse = await mk({
        title: 'Penthouse 50% off',
        amount: 500000,
        stage: 'offer',
        propertyListingId: listing,
        expectedCloseAt: '2026-12-01',
      });
      const studio = await mk({
        title: 'Studio',
        amount: 90000,
        stage: 'viewing',
        expectedCloseAt: '2026-11-30T23:00:00Z',
      });
      const noAmount = await mk({ title: 'Land', leadId: lead2.id });
      t.clock.set(new Date('2026-11-12T10:00:00.000Z'));
      const later = await mk({ title: 'Villa', amount: 1200000, stage: 'reserved' });
      // closings: won at 23:59 on 20 Nov, lost on 21 Nov
      await as.post(`/v1/deals/${studio.id}/won`).send({ wonAt: '2026-11-20T23:59:00Z' });
      await as.post(`/v1/deals/${later.id}/lost`).send({ lostAt: '2026-11-21T00:00:00Z' });
      await as.patch(`/v1/deals/${penthouse.id}`).send({ invoiceNumber: 'F-1' });
      await as.patch(`/v1/deals/${noAmount.id}`).send({ invoiceNumber: 'F-2', collectedAt: '2026-11-25' });

      const q = async (query: string) => {
        const res = await as.get(`/v1/deals?${query}`);
        expect(res.status).toBe(200);
        return ids(res).sort();
      };
      const sorted = (...deals: { id: string }[]) => deals.map((d) => d.id).sort();
      expect(await q('status=won')).toEqual(sorted(studio));
      expect(await q('status=open')).toEqual(sorted(penthouse, noAmount));
      expect(await q('stage=offer')).toEqual(sorted(penthouse));
      expect(await q('stage=offer&stages=viewing,reserved')).toEqual(sorted(penthouse, studio, later));
      expect(await q('stages=viewing&stages=qualified')).toEqual(sorted(studio, noAmount));
      expect(await q('q=PENT')).toEqual(sorted(penthouse));
      expect(await q('q=50%25')).toEqual(sorted(penthouse)); // % is matched literally
      expect(await q('q=navarro')).toEqual(sorted(noAmount)); // lead last name
      expect(await q('q=lucía navarro')).toEqual(sorted(noAmount)); // full name
      expect(await q('q=LUCIA@CASAS')).toEqual(sorted(noAmount)); // email
      expect(await q(`propertyListingId=${listing}`)).toEqual(sorted(penthouse));
      expect(await q('amountMin=90000')).toEqual(sorted(penthouse, studio, later));
      expect(await q('amountMax=90000.00')).toEqual(sorted(studio));
      expect(await q('amountMin=90000.01&amountMax=500000')).toEqual(sorted(penthouse));
      expect(await q('expectedCloseFrom=2026-12-01')).toEqual(sorted(penthouse));
      expect(await q('expectedCloseTo=2026-11-30')).toEqual(sorted(studio));
      expect(await q('expectedCloseFrom=2026-11-30T23:00:00Z&expectedCloseTo=2026-11-30T23:00:00Z')).toEqual(
        sorted(studio),
      );
      expect(await q('createdFrom=2026-11-11')).toEqual(sorted(later));
      expect(await q('createdTo=2026-11-10')).toEqual(sorted(penthouse, studio, noAmount));
      expect(await q('closedTo=2026-11-20')).toEqual(sorted(studio)); // won at 23:59 that day
      expect(await q('closedFrom=2026-11-21')).toEqual(sorted(later));
      expect(await q('closedFrom=2026-11-01&closedTo=2026-11-30')).toEqual(sorted(studio, later));
      expect(await q('collectionState=invoiced_not_collected')).toEqual(sorted(penthouse));
      expect(await q('collectionState=collected')).toEqual(sorted(noAmount));
      // combined
      expect(await q('status=open&amountMin=1&q=pent&collectionState=invoiced_not_collected')).toEqual(
        sorted(penthouse),
      );
      expect(await q('status=lost&closedTo=2026-11-20')).toEqual([]);
      expect(await q(`leadId=${lead2.id}&collectionState=collected&createdTo=2026-11-10`)).toEqual(
        sorted(noAmount),
      );

      // bad input
      expectValidation(await as.get(`/v1/deals?q=${'x'.repeat(201)}`), 'q');
      expect((await as.get(`/v1/deals?q=${'x'.repeat(200)}`)).status).toBe(200);
      expectValidation(await as.get('/v1/deals?collectionState=paid'), 'collectionState');
      expectValidation(await as.get('/v1/deals?stage=closing'), 'stage');
      expectValidation(await as.get('/v1/deals?stages=offer,closing'), 'stages');
      expectValidation(await as.get('/v1/deals?status=pending'), 'status');
      expectValidation(await as.get('/v1/deals?amountMin=-1'), 'amountMin');
      expectValidation(await as.get('/v1/deals?amountMax=1.234'), 'amountMax');
      expectValidation(await as.get('/v1/deals?closedTo=20-11-2026'), 'closedTo');
      expectValidation(await as.get('/v1/deals?propertyListingId=abc'), 'propertyListingId');
      expectValidation(await as.get('/v1/deals?leadId=abc'), 'leadId');
    });

    it('caps at 1,000 rows, hasMore with 1,001', async () => {
      const scope = { organizationId: a.member.organizationId, leadId: lead.id, assigneeId: a.member.userId };
      await insertDeals(t, scope, 1000);
      const full = await api(t, a.member.key).get('/v1/deals');
      expect([full.body.data.length, full.body.hasMore]).toEqual([1000, false]);
      await insertDeals(t, { ...scope, title: 'Newest' }, 1, new Date('2027-01-01T00:00:00Z'));
      const capped = await api(t, a.member.key).get('/v1/deals');
      expect([capped.body.data.length, capped.body.hasMore]).toEqual([1000, true]);
      expect(capped.body.data[0].title).toBe('Newest 1');
      const updatedAt = capped.body.data.map((d: Deal) => d.updatedAt);
      expect(updatedAt).toEqual([...updatedAt].sort().reverse());
    });
  });
});
