import {
  Agency,
  api,
  asKey,
  count,
  expectError,
  expectNotFound,
  expectValidation,
  LEAD_FIELDS,
  LEAD_LIST_ITEM_FIELDS,
  leadBody,
  MINUTE,
  postLead,
  sql,
  TestApp,
} from '../fixtures';

interface HistoryRow {
  type: string;
  payload: Record<string, unknown>;
  source: string;
  actor_id: string | null;
}

const historyOf = (t: TestApp, leadId: number) =>
  sql<HistoryRow>(
    t,
    'select type, payload, source, actor_id from lead_history where lead_id = ? order by occurred_at, id',
    [leadId],
  );

describe('CRM leads (/v1/leads)', () => {
  let t: TestApp;
  let a: Agency;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.stop());
  beforeEach(async () => {
    await t.resetRows();
    a = await t.seed.agency();
  });

  describe('POST /v1/leads', () => {
    it('creates a lead owned by the key person and answers 201 {lead} with the single-lead shape', async () => {
      const res = await api(t, a.admin.key).post('/v1/leads').send({
        firstName: 'José',
        lastName: 'García',
        email: 'jose@example.test',
        phoneNumber: '+34600111222',
        crmStatus: 'potential',
        companyName: 'Casas SL',
        language: 'es-ES',
      });
      expect(res.status).toBe(201);
      expect(res.headers['x-request-id']).toEqual(expect.any(String));
      expect(Object.keys(res.body)).toEqual(['lead']);
      const lead = res.body.lead;
      expect(Object.keys(lead).sort()).toEqual(LEAD_FIELDS);
      expect(lead).toEqual({
        id: expect.any(Number),
        firstName: 'José',
        lastName: 'García',
        email: 'jose@example.test',
        phoneNumber: '+34600111222',
        language: 'es-ES',
        companyName: 'Casas SL',
        crmStatus: 'potential',
        assigneeIds: [a.admin.userId],
        purchasedAt: t.clock.now().toISOString(),
        totalCalls: 0,
        lastCallAt: null,
        pendingTasks: 0,
        nextTaskDueAt: null,
        leadGroup: null,
        tags: [],
        source: 'api',
        leadType: null,
        createdAt: t.clock.now().toISOString(),
        channels: [],
        origin: null,
        consent: null,
      });
      expect(Number.isInteger(lead.id)).toBe(true);
      const got = await api(t, a.admin.key).get(`/v1/leads/${lead.id}`).expect(200);
      expect(got.body).toEqual(lead);
    });

    it('records the opening status and owner as history with source api', async () => {
      const lead = await postLead(t, a.admin.key, { crmStatus: 'client', assigneeIds: [a.member.userId] });
      const rows = await historyOf(t, lead.id);
      expect(rows).toHaveLength(2);
      expect(rows).toEqual(
        expect.arrayContaining([
          {
            type: 'lead-created',
            payload: { source: 'api', leadGroupName: null, crmStatus: 'client' },
            source: 'api',
            actor_id: a.admin.userId,
          },
          {
            type: 'assignee-change',
            payload: {
              addedUserIds: [a.member.userId],
              removedUserIds: [],
              changedBy: a.admin.userId,
              source: 'api',
            },
            source: 'api',
            actor_id: a.admin.userId,
          },
        ]),
      );
    });

    it('lets a member create for themselves only (owner defaults to them, or named as a string)', async () => {
      const own = await postLead(t, a.member.key);
      expect(own.assigneeIds).toEqual([a.member.userId]);
      const named = await postLead(t, a.member.key, { assigneeIds: a.member.userId });
      expect(named.assigneeIds).toEqual([a.member.userId]);
      const namedArray = await postLead(t, a.member.key, { assigneeIds: [a.member.userId] });
      expect(namedArray.assigneeIds).toEqual([a.member.userId]);
    });

    it('answers a member asking for another owner, a team or unassigned with 403 FORBIDDEN', async () => {
      const team = await t.seed.team(a.admin, 'Sales', [a.member.userId]);
      const before = await count(t, 'select count(*) as n from leads');
      for (const extra of [
        { assigneeIds: [a.colleague.userId] },
        { assigneeIds: [a.member.userId, a.colleague.userId] },
        { teamIds: team.id },
        { unassigned: true },
      ]) {
        const res = await api(t, a.member.key).post('/v1/leads').send(leadBody(extra));
        expectError(res, 403, 'FORBIDDEN');
      }
      expect(await count(t, 'select count(*) as n from leads')).toBe(before);
    });

    it('lets an admin name owners (string or array), teams (adding their members) or unassigned', async () => {
      const one = await postLead(t, a.admin.key, { assigneeIds: a.member.userId });
      expect(one.assigneeIds).toEqual([a.member.userId]);
      const two = await postLead(t, a.admin.key, { assigneeIds: [a.member.userId, a.colleague.userId] });
      expect(two.assigneeIds.sort()).toEqual([a.member.userId, a.colleague.userId].sort());
      const team = await t.seed.team(a.admin, 'Sales', [a.colleague.userId]);
      const byTeam = await postLead(t, a.admin.key, { assigneeIds: [a.member.userId], teamIds: team.id });
      expect(byTeam.assigneeIds.sort()).toEqual([a.member.userId, a.colleague.userId].sort());
      const nobody = await postLead(t, a.admin.key, { unassigned: true });
      expect(nobody.assigneeIds).toEqual([]);
      expect(await historyOf(t, nobody.id)).toEqual([expect.objectContaining({ type: 'lead-created' })]);
    });

    it('refuses owners outside the agency and unknown teams with 400 VALIDATION_FAILED', async () => {
      const other = await t.seed.agency('Other Agency');
      const otherTeam = await t.seed.team(other.admin, 'Theirs', [other.member.userId]);
      const before = await count(t, 'select count(*) as n from leads');
      expectValidation(
        await api(t, a.admin.key)
          .post('/v1/leads')
          .send(leadBody({ assigneeIds: [other.member.userId] })),
        'assigneeIds',
      );
      expectValidation(
        await api(t, a.admin.key)
          .post('/v1/leads')
          .send(leadBody({ teamIds: [otherTeam.id] })),
        'teamIds',
      );
      expectValidation(
        await api(t, a.admin.key)
          .post('/v1/leads')
          .send(leadBody({ assigneeIds: ['not-a-uuid'] })),
        'assigneeIds',
      );
      expectValidation(
        await api(t, a.admin.key)
          .post('/v1/leads')
          .send(leadBody({ unassigned: true, assigneeIds: [a.member.userId] })),
      );
      expect(await count(t, 'select count(*) as n from leads')).toBe(before);
    });

    it('answers missing required fields with 400 VALIDATION_FAILED naming each of them', async () => {
      const res = await api(t, a.admin.key).post('/v1/leads').send({});
      expectValidation(res, 'firstName', 'lastName', 'email', 'phoneNumber', 'crmStatus');
      for (const field of ['firstName', 'lastName', 'email', 'phoneNumber', 'crmStatus'] as const) {
        const body = leadBody();
        delete body[field];
        expectValidation(await api(t, a.admin.key).post('/v1/leads').send(body), field);
      }
      expect(await count(t, 'select count(*) as n from leads')).toBe(0);
    });

    it('checks crmStatus, companyName (up to 255) and the types of the fields', async () => {
      const post = (extra: Record<string, unknown>) =>
        api(t, a.admin.key)
          .post('/v1/leads')
          .send({ ...leadBody(), ...extra });
      expectValidation(await post({ crmStatus: 'new' }), 'crmStatus');
      expectValidation(await post({ crmStatus: 'LEAD' }), 'crmStatus');
      expectValidation(await post({ companyName: 'x'.repeat(256) }), 'companyName');
      expectValidation(await post({ firstName: 42 }), 'firstName');
      expectValidation(await post({ unassigned: 'yes' }), 'unassigned');
      expectValidation(await post({ language: 'not a language' }), 'language');
      const ok = await post({ companyName: 'x'.repeat(255) });
      expect(ok.status).toBe(201);
      expect(ok.body.lead.companyName).toHaveLength(255);
      expect(await count(t, 'select count(*) as n from leads')).toBe(1);
    });
  });

  describe('GET /v1/leads', () => {
    it('answers {data, hasMore, page, limit, total} newest first with an exact total and page paging', async () => {
      const ids: number[] = [];
      for (let i = 0; i < 5; i++) {
        ids.push((await t.seed.lead(a.admin)).id);
        t.clock.advance(MINUTE);
      }
      const newestFirst = [...ids].reverse();
      const all = await api(t, a.admin.key).get('/v1/leads').expect(200);
      expect(Object.keys(all.body).sort()).toEqual(['data', 'hasMore', 'limit', 'page', 'total']);
      expect(all.body).toMatchObject({ hasMore: false, page: 1, limit: 25, total: 5 });
      expect(all.body.data.map((l: { id: number }) => l.id)).toEqual(newestFirst);
      for (const item of all.body.data) expect(Object.keys(item).sort()).toEqual(LEAD_LIST_ITEM_FIELDS);

      const pages = [];
      for (const page of [1, 2, 3, 4]) {
        const res = await api(t, a.admin.key).get(`/v1/leads?page=${page}&limit=2`).expect(200);
        expect(res.body).toMatchObject({ page, limit: 2, total: 5 });
        pages.push(res.body);
      }
      expect(pages.map((p) => p.hasMore)).toEqual([true, true, false, false]);
      expect(pages.map((p) => p.data.map((l: { id: number }) => l.id))).toEqual([
        newestFirst.slice(0, 2),
        newestFirst.slice(2, 4),
        newestFirst.slice(4),
        [],
      ]);
    });

    it('pages every kind of list the same way: the same rows as one long page, the exact total past the last page', async () => {
      for (let i = 0; i < 7; i++) {
        await t.seed.lead(a.admin, {
          firstName: i % 2 === 0 ? 'Paging' : 'Other',
          assigneeIds: i < 5 ? [a.member.userId] : [a.colleague.userId],
        });
        t.clock.advance(MINUTE);
      }
      // agency-wide (counters), a member's own (counted over the assignee index), a search (one scan for both)
      const lists = [
        { key: a.admin.key, query: '', total: 7 },
        { key: a.member.key, query: '', total: 5 },
        { key: a.admin.key, query: '&search=paging', total: 4 },
        { key: a.member.key, query: '&search=paging', total: 3 },
        { key: a.admin.key, query: `&assigneeIds=${a.colleague.userId}`, total: 2 },
      ];
      for (const list of lists) {
        const whole = await api(t, list.key).get(`/v1/leads?limit=100${list.query}`).expect(200);
        expect({ list: list.query, total: whole.body.total }).toEqual({
          list: list.query,
          total: list.total,
        });
        const paged: number[] = [];
        for (let page = 1; page <= 4; page++) {
          const res = await api(t, list.key).get(`/v1/leads?limit=2&page=${page}${list.query}`).expect(200);
          expect(res.body).toMatchObject({
            page,
            limit: 2,
            total: list.total,
            hasMore: page * 2 < list.total,
          });
          paged.push(...res.body.data.map((l: { id: number }) => l.id));
        }
        expect(paged).toEqual(whole.body.data.map((l: { id: number }) => l.id));
        const past = await api(t, list.key).get(`/v1/leads?limit=2&page=40${list.query}`).expect(200);
        expect(past.body).toEqual({ data: [], hasMore: false, page: 40, limit: 2, total: list.total });
      }
    });

    it('shows a member only the leads they are on, and never another agency’s', async () => {
      const mine = await t.seed.lead(a.admin, { assigneeIds: [a.member.userId] });
      const shared = await t.seed.lead(a.admin, { assigneeIds: [a.member.userId, a.colleague.userId] });
      await t.seed.lead(a.admin, { assigneeIds: [a.colleague.userId] });
      await t.seed.lead(a.admin, { unassigned: true });
      const other = await t.seed.agency('Other Agency');
      await t.seed.lead(other.admin);

      const res = await api(t, a.member.key).get('/v1/leads').expect(200);
      expect(res.body.total).toBe(2);
      expect(res.body.data.map((l: { id: number }) => l.id).sort()).toEqual([mine.id, shared.id].sort());
      const admin = await api(t, a.admin.key).get('/v1/leads').expect(200);
      expect(admin.body.total).toBe(4);
    });

    it('searches first name, last name, full name, email and phone, case-insensitively', async () => {
      const jose = await t.seed.lead(a.admin, {
        firstName: 'José',
        lastName: 'García',
        email: 'pepe.g@correo.test',
        phoneNumber: '+34 611 222 333',
      });
      await t.seed.lead(a.admin, {
        firstName: 'Joseph',
        lastName: 'Smith',
        email: 'joe@mail.test',
        phoneNumber: '+44 7700 900000',
      });
      const search = async (q: string) => {
        const res = await api(t, a.admin.key).get('/v1/leads').query({ search: q }).expect(200);
        expect(res.body.total).toBe(res.body.data.length);
        return res.body.data.map((l: { id: number }) => l.id);
      };
      expect(await search('García')).toEqual([jose.id]);
      expect(await search('José')).toEqual([jose.id]);
      expect(await search('José García')).toEqual([jose.id]);
      expect(await search('josé garcía')).toEqual([jose.id]);
      expect(await search('pepe.g@correo')).toEqual([jose.id]);
      expect(await search('611 222')).toEqual([jose.id]);
      expect(await search('Jos')).toHaveLength(2);
      const alvaro = await t.seed.lead(a.admin, { firstName: 'ÁLVARO', lastName: 'ÑÚÑEZ' });
      expect(await search('álvaro ñúñez')).toEqual([alvaro.id]);
      expect(await search('nobody here')).toEqual([]);
      // LIKE wildcards in the term are matched literally
      expect(await search('%')).toEqual([]);
      expect(await search('_')).toEqual([]);
    });

    it('filters by crmStatus', async () => {
      const client = await t.seed.lead(a.admin, { crmStatus: 'client' });
      await t.seed.lead(a.admin, { crmStatus: 'lead' });
      const res = await api(t, a.admin.key).get('/v1/leads?crmStatus=client').expect(200);
      expect(res.body.total).toBe(1);
      expect(res.body.data.map((l: { id: number }) => l.id)).toEqual([client.id]);
      const none = await api(t, a.admin.key).get('/v1/leads?crmStatus=bad_timing').expect(200);
      expect(none.body).toMatchObject({ data: [], total: 0, hasMore: false });
    });

    it('filters by assigneeIds, comma-separated or repeated, for an admin', async () => {
      const forMember = await t.seed.lead(a.admin, { assigneeIds: [a.member.userId] });
      t.clock.advance(MINUTE);
      const forColleague = await t.seed.lead(a.admin, { assigneeIds: [a.colleague.userId] });
      await t.seed.lead(a.admin);
      const ids = (res: { body: { data: { id: number }[] } }) => res.body.data.map((l) => l.id);

      const one = await api(t, a.admin.key).get(`/v1/leads?assigneeIds=${a.member.userId}`).expect(200);
      expect(ids(one)).toEqual([forMember.id]);
      const comma = await api(t, a.admin.key)
        .get(`/v1/leads?assigneeIds=${a.member.userId},${a.colleague.userId}`)
        .expect(200);
      expect(ids(comma)).toEqual([forColleague.id, forMember.id]);
      const repeated = await api(t, a.admin.key)
        .get(`/v1/leads?assigneeIds=${a.member.userId}&assigneeIds=${a.colleague.userId}`)
        .expect(200);
      expect(ids(repeated)).toEqual([forColleague.id, forMember.id]);
      expect(repeated.body.total).toBe(2);
      expectValidation(await api(t, a.admin.key).get('/v1/leads?assigneeIds=nope'), 'assigneeIds');
    });

    it('answers a member using the assigneeIds filter with 403 ORG_ADMIN_REQUIRED', async () => {
      const res = await api(t, a.member.key).get(`/v1/leads?assigneeIds=${a.member.userId}`);
      expectError(res, 403, 'ORG_ADMIN_REQUIRED');
    });

    it('refuses limit 0 and 101, page 0, non-numbers, a 201-character search and an unknown crmStatus', async () => {
      const get = (query: string) => api(t, a.admin.key).get(`/v1/leads?${query}`);
      expectValidation(await get('limit=0'), 'limit');
      expectValidation(await get('limit=101'), 'limit');
      expectValidation(await get('limit=ten'), 'limit');
      expectValidation(await get('page=0'), 'page');
      expectValidation(await get('page=1.5'), 'page');
      expectValidation(await get(`search=${'a'.repeat(201)}`), 'search');
      expectValidation(await get('crmStatus=new'), 'crmStatus');
      await get('limit=100').expect(200);
      await get('limit=1').expect(200);
      await get(`search=${'a'.repeat(200)}`).expect(200);
    });

    it('carries calls, task figures, the lead group and tags with leadCount on list items', async () => {
      const lead = await t.seed.lead(a.admin, { assigneeIds: [a.member.userId] });
      const other = await t.seed.lead(a.admin);
      const vip = await t.seed.tag(a.admin, 'VIP', '#aa0000');
      const hot = await t.seed.tag(a.member, 'Hot', '#00aa00');
      await api(t, a.admin.key)
        .put(`/v1/leads/${lead.id}/tags`)
        .send({ tagIds: [vip.id, hot.id] })
        .expect(200);
      await api(t, a.admin.key)
        .put(`/v1/leads/${other.id}/tags`)
        .send({ tagIds: [vip.id] })
        .expect(200);
      await t.seed.task(a.admin, { leadId: lead.id, dueDate: '2031-03-10' });
      await t.seed.task(a.admin, { leadId: lead.id, dueDate: '2031-03-05T09:30:00+01:00' });
      await t.seed.task(a.admin, { leadId: lead.id });
      const done = await t.seed.task(a.admin, { leadId: lead.id, dueDate: '2031-01-01' });
      await api(t, a.admin.key).patch(`/v1/tasks/${done.id}`).send({ status: 'completed' }).expect(200);
      // call facts and lead groups come from other contexts; set them as those would
      await sql(t, `update leads set lead_group = 'Portal' where id = ?`, [lead.id]);
      await sql(
        t,
        `insert into lead_facts (lead_id, organization_id, total_calls, last_call_at, updated_at)
         values (?, ?, 3, ?, now())
         on conflict (lead_id) do update set total_calls = excluded.total_calls, last_call_at = excluded.last_call_at`,
        [lead.id, a.admin.organizationId, '2031-02-01T12:00:00.000Z'],
      );

      const res = await api(t, a.member.key).get('/v1/leads').expect(200);
      expect(res.body.data).toHaveLength(1);
      const item = res.body.data[0];
      expect(item).toMatchObject({
        id: lead.id,
        totalCalls: 3,
        lastCallAt: '2031-02-01T12:00:00.000Z',
        pendingTasks: 3,
        nextTaskDueAt: '2031-03-05T08:30:00.000Z',
        leadGroup: 'Portal',
      });
      expect(item.tags).toHaveLength(2);
      expect(item.tags).toEqual(
        expect.arrayContaining([
          { id: vip.id, name: 'VIP', color: '#aa0000', leadCount: 2 },
          { id: hot.id, name: 'Hot', color: '#00aa00', leadCount: 1 },
        ]),
      );
      const single = await api(t, a.member.key).get(`/v1/leads/${lead.id}`).expect(200);
      expect(single.body).toMatchObject({ pendingTasks: 3, totalCalls: 3, leadGroup: 'Portal' });
      expect(single.body.tags).toEqual(expect.arrayContaining(item.tags));
    });

    it('works with a read-only key and without a plan', async () => {
      await t.seed.lead(a.admin);
      const readOnly = (await t.seed.apiKey(a.admin, ['crm:read'])).key;
      await t.seed.plan(a.admin.organizationId, false);
      const res = await api(t, readOnly).get('/v1/leads').expect(200);
      expect(res.body.total).toBe(1);
    });

    it('needs crm:read', async () => {
      const key = (await t.seed.apiKey(a.admin, ['crm:write'])).key;
      expectError(await api(t, key).get('/v1/leads'), 403, 'API_KEY_SCOPE_MISSING', {
        missing: ['crm:read'],
      });
    });
  });

  describe('GET /v1/leads/counts', () => {
    beforeEach(async () => {
      await t.seed.lead(a.admin, { crmStatus: 'lead', assigneeIds: [a.member.userId] });
      await t.seed.lead(a.admin, { crmStatus: 'lead', unassigned: true });
      await t.seed.lead(a.admin, { crmStatus: 'client', assigneeIds: [a.colleague.userId] });
      await t.seed.lead(a.admin, { crmStatus: 'potential', assigneeIds: [a.member.userId] });
      await t.seed.lead(a.admin, { crmStatus: 'unqualified', unassigned: true });
    });

    it('counts every status and unassigned leads for an admin', async () => {
      const res = await api(t, a.admin.key).get('/v1/leads/counts').expect(200);
      expect(res.body).toEqual({
        lead: 2,
        potential: 1,
        bad_timing: 0,
        client: 1,
        unqualified: 1,
        unassigned: 2,
      });
    });

    it('counts a member’s own leads, without unassigned', async () => {
      const res = await api(t, a.member.key).get('/v1/leads/counts').expect(200);
      expect(res.body).toEqual({ lead: 1, potential: 1, bad_timing: 0, client: 0, unqualified: 0 });
    });

    it('filters by assigneeIds for an admin, and refuses the filter to a member', async () => {
      const res = await api(t, a.admin.key)
        .get(`/v1/leads/counts?assigneeIds=${a.member.userId},${a.colleague.userId}`)
        .expect(200);
      expect(res.body).toEqual({
        lead: 1,
        potential: 1,
        bad_timing: 0,
        client: 1,
        unqualified: 0,
        unassigned: 0,
      });
      const repeated = await api(t, a.admin.key)
        .get(`/v1/leads/counts?assigneeIds=${a.colleague.userId}&assigneeIds=${a.colleague.userId}`)
        .expect(200);
      expect(repeated.body).toMatchObject({ lead: 0, client: 1 });
      expectError(
        await api(t, a.member.key).get(`/v1/leads/counts?assigneeIds=${a.member.userId}`),
        403,
        'ORG_ADMIN_REQUIRED',
      );
    });

    it('does not count another agency’s leads', async () => {
      const other = await t.seed.agency('Other Agency');
      const res = await api(t, other.admin.key).get('/v1/leads/counts').expect(200);
      expect(res.body).toEqual({
        lead: 0,
        potential: 0,
        bad_timing: 0,
        client: 0,
        unqualified: 0,
        unassigned: 0,
      });
    });
  });

  describe('GET /v1/leads/{leadId}', () => {
    it('gives a member their own lead and 404 Lead not found for one they are not on', async () => {
      const mine = await t.seed.lead(a.admin, { assigneeIds: [a.member.userId] });
      const theirs = await t.seed.lead(a.admin, { assigneeIds: [a.colleague.userId] });
      const nobody = await t.seed.lead(a.admin, { unassigned: true });
      const res = await api(t, a.member.key).get(`/v1/leads/${mine.id}`).expect(200);
      expect(res.body).toMatchObject({ id: mine.id, assigneeIds: [a.member.userId] });
      expectNotFound(await api(t, a.member.key).get(`/v1/leads/${theirs.id}`), 'Lead');
      expectNotFound(await api(t, a.member.key).get(`/v1/leads/${nobody.id}`), 'Lead');
      await api(t, a.admin.key).get(`/v1/leads/${nobody.id}`).expect(200);
    });

    it('answers another agency’s lead and a missing one alike: 404 Lead not found', async () => {
      const other = await t.seed.agency('Other Agency');
      const foreign = await t.seed.lead(other.admin);
      const foreignRes = await api(t, a.admin.key).get(`/v1/leads/${foreign.id}`);
      expectNotFound(foreignRes, 'Lead');
      const missingRes = await api(t, a.admin.key).get(`/v1/leads/${foreign.id + 1000}`);
      expectNotFound(missingRes, 'Lead');
      expect(foreignRes.body.error).toEqual(missingRes.body.error);
    });

    it('answers channels: each channel the lead has chat messages on, once, by name', async () => {
      const lead = await t.seed.lead(a.admin, { assigneeIds: [a.member.userId] });
      const quiet = await t.seed.lead(a.admin, { assigneeIds: [a.member.userId] });
      const connector = await t.seed.integrationKey(a.admin, 'chat-inbox');
      const message = (leadId: number, channel: string, externalId: string) =>
        asKey(t.http.put(`/integrations/v1/messages/${externalId}`), connector.key)
          .send({
            leadId,
            channel,
            kind: 'text',
            direction: 'inbound',
            status: 'received',
            at: '2026-11-20T10:00:00Z',
            body: 'Hello',
          })
          .expect(201);
      await message(lead.id, 'whatsapp', 'm-1');
      await message(lead.id, 'telegram', 'm-2');
      await message(lead.id, 'whatsapp', 'm-3');
      const res = await api(t, a.member.key).get(`/v1/leads/${lead.id}`).expect(200);
      expect(res.body.channels).toEqual(['telegram', 'whatsapp']);
      expect((await api(t, a.member.key).get(`/v1/leads/${quiet.id}`).expect(200)).body.channels).toEqual([]);
      // the list items do not carry it (spec: the single lead adds it)
      const list = await api(t, a.member.key).get('/v1/leads').expect(200);
      expect(list.body.data.find((row: { id: number }) => row.id === lead.id)).not.toHaveProperty('channels');
    });

    it('answers a non-integer id with 400 VALIDATION_FAILED', async () => {
      for (const id of ['abc', '1.5', '-1', '0', '99999999999999999999'])
        expectValidation(await api(t, a.admin.key).get(`/v1/leads/${id}`), 'leadId');
    });

    // the global pipe must not run Number() on path parameters before IntParam sees the text
    it('answers numeric spellings that are not plain digits with 400 VALIDATION_FAILED', async () => {
      for (const id of ['1e3', '0x10', '+5', '5.0', '%205'])
        expectValidation(await api(t, a.admin.key).get(`/v1/leads/${id}`), 'leadId');
    });
  });

  describe('PATCH /v1/leads/{leadId}', () => {
    it('changes contact fields and answers the Lead; the new name is searchable', async () => {
      const lead = await t.seed.lead(a.admin, { companyName: 'Old SL' });
      const res = await api(t, a.admin.key)
        .patch(`/v1/leads/${lead.id}`)
        .send({ firstName: 'Lucía', email: 'lucia@example.test', companyName: 'New SL' });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(LEAD_FIELDS);
      expect(res.body).toMatchObject({
        id: lead.id,
        firstName: 'Lucía',
        lastName: lead.lastName,
        email: 'lucia@example.test',
        phoneNumber: lead.phoneNumber,
        companyName: 'New SL',
      });
      const found = await api(t, a.admin.key).get('/v1/leads').query({ search: 'lucía' }).expect(200);
      expect(found.body.data.map((l: { id: number }) => l.id)).toEqual([lead.id]);
    });

    it('clears with null or ""', async () => {
      const lead = await t.seed.lead(a.admin, { companyName: 'Casas SL' });
      const nulls = await api(t, a.admin.key)
        .patch(`/v1/leads/${lead.id}`)
        .send({ firstName: null, email: null, companyName: null })
        .expect(200);
      expect(nulls.body).toMatchObject({
        firstName: '',
        email: '',
        companyName: null,
        lastName: lead.lastName,
      });
      const lead2 = await t.seed.lead(a.admin, { companyName: 'Casas SL' });
      const empties = await api(t, a.admin.key)
        .patch(`/v1/leads/${lead2.id}`)
        .send({ lastName: '', phoneNumber: '', companyName: '' })
        .expect(200);
      expect(empties.body).toMatchObject({ lastName: '', phoneNumber: '', companyName: null });
    });

    it('lets a member change their own lead only', async () => {
      const mine = await t.seed.lead(a.member);
      const theirs = await t.seed.lead(a.colleague);
      await api(t, a.member.key).patch(`/v1/leads/${mine.id}`).send({ lastName: 'Changed' }).expect(200);
      expectNotFound(
        await api(t, a.member.key).patch(`/v1/leads/${theirs.id}`).send({ lastName: 'X' }),
        'Lead',
      );
      const other = await t.seed.agency('Other Agency');
      expectNotFound(
        await api(t, other.admin.key).patch(`/v1/leads/${theirs.id}`).send({ lastName: 'X' }),
        'Lead',
      );
      const [row] = await sql<{ last_name: string }>(t, 'select last_name from leads where id = ?', [
        theirs.id,
      ]);
      expect(row.last_name).toBe(theirs.lastName);
    });

    it('checks lengths, types and the id', async () => {
      const lead = await t.seed.lead(a.admin);
      expectValidation(
        await api(t, a.admin.key)
          .patch(`/v1/leads/${lead.id}`)
          .send({ companyName: 'x'.repeat(256) }),
        'companyName',
      );
      expectValidation(
        await api(t, a.admin.key).patch(`/v1/leads/${lead.id}`).send({ firstName: 7 }),
        'firstName',
      );
      expectValidation(await api(t, a.admin.key).patch('/v1/leads/x1').send({ firstName: 'A' }), 'leadId');
    });
  });

  describe('PUT /v1/leads/{leadId}/status', () => {
    it('moves the status, answers the Lead and writes a status-change row with source api', async () => {
      const lead = await t.seed.lead(a.member, { crmStatus: 'lead' });
      const res = await api(t, a.member.key)
        .put(`/v1/leads/${lead.id}/status`)
        .send({ crmStatus: 'bad_timing' });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(LEAD_FIELDS);
      expect(res.body).toMatchObject({ id: lead.id, crmStatus: 'bad_timing' });
      const rows = await historyOf(t, lead.id);
      expect(rows.filter((r) => r.type === 'status-change')).toEqual([
        {
          type: 'status-change',
          payload: { from: 'lead', to: 'bad_timing', changedBy: a.member.userId, source: 'api' },
          source: 'api',
          actor_id: a.member.userId,
        },
      ]);
      // no restriction on which status may follow which
      await api(t, a.member.key).put(`/v1/leads/${lead.id}/status`).send({ crmStatus: 'lead' }).expect(200);
    });

    it('answers 404 for a lead the member is not on or another agency’s', async () => {
      const theirs = await t.seed.lead(a.colleague);
      expectNotFound(
        await api(t, a.member.key).put(`/v1/leads/${theirs.id}/status`).send({ crmStatus: 'client' }),
        'Lead',
      );
      const other = await t.seed.agency('Other Agency');
      expectNotFound(
        await api(t, other.admin.key).put(`/v1/leads/${theirs.id}/status`).send({ crmStatus: 'client' }),
        'Lead',
      );
      const [row] = await sql<{ crm_status: string }>(t, 'select crm_status from leads where id = ?', [
        theirs.id,
      ]);
      expect(row.crm_status).toBe('lead');
    });

    it('requires a known crmStatus', async () => {
      const lead = await t.seed.lead(a.admin);
      expectValidation(await api(t, a.admin.key).put(`/v1/leads/${lead.id}/status`).send({}), 'crmStatus');
      expectValidation(
        await api(t, a.admin.key).put(`/v1/leads/${lead.id}/status`).send({ crmStatus: 'won' }),
        'crmStatus',
      );
    });
  });

  describe('POST /v1/leads/status (bulk)', () => {
    it('moves the agency’s leads among leadIds, answers 200 {updated} and writes history per lead', async () => {
      const l1 = await t.seed.lead(a.admin, { crmStatus: 'lead' });
      const l2 = await t.seed.lead(a.admin, { crmStatus: 'potential', assigneeIds: [a.member.userId] });
      const other = await t.seed.agency('Other Agency');
      const foreign = await t.seed.lead(other.admin, { crmStatus: 'lead' });
      const res = await api(t, a.admin.key)
        .post('/v1/leads/status')
        .send({ leadIds: [l1.id, l2.id, foreign.id, 987654321], crmStatus: 'client' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ updated: 2 });
      const statuses = await sql<{ id: string; crm_status: string }>(
        t,
        'select id, crm_status from leads where id = any(?::bigint[]) order by id',
        [`{${l1.id},${l2.id},${foreign.id}}`],
      );
      expect(statuses.map((s) => s.crm_status)).toEqual(['client', 'client', 'lead']);
      for (const [lead, from] of [
        [l1, 'lead'],
        [l2, 'potential'],
      ] as const) {
        const changes = (await historyOf(t, lead.id)).filter((r) => r.type === 'status-change');
        expect(changes).toEqual([
          {
            type: 'status-change',
            payload: { from, to: 'client', changedBy: a.admin.userId, source: 'api' },
            source: 'api',
            actor_id: a.admin.userId,
          },
        ]);
      }
      expect(
        await count(
          t,
          `select count(*) as n from lead_history where lead_id = ? and type = 'status-change'`,
          [foreign.id],
        ),
      ).toBe(0);
    });

    it('answers a member’s key with 403 ORG_ADMIN_REQUIRED and changes nothing', async () => {
      const lead = await t.seed.lead(a.member);
      const res = await api(t, a.member.key)
        .post('/v1/leads/status')
        .send({ leadIds: [lead.id], crmStatus: 'client' });
      expectError(res, 403, 'ORG_ADMIN_REQUIRED');
      const [row] = await sql<{ crm_status: string }>(t, 'select crm_status from leads where id = ?', [
        lead.id,
      ]);
      expect(row.crm_status).toBe('lead');
    });

    it('takes up to 500 leadIds and checks the body', async () => {
      const lead = await t.seed.lead(a.admin);
      const ids500 = [lead.id, ...Array.from({ length: 499 }, (_, i) => 1_000_000 + i)];
      const ok = await api(t, a.admin.key)
        .post('/v1/leads/status')
        .send({ leadIds: ids500, crmStatus: 'client' });
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ updated: 1 });
      const post = (body: unknown) =>
        api(t, a.admin.key)
          .post('/v1/leads/status')
          .send(body as object);
      expectValidation(await post({ leadIds: [...ids500, 2_000_000], crmStatus: 'client' }), 'leadIds');
      expectValidation(await post({ leadIds: ['1'], crmStatus: 'client' }), 'leadIds');
      expectValidation(await post({ leadIds: [1.5], crmStatus: 'client' }), 'leadIds');
      expectValidation(await post({ leadIds: [lead.id], crmStatus: 'nope' }), 'crmStatus');
      expectValidation(await post({ crmStatus: 'client' }), 'leadIds');
    });
  });

  describe('PUT /v1/leads/{leadId}/tags', () => {
    it('sets the full set of tags and answers the Lead with tags; [] clears', async () => {
      const lead = await t.seed.lead(a.member);
      const vip = await t.seed.tag(a.admin, 'VIP');
      const hot = await t.seed.tag(a.admin, 'Hot');
      const set = await api(t, a.member.key)
        .put(`/v1/leads/${lead.id}/tags`)
        .send({ tagIds: [vip.id, hot.id] });
      expect(set.status).toBe(200);
      expect(Object.keys(set.body).sort()).toEqual(LEAD_FIELDS);
      expect(set.body.tags).toHaveLength(2);
      expect(set.body.tags).toEqual(
        expect.arrayContaining([
          { id: vip.id, name: 'VIP', color: vip.color, leadCount: 1 },
          { id: hot.id, name: 'Hot', color: hot.color, leadCount: 1 },
        ]),
      );
      const replaced = await api(t, a.member.key)
        .put(`/v1/leads/${lead.id}/tags`)
        .send({ tagIds: [hot.id] })
        .expect(200);
      expect(replaced.body.tags.map((tag: { id: string }) => tag.id)).toEqual([hot.id]);
      const cleared = await api(t, a.member.key)
        .put(`/v1/leads/${lead.id}/tags`)
        .send({ tagIds: [] })
        .expect(200);
      expect(cleared.body.tags).toEqual([]);
    });

    it('refuses another agency’s tag, an archived tag, a non-uuid and a missing tagIds', async () => {
      const lead = await t.seed.lead(a.admin);
      const other = await t.seed.agency('Other Agency');
      const theirs = await t.seed.tag(other.admin, 'Theirs');
      const put = (body: unknown) =>
        api(t, a.admin.key)
          .put(`/v1/leads/${lead.id}/tags`)
          .send(body as object);
      expectValidation(await put({ tagIds: [theirs.id] }), 'tagIds');
      const archived = await t.seed.tag(a.admin, 'Old');
      await t.http.delete(`/tags/${archived.id}`).auth(a.admin.token, { type: 'bearer' }).expect(200);
      expectValidation(await put({ tagIds: [archived.id] }), 'tagIds');
      expectValidation(await put({ tagIds: ['x'] }), 'tagIds');
      expectValidation(await put({}), 'tagIds');
      const [row] = await sql<{ tag_ids: string[] }>(t, 'select tag_ids from leads where id = ?', [lead.id]);
      expect(row.tag_ids).toEqual([]);
    });

    it('answers 404 for a lead the member is not on or another agency’s', async () => {
      const tag = await t.seed.tag(a.admin, 'VIP');
      const theirs = await t.seed.lead(a.colleague);
      expectNotFound(
        await api(t, a.member.key)
          .put(`/v1/leads/${theirs.id}/tags`)
          .send({ tagIds: [tag.id] }),
        'Lead',
      );
      const other = await t.seed.agency('Other Agency');
      expectNotFound(
        await api(t, other.admin.key).put(`/v1/leads/${theirs.id}/tags`).send({ tagIds: [] }),
        'Lead',
      );
    });
  });

  describe('PUT and POST /v1/leads/{leadId}/assignees', () => {
    const assignees = (key: string, method: 'put' | 'post', leadId: number) =>
      api(t, key)[method](`/v1/leads/${leadId}/assignees`);

    it('PUT replaces the owners, answers {lead} and records who was added and removed', async () => {
      const lead = await t.seed.lead(a.admin, { assigneeIds: [a.member.userId] });
      const res = await api(t, a.admin.key)
        .put(`/v1/leads/${lead.id}/assignees`)
        .send({ userIds: [a.colleague.userId] });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['lead']);
      expect(Object.keys(res.body.lead).sort()).toEqual(LEAD_FIELDS);
      expect(res.body.lead.assigneeIds).toEqual([a.colleague.userId]);
      const changes = (await historyOf(t, lead.id)).filter((r) => r.type === 'assignee-change');
      expect(changes[changes.length - 1]).toEqual({
        type: 'assignee-change',
        payload: {
          addedUserIds: [a.colleague.userId],
          removedUserIds: [a.member.userId],
          changedBy: a.admin.userId,
          source: 'api',
        },
        source: 'api',
        actor_id: a.admin.userId,
      });
      // the member no longer reaches it; the colleague does
      expectNotFound(await api(t, a.member.key).get(`/v1/leads/${lead.id}`), 'Lead');
      await api(t, a.colleague.key).get(`/v1/leads/${lead.id}`).expect(200);
    });

    it('PUT [] leaves the lead unassigned; teamIds add the team’s members', async () => {
      const lead = await t.seed.lead(a.admin);
      const none = await api(t, a.admin.key)
        .put(`/v1/leads/${lead.id}/assignees`)
        .send({ userIds: [] })
        .expect(200);
      expect(none.body.lead.assigneeIds).toEqual([]);
      expect((await api(t, a.admin.key).get('/v1/leads/counts').expect(200)).body.unassigned).toBe(1);
      const team = await t.seed.team(a.admin, 'Sales', [a.member.userId, a.colleague.userId]);
      const byTeam = await api(t, a.admin.key)
        .put(`/v1/leads/${lead.id}/assignees`)
        .send({ userIds: [], teamIds: team.id })
        .expect(200);
      expect(byTeam.body.lead.assigneeIds.sort()).toEqual([a.member.userId, a.colleague.userId].sort());
    });

    it('POST adds owners and keeps the existing ones', async () => {
      const lead = await t.seed.lead(a.admin, { assigneeIds: [a.member.userId] });
      const res = await api(t, a.admin.key)
        .post(`/v1/leads/${lead.id}/assignees`)
        .send({ userIds: [a.colleague.userId, a.member.userId] });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['lead']);
      expect(res.body.lead.assigneeIds).toEqual([a.member.userId, a.colleague.userId]);
      const changes = (await historyOf(t, lead.id)).filter((r) => r.type === 'assignee-change');
      expect(changes[changes.length - 1].payload).toEqual({
        addedUserIds: [a.colleague.userId],
        removedUserIds: [],
        changedBy: a.admin.userId,
        source: 'api',
      });
    });

    it('answers a member’s key with 403 ORG_ADMIN_REQUIRED on both', async () => {
      const lead = await t.seed.lead(a.member);
      for (const method of ['put', 'post'] as const) {
        const res = await assignees(a.member.key, method, lead.id).send({
          userIds: [a.member.userId, a.colleague.userId],
        });
        expectError(res, 403, 'ORG_ADMIN_REQUIRED');
      }
      const [row] = await sql<{ assignee_ids: string[] }>(t, 'select assignee_ids from leads where id = ?', [
        lead.id,
      ]);
      expect(row.assignee_ids).toEqual([a.member.userId]);
    });

    it('refuses people outside the agency and unknown teams with 400; another agency’s lead is 404', async () => {
      const lead = await t.seed.lead(a.admin);
      const other = await t.seed.agency('Other Agency');
      for (const method of ['put', 'post'] as const) {
        expectValidation(
          await assignees(a.admin.key, method, lead.id).send({ userIds: [other.member.userId] }),
          'assigneeIds',
        );
        expectValidation(
          await assignees(a.admin.key, method, lead.id).send({
            userIds: [],
            teamIds: ['0190a0a0-0000-7000-8000-000000000000'],
          }),
          'teamIds',
        );
        expectValidation(await assignees(a.admin.key, method, lead.id).send({}), 'userIds');
        expectNotFound(
          await assignees(other.admin.key, method, lead.id).send({ userIds: [other.admin.userId] }),
          'Lead',
        );
      }
    });
  });

  describe('writes need crm:write and an active plan; reads do not need a plan', () => {
    it('answers every write with 403 SUBSCRIPTION_REQUIRED when the plan is off, while reads work', async () => {
      const lead = await t.seed.lead(a.admin, { assigneeIds: [a.member.userId] });
      const tag = await t.seed.tag(a.admin, 'VIP');
      await t.seed.plan(a.admin.organizationId, false);
      const admin = api(t, a.admin.key);
      const member = api(t, a.member.key);
      const writes = [
        () => admin.post('/v1/leads').send(leadBody()),
        () => member.post('/v1/leads').send(leadBody()),
        () => admin.patch(`/v1/leads/${lead.id}`).send({ firstName: 'X' }),
        () => member.put(`/v1/leads/${lead.id}/status`).send({ crmStatus: 'client' }),
        () => admin.post('/v1/leads/status').send({ leadIds: [lead.id], crmStatus: 'client' }),
        () => admin.put(`/v1/leads/${lead.id}/tags`).send({ tagIds: [tag.id] }),
        () => admin.put(`/v1/leads/${lead.id}/assignees`).send({ userIds: [] }),
        () => admin.post(`/v1/leads/${lead.id}/assignees`).send({ userIds: [a.colleague.userId] }),
      ];
      for (const write of writes) expectError(await write(), 403, 'SUBSCRIPTION_REQUIRED');
      expect(await count(t, 'select count(*) as n from leads')).toBe(1);
      expect(await count(t, 'select count(*) as n from lead_history')).toBe(2);

      await member.get('/v1/leads').expect(200);
      await member.get('/v1/leads/counts').expect(200);
      const got = await member.get(`/v1/leads/${lead.id}`).expect(200);
      expect(got.body).toMatchObject({ firstName: lead.firstName, crmStatus: 'lead', tags: [] });
      await member.get(`/v1/leads/${lead.id}/timeline`).expect(200);

      await t.seed.plan(a.admin.organizationId, true);
      await member.put(`/v1/leads/${lead.id}/status`).send({ crmStatus: 'client' }).expect(200);
    });

    it('answers a key without crm:write with 403 API_KEY_SCOPE_MISSING on every write', async () => {
      const lead = await t.seed.lead(a.admin);
      const readOnly = api(t, (await t.seed.apiKey(a.admin, ['crm:read'])).key);
      const writes = [
        () => readOnly.post('/v1/leads').send(leadBody()),
        () => readOnly.patch(`/v1/leads/${lead.id}`).send({ firstName: 'X' }),
        () => readOnly.put(`/v1/leads/${lead.id}/status`).send({ crmStatus: 'client' }),
        () => readOnly.post('/v1/leads/status').send({ leadIds: [lead.id], crmStatus: 'client' }),
        () => readOnly.put(`/v1/leads/${lead.id}/tags`).send({ tagIds: [] }),
        () => readOnly.put(`/v1/leads/${lead.id}/assignees`).send({ userIds: [] }),
        () => readOnly.post(`/v1/leads/${lead.id}/assignees`).send({ userIds: [] }),
      ];
      for (const write of writes)
        expectError(await write(), 403, 'API_KEY_SCOPE_MISSING', { missing: ['crm:write'] });
      await readOnly.get(`/v1/leads/${lead.id}`).expect(200);
      expect(await count(t, 'select count(*) as n from leads')).toBe(1);
    });
  });
});
