import { Agency, api, expectError, expectNotFound, expectValidation, sql, TestApp } from '../fixtures';
import { agentOf, insertListings } from '../fixtures/listings';

/**
 * Viewings on `/v1` (issue 17 item 5, INTERFACES.md "Brochures and network", Viewings): the list's
 * filters, edges and exact total, the read, member reach (lead assigned, agent) vs admin, another
 * agency's 404, create and change with their checks, the status moves, Idempotency-Key replay, the
 * plan gate on writes only; the timeline, calendar and free-times read what is written.
 */

const MISSING = '0190a0a0-0000-7000-8000-000000000001';
const SCOPES = ['crm:read', 'crm:write', 'properties:read'];
const FIELDS = [
  'agentUserId',
  'collaboratorLeadId',
  'createdAt',
  'createdBy',
  'dealId',
  'id',
  'kind',
  'leadId',
  'notes',
  'notesTruncated',
  'otherLeadIds',
  'propertyListingId',
  'source',
  'status',
  'updatedAt',
  'viewingAt',
];

interface ViewingBody {
  id: string;
  leadId: number;
  otherLeadIds: number[];
  status: string;
  viewingAt: string;
  notes: string | null;
  notesTruncated: boolean;
  agentUserId: string | null;
  [key: string]: unknown;
}

describe('Viewings: /v1 routes', () => {
  let t: TestApp;
  let a: Agency;
  let other: Agency;
  let k: { admin: string; member: string; colleague: string; other: string };
  let listingId: string;
  let foreignListingId: string;

  const as = (key: string) => api(t, key);
  const create = (key: string, body: Record<string, unknown>) => as(key).post('/v1/viewings').send(body);
  const move = (key: string, id: string, body: Record<string, unknown>) =>
    as(key).put(`/v1/viewings/${id}/status`).send(body);
  const list = async (key: string, query = '') =>
    (await as(key).get(`/v1/viewings${query}`).expect(200)).body as {
      data: ViewingBody[];
      hasMore: boolean;
      nextOffset: number | null;
      total: number;
    };
  const ids = async (key: string, query = '') => (await list(key, query)).data.map((v) => v.id);
  const body = (leadId: number, overrides: Record<string, unknown> = {}) => ({
    propertyListingId: listingId,
    leadId,
    viewingAt: '2026-12-01T10:00:00Z',
    kind: 'in_person',
    ...overrides,
  });
  const made = async (key: string, leadId: number, overrides: Record<string, unknown> = {}) => {
    const res = await create(key, body(leadId, overrides));
    expect(res.status).toBe(201);
    return res.body as ViewingBody;
  };

  beforeAll(async () => {
    t = await TestApp.start();
    a = await t.seed.agency('Casa Viewings v1');
    other = await t.seed.agency('Other Viewings v1');
    const key = async (person: Agency['admin']) =>
      (await t.seed.apiKey(person, { name: 'viewings', scopes: SCOPES })).key;
    k = {
      admin: await key(a.admin),
      member: await key(a.member),
      colleague: await key(a.colleague),
      other: await key(other.admin),
    };
    [listingId] = await insertListings(t, a.admin.organizationId, await agentOf(t, a.admin), 1);
    [foreignListingId] = await insertListings(
      t,
      other.admin.organizationId,
      await agentOf(t, other.admin),
      1,
      { networkVisible: false },
    );
  });
  afterAll(() => t.stop());
  afterEach(() => t.clock.reset());

  describe('create and read', () => {
    it('creates a scheduled viewing with source api and reads it whole', async () => {
      const lead = await t.seed.lead(a.member);
      const second = await t.seed.lead(a.member);
      const deal = await t.seed.deal(a.member, { leadId: lead.id });
      const notes = 'n'.repeat(20_000);
      const res = await create(
        k.member,
        body(lead.id, { otherLeadIds: [second.id], dealId: deal.id, kind: 'virtual', notes }),
      ).expect(201);
      expect(Object.keys(res.body).sort()).toEqual(FIELDS);
      expect(res.body).toEqual({
        id: expect.any(String),
        propertyListingId: listingId,
        leadId: lead.id,
        otherLeadIds: [second.id],
        collaboratorLeadId: null,
        agentUserId: a.member.userId,
        dealId: deal.id,
        viewingAt: '2026-12-01T10:00:00.000Z',
        kind: 'virtual',
        status: 'scheduled',
        source: 'api',
        createdBy: a.member.userId,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        notes,
        notesTruncated: false,
      });
      const read = await as(k.member).get(`/v1/viewings/${res.body.id}`).expect(200);
      expect(read.body).toEqual(res.body);
      // the list cuts the notes to 500 characters
      const row = (await list(k.member, `?leadId=${lead.id}`)).data[0];
      expect([row.notes?.length, row.notesTruncated]).toEqual([500, true]);
    });

    it('replays a create with the same Idempotency-Key', async () => {
      const lead = await t.seed.lead(a.member);
      const send = () =>
        as(k.member).post('/v1/viewings').set('Idempotency-Key', 'viewing-1').send(body(lead.id));
      const first = await send().expect(201);
      const again = await send().expect(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body.id).toBe(first.body.id);
      expect((await list(k.member, `?leadId=${lead.id}`)).total).toBe(1);
    });

    it('checks every field: limits, references, the agent', async () => {
      const lead = await t.seed.lead(a.member);
      const others = await Promise.all(Array.from({ length: 11 }, () => t.seed.lead(a.member)));
      expectValidation(
        await create(
          k.member,
          body(lead.id, {
            otherLeadIds: others.map((l) => l.id),
            notes: 'x'.repeat(20_001),
            kind: 'drive-by',
            viewingAt: '2026-12-01 10:00',
          }),
        ),
        'otherLeadIds',
        'notes',
        'kind',
        'viewingAt',
      );
      expectValidation(await create(k.member, { leadId: lead.id }), 'propertyListingId', 'viewingAt', 'kind');
      expectValidation(
        await create(k.member, body(lead.id, { propertyListingId: 'nope' })),
        'propertyListingId',
      );
      // ten other leads are fine
      await made(k.member, lead.id, { otherLeadIds: others.slice(0, 10).map((l) => l.id) });
      // a listing the agency cannot read (another agency's, not on the network; or none)
      expectValidation(
        await create(k.member, body(lead.id, { propertyListingId: foreignListingId })),
        'propertyListingId',
      );
      expectValidation(
        await create(k.member, body(lead.id, { propertyListingId: MISSING })),
        'propertyListingId',
      );
      // a deal of another lead
      const otherLead = await t.seed.lead(a.member);
      const deal = await t.seed.deal(a.member, { leadId: otherLead.id });
      expectValidation(await create(k.member, body(lead.id, { dealId: deal.id })), 'dealId');
      expectValidation(await create(k.member, body(lead.id, { dealId: MISSING })), 'dealId');
      // leads out of reach: 404 Lead not found.
      const notMine = await t.seed.lead(a.colleague);
      const foreign = await t.seed.lead(other.admin);
      expectNotFound(await create(k.member, body(notMine.id)), 'Lead');
      expectNotFound(await create(k.member, body(foreign.id)), 'Lead');
      expectNotFound(await create(k.member, body(lead.id, { otherLeadIds: [notMine.id] })), 'Lead');
      expectNotFound(await create(k.member, body(lead.id, { collaboratorLeadId: notMine.id })), 'Lead');
      expectNotFound(await create(k.admin, body(lead.id, { otherLeadIds: [foreign.id] })), 'Lead');
      // another agent: admins only, and a member of the agency
      expectError(
        await create(k.member, body(lead.id, { agentUserId: a.colleague.userId })),
        403,
        'FORBIDDEN',
      );
      expectValidation(
        await create(k.admin, body(lead.id, { agentUserId: other.admin.userId })),
        'agentUserId',
      );
      const byAdmin = await made(k.admin, lead.id, {
        agentUserId: a.colleague.userId,
        collaboratorLeadId: notMine.id,
      });
      expect([byAdmin.agentUserId, byAdmin.collaboratorLeadId]).toEqual([a.colleague.userId, notMine.id]);
      // a member naming themselves is fine
      expect((await made(k.member, lead.id, { agentUserId: a.member.userId })).agentUserId).toBe(
        a.member.userId,
      );
      // nothing half-written by the refused ones
      const [{ n }] = await sql<{ n: number }>(
        t,
        'select count(*)::int as n from viewings where lead_id = ?',
        [lead.id],
      );
      expect(n).toBe(3);
    });

    it('reads: 404 Viewing not found. for absent, another agency, out of reach; 400 for a bad id', async () => {
      const lead = await t.seed.lead(a.member);
      const viewing = await made(k.member, lead.id);
      expectNotFound(await as(k.other).get(`/v1/viewings/${viewing.id}`), 'Viewing');
      expectNotFound(await as(k.admin).get(`/v1/viewings/${MISSING}`), 'Viewing');
      expectNotFound(await as(k.colleague).get(`/v1/viewings/${viewing.id}`), 'Viewing');
      expectValidation(await as(k.admin).get('/v1/viewings/not-a-uuid'));
      await as(k.admin).get(`/v1/viewings/${viewing.id}`).expect(200);
      // another agency cannot write it either
      expectNotFound(
        await as(k.other).patch(`/v1/viewings/${viewing.id}`).send({ kind: 'virtual' }),
        'Viewing',
      );
      expectNotFound(await move(k.other, viewing.id, { status: 'completed' }), 'Viewing');
    });
  });

  describe('reach', () => {
    it('a member sees viewings of leads they reach or where they are the agent; an admin all', async () => {
      const mine = await t.seed.lead(a.member);
      const theirs = await t.seed.lead(a.colleague);
      const onMine = await made(k.admin, mine.id, { agentUserId: a.admin.userId });
      const asAgent = await made(k.admin, theirs.id, { agentUserId: a.member.userId });
      const hidden = await made(k.admin, theirs.id, { agentUserId: a.colleague.userId });
      const query = `?leadId=`;
      expect(await ids(k.member, `${query}${mine.id}`)).toEqual([onMine.id]);
      expect(await ids(k.member, `${query}${theirs.id}`)).toEqual([asAgent.id]);
      expect((await ids(k.admin, `${query}${theirs.id}`)).sort()).toEqual([asAgent.id, hidden.id].sort());
      expect((await ids(k.colleague, `${query}${theirs.id}`)).sort()).toEqual([asAgent.id, hidden.id].sort());
      expect(await ids(k.colleague, `${query}${mine.id}`)).toEqual([]);
      await as(k.member).get(`/v1/viewings/${asAgent.id}`).expect(200);
      expectNotFound(await as(k.member).get(`/v1/viewings/${hidden.id}`), 'Viewing');
      // the agent may move it, not the hidden one
      await move(k.member, asAgent.id, { status: 'completed' }).expect(200);
      expectNotFound(await move(k.member, hidden.id, { status: 'completed' }), 'Viewing');
      // once assigned to the lead, the member reaches it
      await sql(t, 'update leads set assignee_ids = array_append(assignee_ids, ?::uuid) where id = ?', [
        a.member.userId,
        theirs.id,
      ]);
      expect((await ids(k.member, `${query}${theirs.id}`)).sort()).toEqual([asAgent.id, hidden.id].sort());
      // another agency sees none of them
      expect((await list(k.other, `${query}${mine.id}`)).total).toBe(0);
    });
  });

  describe('list', () => {
    let org: Agency;
    let keyOf: string;
    let lead: number;
    let second: number;
    let collaborator: number;
    let deal: string;
    let listing1: string;
    let listing2: string;
    const at = (day: number, hour = 10) =>
      `2027-01-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00.000Z`;
    const v: Record<string, string> = {};

    beforeAll(async () => {
      org = await t.seed.agency('Viewings list');
      keyOf = (await t.seed.apiKey(org.admin, { name: 'viewings', scopes: SCOPES })).key;
      const agent = await agentOf(t, org.admin);
      [listing1, listing2] = await insertListings(t, org.admin.organizationId, agent, 2);
      lead = (await t.seed.lead(org.admin)).id;
      second = (await t.seed.lead(org.admin)).id;
      collaborator = (await t.seed.lead(org.admin)).id;
      deal = (await t.seed.deal(org.admin, { leadId: lead })).id;
      const add = async (leadId: number, fields: Record<string, unknown>) =>
        (await made(keyOf, leadId, { propertyListingId: listing1, ...fields })).id;
      v.a = await add(lead, { viewingAt: at(1) });
      v.b = await add(lead, { viewingAt: at(2), kind: 'virtual', dealId: deal });
      v.c = await add(second, { viewingAt: at(3), otherLeadIds: [lead], propertyListingId: listing2 });
      v.d = await add(second, {
        viewingAt: at(4),
        collaboratorLeadId: collaborator,
        agentUserId: org.member.userId,
      });
      v.e = await add(second, { viewingAt: at(4) }); // the same time as d: the id breaks the tie
      await move(keyOf, v.a, { status: 'cancelled' }).expect(200);
    });

    it('latest viewingAt first, id descending on ties, exact total and offset paging', async () => {
      const all = await list(keyOf);
      const tie = [v.d, v.e].sort().reverse();
      expect(all.data.map((r) => r.id)).toEqual([...tie, v.c, v.b, v.a]);
      expect([all.total, all.hasMore, all.nextOffset]).toEqual([5, false, null]);
      const page = await list(keyOf, '?limit=2&offset=2');
      expect(page.data.map((r) => r.id)).toEqual([v.c, v.b]);
      expect([page.total, page.hasMore, page.nextOffset]).toEqual([5, true, 4]);
      const past = await list(keyOf, '?offset=10');
      expect([past.data, past.total, past.hasMore]).toEqual([[], 5, false]);
      expect((await list(keyOf, '?limit=100')).data).toHaveLength(5);
    });

    it('each filter', async () => {
      const sorted = (xs: string[]) => [...xs].sort();
      expect(await ids(keyOf, '?status=cancelled')).toEqual([v.a]);
      expect(sorted(await ids(keyOf, '?status=scheduled'))).toEqual(sorted([v.b, v.c, v.d, v.e]));
      expect(await ids(keyOf, '?kind=virtual')).toEqual([v.b]);
      expect(await ids(keyOf, `?propertyListingId=${listing2}`)).toEqual([v.c]);
      expect(await ids(keyOf, `?propertyListingId=${listing2.toUpperCase()}`)).toEqual([v.c]);
      // the viewing's lead or one of its other clients
      expect(await ids(keyOf, `?leadId=${lead}`)).toEqual([v.c, v.b, v.a]);
      expect(await ids(keyOf, `?collaboratorLeadId=${collaborator}`)).toEqual([v.d]);
      expect(await ids(keyOf, `?dealId=${deal}`)).toEqual([v.b]);
      expect(await ids(keyOf, `?agentUserId=${org.member.userId}`)).toEqual([v.d]);
      expect((await ids(keyOf, `?agentUserId=${org.admin.userId}`)).length).toBe(4);
      expect(
        await ids(keyOf, `?leadId=${second}&kind=in_person&status=scheduled&propertyListingId=${listing1}`),
      ).toEqual([v.d, v.e].sort().reverse());
    });

    it('from is inclusive and to exclusive, with offsets', async () => {
      expect(await ids(keyOf, `?from=${at(2)}&to=${at(4)}`)).toEqual([v.c, v.b]);
      expect(await ids(keyOf, `?from=${encodeURIComponent('2027-01-02T11:00:00+01:00')}`)).toEqual([
        ...[v.d, v.e].sort().reverse(),
        v.c,
        v.b,
      ]);
      expect(await ids(keyOf, `?to=${at(2)}`)).toEqual([v.a]);
      expect(await ids(keyOf, `?from=${at(2, 11)}&to=${at(3)}`)).toEqual([]);
      expect((await list(keyOf, `?from=${at(1)}&to=${at(2)}`)).total).toBe(1);
    });

    it('400 for a bad filter', async () => {
      const bad = async (query: string, path: string) =>
        expectValidation(await as(keyOf).get(`/v1/viewings${query}`), path);
      await bad('?limit=101', 'limit');
      await bad('?limit=0', 'limit');
      await bad('?offset=-1', 'offset');
      await bad('?from=tomorrow', 'from');
      await bad('?to=2027-01-01', 'to');
      await bad('?status=done', 'status');
      await bad('?kind=drive-by', 'kind');
      await bad('?propertyListingId=abc', 'propertyListingId');
      await bad('?leadId=abc', 'leadId');
      await bad('?collaboratorLeadId=0', 'collaboratorLeadId');
      await bad('?dealId=abc', 'dealId');
      await bad('?agentUserId=abc', 'agentUserId');
    });
  });

  describe('change and status', () => {
    it('PATCH changes any field, checks the new references, null clears', async () => {
      const lead = await t.seed.lead(a.member);
      const next = await t.seed.lead(a.member);
      const deal = await t.seed.deal(a.member, { leadId: lead.id });
      const viewing = await made(k.member, lead.id, { dealId: deal.id, notes: 'Keys at the office' });
      const patch = (key: string, changes: Record<string, unknown>) =>
        as(key).patch(`/v1/viewings/${viewing.id}`).send(changes);
      const changed = await patch(k.member, {
        viewingAt: '2026-12-02T09:30:00+01:00',
        kind: 'virtual',
        otherLeadIds: [next.id],
        notes: null,
      }).expect(200);
      expect(changed.body).toMatchObject({
        viewingAt: '2026-12-02T08:30:00.000Z',
        kind: 'virtual',
        otherLeadIds: [next.id],
        notes: null,
        status: 'scheduled',
        dealId: deal.id,
        source: 'api',
      });
      // the deal must stay a deal of the (new) lead
      expectValidation(await patch(k.member, { leadId: next.id }), 'dealId');
      expect((await patch(k.member, { leadId: next.id, dealId: null }).expect(200)).body).toMatchObject({
        leadId: next.id,
        dealId: null,
      });
      const notMine = await t.seed.lead(a.colleague);
      expectNotFound(await patch(k.member, { leadId: notMine.id }), 'Lead');
      expectNotFound(await patch(k.member, { otherLeadIds: [notMine.id] }), 'Lead');
      expectValidation(await patch(k.member, { propertyListingId: foreignListingId }), 'propertyListingId');
      expectValidation(
        await patch(k.member, { notes: 'x'.repeat(20_001), kind: 'drive-by' }),
        'notes',
        'kind',
      );
      expectValidation(await patch(k.member, { leadId: null }), 'leadId');
      expectError(await patch(k.member, { agentUserId: a.colleague.userId }), 403, 'FORBIDDEN');
      expect((await patch(k.admin, { agentUserId: a.colleague.userId }).expect(200)).body.agentUserId).toBe(
        a.colleague.userId,
      );
      // the member still reaches it (their lead), and the status never moves by PATCH
      expect((await as(k.member).get(`/v1/viewings/${viewing.id}`).expect(200)).body.status).toBe(
        'scheduled',
      );
    });

    it('every allowed move, and the refused ones answer 409 CONFLICT', async () => {
      const lead = await t.seed.lead(a.member);
      const fresh = async () => (await made(k.member, lead.id)).id;
      const status = async (id: string) => (await as(k.member).get(`/v1/viewings/${id}`).expect(200)).body;

      for (const to of ['completed', 'cancelled', 'no_show']) {
        const id = await fresh();
        expect((await move(k.member, id, { status: to }).expect(200)).body.status).toBe(to);
      }
      for (const from of ['cancelled', 'no_show']) {
        const id = await fresh();
        await move(k.member, id, { status: from }).expect(200);
        // back to scheduled needs a new time
        expectValidation(await move(k.member, id, { status: 'scheduled' }), 'viewingAt');
        expectError(
          await move(k.member, id, { status: from === 'cancelled' ? 'no_show' : 'cancelled' }),
          409,
          'CONFLICT',
        );
        expectError(await move(k.member, id, { status: 'completed' }), 409, 'CONFLICT');
        const again = await move(k.member, id, {
          status: 'scheduled',
          viewingAt: '2026-12-09T16:00:00Z',
        }).expect(200);
        expect([again.body.status, again.body.viewingAt]).toEqual(['scheduled', '2026-12-09T16:00:00.000Z']);
      }
      const id = await fresh();
      expectError(
        await move(k.member, id, { status: 'scheduled', viewingAt: '2026-12-09T16:00:00Z' }),
        409,
        'CONFLICT',
      );
      expectValidation(
        await move(k.member, id, { status: 'completed', viewingAt: '2026-12-09T16:00:00Z' }),
        'viewingAt',
      );
      await move(k.member, id, { status: 'completed' }).expect(200);
      for (const to of ['scheduled', 'cancelled', 'no_show', 'completed']) {
        expectError(
          await move(k.member, id, { status: to, viewingAt: '2026-12-09T16:00:00Z' }),
          409,
          'CONFLICT',
        );
      }
      expect((await status(id)).status).toBe('completed');
      expectValidation(await move(k.member, id, { status: 'done' }), 'status');
      expectNotFound(await move(k.member, MISSING, { status: 'completed' }), 'Viewing');
    });

    it('timeline, calendar and free-times read what is written', async () => {
      t.clock.set(new Date('2026-11-30T12:00:00.000Z'));
      const lead = await t.seed.lead(a.member);
      const viewing = await made(k.member, lead.id, { viewingAt: '2026-12-03T09:00:00Z' });
      const timeline = await as(k.member).get(`/v1/leads/${lead.id}/timeline`).expect(200);
      expect(timeline.body.data.filter((e: { type: string }) => e.type === 'viewing')).toEqual([
        expect.objectContaining({
          type: 'viewing',
          viewing: expect.objectContaining({
            viewingId: viewing.id,
            status: 'scheduled',
            changedBy: a.member.userId,
          }),
        }),
      ]);
      const calendar = async () =>
        (
          await as(k.member).get('/v1/calendar?from=2026-12-03&to=2026-12-04&tz=UTC').expect(200)
        ).body.items.filter((i: { kind: string }) => i.kind === 'viewing');
      expect(await calendar()).toEqual([
        expect.objectContaining({
          eventId: viewing.id,
          startsAt: '2026-12-03T09:00:00.000Z',
          status: 'scheduled',
        }),
      ]);
      const slots = async () =>
        (
          await as(k.member)
            .get('/v1/calendar/free-times?from=2026-12-03&to=2026-12-04&tz=UTC&durationMinutes=30')
            .expect(200)
        ).body.slots.map((s: { startsAt: string }) => s.startsAt);
      expect(await slots()).not.toContain('2026-12-03T09:00:00.000Z');
      await move(k.member, viewing.id, { status: 'cancelled' }).expect(200);
      expect(await calendar()).toEqual([]);
      expect(await slots()).toContain('2026-12-03T09:00:00.000Z');
    });
  });

  describe('scopes and plan', () => {
    it('writes need crm:write and a plan; reads need properties:read and no plan', async () => {
      const lead = await t.seed.lead(a.admin);
      const viewing = await made(k.admin, lead.id);
      const readOnly = (await t.seed.apiKey(a.admin, { name: 'ro', scopes: ['properties:read'] })).key;
      const crmOnly = (await t.seed.apiKey(a.admin, { name: 'crm', scopes: ['crm:read', 'crm:write'] })).key;
      await as(readOnly).get('/v1/viewings').expect(200);
      expectError(await create(readOnly, body(lead.id)), 403, 'API_KEY_SCOPE_MISSING');
      expectError(await as(crmOnly).get('/v1/viewings'), 403, 'API_KEY_SCOPE_MISSING');
      await create(crmOnly, body(lead.id)).expect(201);

      await t.seed.plan(a.admin, false);
      try {
        await as(k.admin).get('/v1/viewings').expect(200);
        await as(k.admin).get(`/v1/viewings/${viewing.id}`).expect(200);
        expectError(await create(k.admin, body(lead.id)), 403, 'SUBSCRIPTION_REQUIRED');
        expectError(
          await as(k.admin).patch(`/v1/viewings/${viewing.id}`).send({ kind: 'virtual' }),
          403,
          'SUBSCRIPTION_REQUIRED',
        );
        expectError(await move(k.admin, viewing.id, { status: 'completed' }), 403, 'SUBSCRIPTION_REQUIRED');
      } finally {
        await t.seed.plan(a.admin, true);
      }
      await move(k.admin, viewing.id, { status: 'completed' }).expect(200);
    });

    it('the rows of another organization never show', async () => {
      const lead = await t.seed.lead(other.admin);
      const otherListing = foreignListingId;
      const res = await create(k.other, {
        propertyListingId: otherListing,
        leadId: lead.id,
        viewingAt: '2026-12-01T10:00:00Z',
        kind: 'in_person',
      }).expect(201);
      expect((await list(k.admin, `?leadId=${lead.id}`)).total).toBe(0);
      expect(await ids(k.admin, `?propertyListingId=${otherListing}`)).toEqual([]);
      expectNotFound(await as(k.admin).get(`/v1/viewings/${res.body.id}`), 'Viewing');
    });
  });
});
