import { Agency, api, asKey, expectError, expectNotFound, expectValidation, sql, TestApp } from '../fixtures';
import { agentOf, insertListings } from '../fixtures/listings';

/** Viewings a connector pushes (INTERFACES.md "Ingestion"): the Viewing aggregate of libs/network. */
describe('connector records: viewings', () => {
  let t: TestApp;
  let a: Agency;
  let other: Agency;
  let key: { id: string; key: string };
  let listingId: string;

  beforeAll(async () => {
    t = await TestApp.start();
    a = await t.seed.agency('Casa Viewings');
    other = await t.seed.agency('Other Viewings');
    key = await t.seed.integrationKey(a.admin, 'showings', 'Showings');
    [listingId] = await insertListings(t, a.admin.organizationId, await agentOf(t, a.admin), 1);
  });
  afterAll(() => t.stop());

  const put = (externalId: string, body: Record<string, unknown>) =>
    asKey(t.http.put(`/integrations/v1/viewings/${externalId}`), key.key).send(body);
  const viewing = (leadId: number, overrides: Record<string, unknown> = {}) => ({
    leadId,
    viewingAt: '2026-12-01T06:00:00Z',
    kind: 'in_person',
    status: 'scheduled',
    agentEmail: a.member.email,
    propertyListingId: listingId,
    notes: 'Bring the keys',
    ...overrides,
  });

  it('201 then 200 replacing fields, source integration:<connector>, 409 when moved, timeline and calendar', async () => {
    t.clock.set(new Date('2026-11-30T12:00:00.000Z'));
    const lead = await t.seed.lead(a.member);
    const second = await t.seed.lead(a.admin);
    const first = await put('v-1', viewing(lead.id, { otherLeadIds: [second.id] }));
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ id: expect.any(String), leadId: lead.id, created: true });
    const again = await put('v-1', viewing(lead.id, { notes: 'Keys at the office' }));
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...first.body, created: false });
    expectError(await put('v-1', viewing(second.id)), 409, 'CONFLICT');

    const [row] = await sql(
      t,
      'select source, agent_user_id, notes, other_lead_ids, actor from viewings where id = ?',
      [first.body.id],
    );
    expect(row).toEqual({
      source: 'integration:showings',
      agent_user_id: a.member.userId,
      notes: 'Keys at the office',
      other_lead_ids: [],
      actor: `integration:${key.id}`,
    });

    const timeline = await api(t, a.member.key).get(`/v1/leads/${lead.id}/timeline`).expect(200);
    expect(timeline.body.data.filter((e: { type: string }) => e.type === 'viewing')).toEqual([
      {
        type: 'viewing',
        date: expect.any(String),
        viewing: {
          viewingId: first.body.id,
          status: 'scheduled',
          viewingAt: '2026-12-01T06:00:00.000Z',
          changedBy: null,
          actor: `integration:${key.id}`,
        },
      },
    ]);

    // on the agent's calendar and blocking their free times while scheduled
    const calendar = await api(t, a.member.key)
      .get('/v1/calendar?from=2026-12-01&to=2026-12-02&tz=UTC')
      .expect(200);
    expect(calendar.body.items.filter((i: { kind: string }) => i.kind === 'viewing')).toEqual([
      expect.objectContaining({
        kind: 'viewing',
        startsAt: '2026-12-01T06:00:00.000Z',
        endsAt: '2026-12-01T07:00:00.000Z',
        leadId: lead.id,
        eventId: first.body.id,
        status: 'scheduled',
      }),
    ]);
    const query = '?from=2026-12-01&to=2026-12-02&tz=Europe/Madrid&durationMinutes=30';
    const starts = async (who: string, extra = '') =>
      (await api(t, who).get(`/v1/calendar/free-times${query}${extra}`).expect(200)).body.slots.map(
        (s: { startsAt: string }) => s.startsAt,
      );
    // Madrid 09:00 is 08:00 UTC; the viewing (06:00-07:00 UTC) is before it: move it into working hours
    await put('v-1', viewing(lead.id, { viewingAt: '2026-12-01T09:00:00Z' })).expect(200);
    expect(await starts(a.member.key)).not.toContain('2026-12-01T09:00:00.000Z');
    expect(await starts(a.member.key)).toContain('2026-12-01T10:00:00.000Z');
    expect(await starts(a.colleague.key)).toContain('2026-12-01T09:00:00.000Z');
    // with the lead, the lead's viewings block a colleague's slots too (an admin reaches the lead)
    expect(await starts(a.admin.key, `&leadId=${lead.id}`)).not.toContain('2026-12-01T09:30:00.000Z');

    await put('v-1', viewing(lead.id, { viewingAt: '2026-12-01T09:00:00Z', status: 'cancelled' })).expect(
      200,
    );
    expect(await starts(a.member.key)).toContain('2026-12-01T09:00:00.000Z');
    t.clock.reset();
  });

  it('checks the lead link, the other leads and the fields', async () => {
    const lead = await t.seed.lead(a.admin);
    const foreign = await t.seed.lead(other.admin);
    expectNotFound(await put('v-2', viewing(foreign.id)), 'Lead');
    expectNotFound(await put('v-2', viewing(lead.id, { otherLeadIds: [foreign.id] })), 'Lead');
    expectValidation(
      await put(
        'v-2',
        viewing(lead.id, { kind: 'drive-by', status: 'done', viewingAt: 'soon', notes: 'x'.repeat(20_001) }),
      ),
      'kind',
      'status',
      'viewingAt',
      'notes',
    );
    expectValidation(await put('v-2', viewing(lead.id, { agentUserId: a.member.userId })), 'agentEmail');
    expectError(
      await put('v-2', {
        ...viewing(lead.id),
        leadId: undefined,
        contact: { email: 'nobody@viewings.test' },
      }),
      422,
      'UNPROCESSABLE',
    );
    // an agent who is not a member: no agent
    const res = await put('v-3', viewing(lead.id, { agentEmail: other.admin.email })).expect(201);
    const [row] = await sql(t, 'select agent_user_id from viewings where id = ?', [res.body.id]);
    expect(row.agent_user_id).toBeNull();
  });

  it('takes a propertyListingId the agency can read (own or on the network), else 400', async () => {
    const lead = await t.seed.lead(a.admin);
    const otherAgent = await agentOf(t, other.admin);
    const [network] = await insertListings(t, other.admin.organizationId, otherAgent, 1);
    const [hidden] = await insertListings(t, other.admin.organizationId, otherAgent, 1, {
      networkVisible: false,
    });
    const [deleted] = await insertListings(t, a.admin.organizationId, await agentOf(t, a.admin), 1);
    await sql(t, 'update listings set deleted_at = now() where id = ?', [deleted]);
    for (const unreadable of [hidden, deleted, '0193a000-0000-7000-8000-000000000001']) {
      expectValidation(
        await put('v-4', viewing(lead.id, { propertyListingId: unreadable })),
        'propertyListingId',
      );
    }
    await put('v-4', viewing(lead.id, { propertyListingId: network })).expect(201);
  });
});
