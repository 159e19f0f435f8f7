import {
  Agency,
  api,
  asSession,
  count,
  expectError,
  expectNotFound,
  expectValidation,
  sql,
  TestApp,
} from '../fixtures';

/**
 * Lead routing's admin routes through HTTP (issue 14 items 1, 5, 6, 9, 10; INTERFACES.md "Lead
 * routing"): routes created, changed, reordered and deleted with positions shifting and closing
 * up, pools replaced, weights checked again, the limits, another organization's routes and people,
 * who may call what, Smart routing, away, the overview's members and problems, and the preview.
 */

interface RouteBody {
  id: string;
  name: string | null;
  position: number;
  userIds: string[];
  teamIds: string[];
  weights: Record<string, number> | null;
  members: { userId: string; teamId: string | null; name: string; weight: number | null }[];
  [field: string]: unknown;
}

const ROUTE_FIELDS = [
  'conditions',
  'dailyCap',
  'id',
  'leadsLast30Days',
  'members',
  'name',
  'paused',
  'position',
  'reassignAfterMinutes',
  'schedule',
  'strategy',
  'summary',
  'teamIds',
  'userIds',
  'weights',
];
/** Spec "Lead route": the Route's fields; the answer adds the stored pool (`userIds`, `teamIds`, `weights`). */
const SPEC_ROUTE_FIELDS = [
  'id',
  'name',
  'summary',
  'conditions',
  'strategy',
  'position',
  'paused',
  'members',
  'schedule',
  'dailyCap',
  'reassignAfterMinutes',
  'leadsLast30Days',
];
const MISSING = '0190a0a0-0000-7000-8000-000000000001';

const condition = (field: string, operator: string, value: unknown = { kind: 'empty' }) => ({
  type: 'condition',
  field,
  operator,
  value,
});
const group = (...children: unknown[]) => ({ type: 'group', combinator: 'and', children });
const strings = (...values: string[]) => ({ kind: 'strings', values });
const spanish = group(condition('language', 'has_any_of', strings('es')));

describe('Lead routing: admin routes', () => {
  let t: TestApp;

  const as = (person: { key: string }) => api(t, person.key);
  const create = async (person: { key: string }, body: Record<string, unknown>): Promise<RouteBody> => {
    const res = await as(person).post('/v1/lead-routing/rules').send(body);
    if (res.status !== 201) throw new Error(`route not created: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as RouteBody;
  };
  const overview = async (person: { key: string }, query = '') =>
    (await as(person).get(`/v1/lead-routing${query}`).expect(200)).body as {
      routes: RouteBody[];
      smartRouting: { enabled: boolean; team: { userId: string; name: string }[] };
      problems: { ruleId: string; code: string; sentence: string }[];
      away: { userId: string; until: string }[];
    };
  const order = async (person: { key: string }) =>
    (await overview(person)).routes.map((route) => [route.name, route.position]);
  /** ISO weekday (1 Monday … 7 Sunday) of the clock's UTC day. */
  const weekday = () => ((t.clock.now().getUTCDay() + 6) % 7) + 1;

  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.stop());

  describe('create, change, reorder and delete', () => {
    let a: Agency;
    beforeAll(async () => {
      a = await t.seed.agency('Routing Agency');
    });

    it('creates at the end or at a position, moves on PATCH, closes up on DELETE; positions stay 0..n-1', async () => {
      const one = await create(a.admin, { name: 'One', userIds: a.admin.userId });
      expect(Object.keys(one).sort()).toEqual(ROUTE_FIELDS);
      expect(ROUTE_FIELDS).toEqual(expect.arrayContaining(SPEC_ROUTE_FIELDS));
      expect(one).toMatchObject({
        name: 'One',
        position: 0,
        strategy: 'round_robin',
        paused: false,
        conditions: null,
        userIds: [a.admin.userId],
        teamIds: [],
        weights: null,
        members: [{ userId: a.admin.userId, teamId: null, name: 'Ana Admin', weight: null }],
        schedule: null,
        dailyCap: null,
        reassignAfterMinutes: null,
        leadsLast30Days: 0,
        summary: 'Every lead goes to Ana Admin.',
      });
      // its fairness state row is made with it
      expect(await count(t, `select count(*) as n from route_state where rule_id = ?`, [one.id])).toBe(1);

      const two = await create(a.admin, { name: 'Two' });
      expect(two.position).toBe(1);
      const three = await create(a.admin, { name: 'Three', position: 0 });
      expect(three.position).toBe(0);
      const four = await create(a.admin, { name: 'Four', position: 99 });
      expect(four.position).toBe(3);
      expect(await order(a.admin)).toEqual([
        ['Three', 0],
        ['One', 1],
        ['Two', 2],
        ['Four', 3],
      ]);

      const moved = await as(a.admin)
        .patch(`/v1/lead-routing/rules/${four.id}`)
        .send({ position: 1 })
        .expect(200);
      expect(moved.body).toMatchObject({ id: four.id, name: 'Four', position: 1 });
      expect(await order(a.admin)).toEqual([
        ['Three', 0],
        ['Four', 1],
        ['One', 2],
        ['Two', 3],
      ]);

      const deleted = await as(a.admin).delete(`/v1/lead-routing/rules/${three.id}`).expect(200);
      expect(deleted.body).toEqual({ deleted: true, ruleId: three.id });
      expect(await order(a.admin)).toEqual([
        ['Four', 0],
        ['One', 1],
        ['Two', 2],
      ]);
      expect(await count(t, `select count(*) as n from route_state where rule_id = ?`, [three.id])).toBe(0);
      expectNotFound(await as(a.admin).delete(`/v1/lead-routing/rules/${three.id}`), 'Route');
      expectNotFound(
        await as(a.admin).patch(`/v1/lead-routing/rules/${three.id}`).send({ name: 'x' }),
        'Route',
      );

      // reorder: every id once
      const reordered = await as(a.admin)
        .put('/v1/lead-routing/rules/order')
        .send({ ruleIds: [two.id, one.id, four.id] })
        .expect(200);
      expect(reordered.body.routes.map((route: RouteBody) => [route.name, route.position])).toEqual([
        ['Two', 0],
        ['One', 1],
        ['Four', 2],
      ]);
      expect(Object.keys(reordered.body)).toEqual(['routes']);
      expect(await order(a.admin)).toEqual([
        ['Two', 0],
        ['One', 1],
        ['Four', 2],
      ]);
      const put = (ruleIds: unknown) => as(a.admin).put('/v1/lead-routing/rules/order').send({ ruleIds });
      expectValidation(await put([two.id, one.id]), 'ruleIds');
      expectValidation(await put([two.id, one.id, four.id, one.id]), 'ruleIds[3]');
      expectValidation(await put([two.id, one.id, MISSING]), 'ruleIds[2]');
      expectValidation(await put(['nope']), 'ruleIds');
      expectValidation(await put(undefined), 'ruleIds');
      expect(await order(a.admin)).toEqual([
        ['Two', 0],
        ['One', 1],
        ['Four', 2],
      ]);
    });

    it('replays a create with the same Idempotency-Key, and parallel creates take distinct positions', async () => {
      const b = await t.seed.agency('Idempotent Routing Agency');
      const send = () =>
        as(b.admin).post('/v1/lead-routing/rules').set('Idempotency-Key', 'route-1').send({ name: 'Once' });
      const first = await send().expect(201);
      const again = await send().expect(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body.id).toBe(first.body.id);
      await Promise.all(
        ['P1', 'P2', 'P3', 'P4', 'P5'].map((name) =>
          as(b.admin).post('/v1/lead-routing/rules').send({ name, position: 0 }).expect(201),
        ),
      );
      const routes = (await overview(b.admin)).routes;
      expect(routes.map((route) => route.position)).toEqual([0, 1, 2, 3, 4, 5]);
      expect(routes.at(-1)?.name).toBe('Once');
    });

    it("drops a deleted route's pending reassignments", async () => {
      const route = await create(a.admin, {
        name: 'Reassigning',
        userIds: a.member.userId,
        reassignAfterMinutes: 30,
      });
      const lead = await t.seed.lead(a.admin);
      const now = t.clock.now();
      await sql(
        t,
        `insert into routing_decisions (id, organization_id, lead_id, at, trigger, rule_id, route_name, strategy,
           smart_routing, user_id, why, steps, reassign_due_at, reassign_state)
         values (gen_random_uuid(), ?, ?, ?, 'intake', ?, 'Reassigning', 'round_robin', false, ?, 'test', '[]', ?, 'pending')`,
        [
          a.admin.organizationId,
          lead.id,
          now,
          route.id,
          a.member.userId,
          new Date(now.getTime() + 30 * 60_000),
        ],
      );
      expect((await overview(a.admin)).routes.find((r) => r.id === route.id)?.leadsLast30Days).toBe(1);
      await as(a.admin).delete(`/v1/lead-routing/rules/${route.id}`).expect(200);
      expect(
        await sql(t, `select reassign_state from routing_decisions where rule_id = ?`, [route.id]),
      ).toEqual([{ reassign_state: 'dropped' }]);
    });

    it('counts leadsLast30Days within `days`', async () => {
      const route = await create(a.admin, { name: 'Counted', userIds: a.member.userId });
      const lead = await t.seed.lead(a.admin);
      const now = t.clock.now().getTime();
      for (const daysAgo of [1, 10, 40]) {
        await sql(
          t,
          `insert into routing_decisions (id, organization_id, lead_id, at, trigger, rule_id, smart_routing, user_id, why, steps)
           values (gen_random_uuid(), ?, ?, ?, 'intake', ?, false, ?, 'test', '[]')`,
          [a.admin.organizationId, lead.id, new Date(now - daysAgo * 86_400_000), route.id, a.member.userId],
        );
      }
      const counted = async (query: string) =>
        (await overview(a.admin, query)).routes.find((r) => r.id === route.id)?.leadsLast30Days;
      expect(await counted('')).toBe(2);
      expect(await counted('?days=5')).toBe(1);
      expect(await counted('?days=90')).toBe(3);
      expectValidation(await as(a.admin).get('/v1/lead-routing?days=0'), 'days');
      expectValidation(await as(a.admin).get('/v1/lead-routing?days=91'), 'days');
      expectValidation(await as(a.admin).get('/v1/lead-routing?days=ten'), 'days');
      await as(a.admin).delete(`/v1/lead-routing/rules/${route.id}`).expect(200);
    });
  });

  describe('pools and weights', () => {
    let a: Agency;
    beforeAll(async () => {
      a = await t.seed.agency('Pool Agency');
    });

    it('replaces the pool when userIds or teamIds is sent, restarting the weighted counters', async () => {
      const team = await t.seed.team(a.admin, 'Sales', [a.member.userId, a.colleague.userId]);
      const route = await create(a.admin, { userIds: [a.admin.userId], teamIds: team.id });
      expect(route).toMatchObject({ userIds: [a.admin.userId], teamIds: [team.id] });
      await sql(t, `update route_state set received = '{"x": 3}' where rule_id = ?`, [route.id]);

      // a change that leaves the pool alone keeps the counters
      await as(a.admin).patch(`/v1/lead-routing/rules/${route.id}`).send({ name: 'Renamed' }).expect(200);
      expect(await sql(t, `select received from route_state where rule_id = ?`, [route.id])).toEqual([
        { received: { x: 3 } },
      ]);

      const res = await as(a.admin)
        .patch(`/v1/lead-routing/rules/${route.id}`)
        .send({ userIds: a.member.userId })
        .expect(200);
      expect(res.body).toMatchObject({
        name: 'Renamed',
        userIds: [a.member.userId],
        teamIds: [],
        members: [{ userId: a.member.userId, teamId: null, name: 'Mia Member', weight: null }],
      });
      expect(await sql(t, `select received from route_state where rule_id = ?`, [route.id])).toEqual([
        { received: {} },
      ]);
      const teamOnly = await as(a.admin)
        .patch(`/v1/lead-routing/rules/${route.id}`)
        .send({ teamIds: [team.id] })
        .expect(200);
      expect(teamOnly.body).toMatchObject({ userIds: [], teamIds: [team.id] });
    });

    it('checks weights again on every change', async () => {
      const { admin, member, colleague } = a;
      const weighted = await create(admin, {
        strategy: 'weighted',
        userIds: [admin.userId, member.userId],
        weights: { [admin.userId]: 60, [member.userId]: 40 },
      });
      expect(weighted.members).toEqual([
        { userId: admin.userId, teamId: null, name: 'Ana Admin', weight: 60 },
        { userId: member.userId, teamId: null, name: 'Mia Member', weight: 40 },
      ]);
      expect(weighted.summary).toBe('Every lead goes to Ana Admin (60%) and Mia Member (40%) by weight.');
      const patch = (body: Record<string, unknown>) =>
        as(admin).patch(`/v1/lead-routing/rules/${weighted.id}`).send(body);

      // a new pool without weights for it
      expectValidation(await patch({ userIds: [member.userId, colleague.userId] }), 'weights');
      expectValidation(await patch({ weights: { [admin.userId]: 60, [member.userId]: 39 } }), 'weights');
      expectValidation(await patch({ teamIds: [MISSING] }), 'teamIds');
      const ok = await patch({
        userIds: [member.userId, colleague.userId],
        weights: { [member.userId]: 50, [colleague.userId]: 50 },
      }).expect(200);
      expect(ok.body.weights).toEqual({ [member.userId]: 50, [colleague.userId]: 50 });

      // another strategy drops the stored weights
      const roundRobin = await patch({ strategy: 'round_robin' }).expect(200);
      expect(roundRobin.body).toMatchObject({ strategy: 'round_robin', weights: null });
      expect(roundRobin.body.members.map((m: { weight: unknown }) => m.weight)).toEqual([null, null]);

      // on create: 99 in total, weights on round robin, teams on weighted
      expectValidation(
        await as(admin)
          .post('/v1/lead-routing/rules')
          .send({
            strategy: 'weighted',
            userIds: [admin.userId, member.userId],
            weights: { [admin.userId]: 50, [member.userId]: 49 },
          }),
        'weights',
      );
      expectValidation(
        await as(admin)
          .post('/v1/lead-routing/rules')
          .send({ userIds: [admin.userId], weights: { [admin.userId]: 100 } }),
        'weights',
      );
      const team = await t.seed.team(admin, 'Weighted team', [member.userId]);
      expectValidation(
        await as(admin)
          .post('/v1/lead-routing/rules')
          .send({
            strategy: 'weighted',
            userIds: [admin.userId],
            teamIds: [team.id],
            weights: { [admin.userId]: 100 },
          }),
        'teamIds',
      );
    });

    it('lists members: named users first, then team members by name with the team that brought them, no repeats', async () => {
      const { admin, member, colleague } = a;
      const first = await t.seed.team(admin, 'First', [member.userId, colleague.userId, admin.userId]);
      const second = await t.seed.team(admin, 'Second', [admin.userId, member.userId]);
      const route = await create(admin, { userIds: [colleague.userId], teamIds: [second.id, first.id] });
      expect(route.members).toEqual([
        { userId: colleague.userId, teamId: null, name: 'Cole Member', weight: null },
        { userId: admin.userId, teamId: second.id, name: 'Ana Admin', weight: null },
        { userId: member.userId, teamId: second.id, name: 'Mia Member', weight: null },
      ]);
      const listed = (await overview(admin)).routes.find((r) => r.id === route.id);
      expect(listed?.members).toEqual(route.members);
    });
  });

  describe('limits and refusals', () => {
    let a: Agency;
    let other: Agency;
    beforeAll(async () => {
      a = await t.seed.agency('Limits Agency');
      other = await t.seed.agency('Other Routing Agency');
    });

    it('refuses values out of range with the path of each', async () => {
      const post = (body: Record<string, unknown>) => as(a.admin).post('/v1/lead-routing/rules').send(body);
      expectValidation(await post({ name: 'x'.repeat(81) }), 'name');
      await post({ name: 'x'.repeat(80) }).expect(201);
      expectValidation(await post({ dailyCap: 0 }), 'dailyCap');
      expectValidation(await post({ dailyCap: 1001 }), 'dailyCap');
      await post({ dailyCap: 1000 }).expect(201);
      expectValidation(await post({ reassignAfterMinutes: 4 }), 'reassignAfterMinutes');
      expectValidation(await post({ reassignAfterMinutes: 10081 }), 'reassignAfterMinutes');
      await post({ reassignAfterMinutes: 5 }).expect(201);
      expectValidation(await post({ strategy: 'random' }), 'strategy');
      expectValidation(await post({ position: -1 }), 'position');
      expectValidation(await post({ position: 1.5 }), 'position');
      expectValidation(await post({ paused: 'yes' }), 'paused');
      expectValidation(
        await post({ conditions: group(condition('assignee', 'has_any_of', strings('$me'))) }),
        'conditions.children[0].field',
      );
      expectValidation(
        await post({ conditions: group(condition('source', 'has_any_of', strings('$me'))) }),
        'conditions.children[0].value.values[0]',
      );
      expectValidation(
        await post({ schedule: { zone: 'Mars/Olympus', days: [{ day: 8, from: '18:00', to: '09:00' }] } }),
        'schedule.zone',
        'schedule.days[0].day',
        'schedule.days[0].to',
      );
      // a PATCH is checked the same way, nothing changes
      const route = await create(a.admin, { name: 'Kept' });
      expectValidation(
        await as(a.admin)
          .patch(`/v1/lead-routing/rules/${route.id}`)
          .send({ name: 'y'.repeat(81) }),
        'name',
      );
      expectValidation(
        await as(a.admin).patch(`/v1/lead-routing/rules/${route.id}`).send({ dailyCap: 1001 }),
        'dailyCap',
      );
      expect((await overview(a.admin)).routes.find((r) => r.id === route.id)).toMatchObject({
        name: 'Kept',
        dailyCap: null,
      });
      expectValidation(await as(a.admin).patch(`/v1/lead-routing/rules/not-a-uuid`).send({}), 'ruleId');
    });

    it("answers 404 for another organization's route and 400 for its people and teams", async () => {
      const theirs = await create(other.admin, { name: 'Theirs' });
      expectNotFound(
        await as(a.admin).patch(`/v1/lead-routing/rules/${theirs.id}`).send({ name: 'Mine' }),
        'Route',
      );
      expectNotFound(await as(a.admin).delete(`/v1/lead-routing/rules/${theirs.id}`), 'Route');
      expectNotFound(await as(a.admin).patch(`/v1/lead-routing/rules/${MISSING}`).send({}), 'Route');
      expect((await overview(other.admin)).routes.map((r) => r.name)).toEqual(['Theirs']);

      const theirTeam = await t.seed.team(other.admin, 'Their team', [other.member.userId]);
      const post = (body: Record<string, unknown>) => as(a.admin).post('/v1/lead-routing/rules').send(body);
      expectValidation(await post({ userIds: [a.member.userId, other.member.userId] }), 'userIds[1]');
      expectValidation(await post({ teamIds: theirTeam.id }), 'teamIds[0]');
      const mine = await create(a.admin, { userIds: a.member.userId });
      expectValidation(
        await as(a.admin)
          .patch(`/v1/lead-routing/rules/${mine.id}`)
          .send({ userIds: [other.admin.userId] }),
        'userIds[0]',
      );
      expectValidation(
        await as(a.admin)
          .put('/v1/lead-routing/smart')
          .send({ enabled: true, userIds: [other.member.userId] }),
        'userIds[0]',
      );
      expectValidation(
        await as(a.admin)
          .put('/v1/lead-routing/smart')
          .send({ enabled: true, teamIds: [theirTeam.id] }),
        'teamIds[0]',
      );
      expectValidation(
        await as(a.admin).put('/v1/lead-routing/away').send({ userId: other.member.userId, until: null }),
        'userId',
      );
    });
  });

  describe('access', () => {
    it('answers 403 ORG_ADMIN_REQUIRED to a member on every admin route; away is open to members', async () => {
      const a = await t.seed.agency('Access Agency');
      const route = await create(a.admin, { name: 'Admin made' });
      const lead = await t.seed.lead(a.member);
      const member = as(a.member);
      const calls = [
        member.get('/v1/lead-routing'),
        member.post('/v1/lead-routing/preview').send({ leadId: lead.id }),
        member.post('/v1/lead-routing/rules').send({ name: 'Mine' }),
        member.patch(`/v1/lead-routing/rules/${route.id}`).send({ name: 'Mine' }),
        member.delete(`/v1/lead-routing/rules/${route.id}`),
        member.put('/v1/lead-routing/rules/order').send({ ruleIds: [route.id] }),
        member.put('/v1/lead-routing/smart').send({ enabled: true }),
        member.post('/v1/lead-routing/route-unassigned'),
      ];
      for (const res of await Promise.all(calls)) expectError(res, 403, 'ORG_ADMIN_REQUIRED');
      await member.put('/v1/lead-routing/away').send({ until: null }).expect(200);
      // the admin's calls work
      await as(a.admin).post('/v1/lead-routing/route-unassigned').expect(200, {
        considered: 0,
        assigned: 0,
        leftWaiting: 0,
      });
      expectError(await as(a.admin).post('/v1/lead-routing/route-unassigned').send({}), 400, 'BAD_REQUEST');
      // a session is not a /v1 credential
      expectError(await asSession(t.http.get('/v1/lead-routing'), a.admin), 401, 'UNAUTHENTICATED');
    });

    it('answers 403 SUBSCRIPTION_REQUIRED on every route, away included, without an active plan', async () => {
      const a = await t.seed.agency('No Plan Agency');
      const route = await create(a.admin, { name: 'Before' });
      const lead = await t.seed.lead(a.admin);
      await t.seed.plan(a.admin.organizationId, false);
      const admin = as(a.admin);
      const calls = [
        admin.get('/v1/lead-routing'),
        admin.post('/v1/lead-routing/preview').send({ leadId: lead.id }),
        admin.post('/v1/lead-routing/rules').send({ name: 'After' }),
        admin.patch(`/v1/lead-routing/rules/${route.id}`).send({ name: 'After' }),
        admin.delete(`/v1/lead-routing/rules/${route.id}`),
        admin.put('/v1/lead-routing/rules/order').send({ ruleIds: [route.id] }),
        admin.put('/v1/lead-routing/smart').send({ enabled: true }),
        admin.post('/v1/lead-routing/route-unassigned'),
        admin.put('/v1/lead-routing/away').send({ until: null }),
        as(a.member).put('/v1/lead-routing/away').send({ until: null }),
      ];
      for (const res of await Promise.all(calls)) expectError(res, 403, 'SUBSCRIPTION_REQUIRED');
      await t.seed.plan(a.admin.organizationId, true);
      await admin.get('/v1/lead-routing').expect(200);
    });

    it('needs crm:write for writes and crm:read for reads', async () => {
      const a = await t.seed.agency('Scope Agency');
      const readOnly = (await t.seed.apiKey(a.admin, ['crm:read'])).key;
      await api(t, readOnly).get('/v1/lead-routing').expect(200);
      expectError(
        await api(t, readOnly).post('/v1/lead-routing/rules').send({}),
        403,
        'API_KEY_SCOPE_MISSING',
      );
      expectError(
        await api(t, readOnly).put('/v1/lead-routing/away').send({ until: null }),
        403,
        'API_KEY_SCOPE_MISSING',
      );
    });
  });

  describe('Smart routing', () => {
    it('is off with every active member until set; sending people replaces the team', async () => {
      const a = await t.seed.agency('Smart Agency');
      const everyone = [
        { userId: a.admin.userId, name: 'Ana Admin' },
        { userId: a.colleague.userId, name: 'Cole Member' },
        { userId: a.member.userId, name: 'Mia Member' },
      ];
      expect((await overview(a.admin)).smartRouting).toEqual({ enabled: false, team: everyone });
      const put = (body: Record<string, unknown>) => as(a.admin).put('/v1/lead-routing/smart').send(body);
      expect((await put({ enabled: true }).expect(200)).body).toEqual({ enabled: true, team: everyone });

      expect((await put({ enabled: true, userIds: [a.member.userId] }).expect(200)).body).toEqual({
        enabled: true,
        team: [{ userId: a.member.userId, name: 'Mia Member' }],
      });
      const team = await t.seed.team(a.admin, 'Closers', [a.member.userId, a.admin.userId]);
      expect(
        (await put({ enabled: true, userIds: [a.colleague.userId], teamIds: [team.id] }).expect(200)).body,
      ).toEqual({
        enabled: true,
        team: [
          { userId: a.colleague.userId, name: 'Cole Member' },
          { userId: a.admin.userId, name: 'Ana Admin' },
          { userId: a.member.userId, name: 'Mia Member' },
        ],
      });
      // the switch alone keeps the team
      const off = (await put({ enabled: false }).expect(200)).body;
      expect(off.enabled).toBe(false);
      expect(off.team).toHaveLength(3);
      expect((await overview(a.admin)).smartRouting).toEqual(off);
      // teams only: the users go
      expect((await put({ enabled: true, teamIds: [team.id] }).expect(200)).body.team).toEqual([
        { userId: a.admin.userId, name: 'Ana Admin' },
        { userId: a.member.userId, name: 'Mia Member' },
      ]);
      // an empty team is a choice too
      expect((await put({ enabled: true, userIds: [] }).expect(200)).body).toEqual({
        enabled: true,
        team: [],
      });

      expectValidation(await put({}), 'enabled');
      expectValidation(await put({ enabled: 'yes' }), 'enabled');
      expectValidation(await put({ enabled: true, userIds: ['nope'] }), 'userIds');
    });
  });

  describe('away', () => {
    it('lets members set themselves and admins anyone; a date is 00:00 UTC; past or null is back now', async () => {
      const a = await t.seed.agency('Away Agency');
      const now = t.clock.now();
      const inDays = (days: number) => new Date(now.getTime() + days * 86_400_000);
      const soon = inDays(2).toISOString();

      const mine = await as(a.member).put('/v1/lead-routing/away').send({ until: soon }).expect(200);
      expect(mine.body).toEqual({ userId: a.member.userId, until: soon });
      expectError(
        await as(a.member).put('/v1/lead-routing/away').send({ userId: a.colleague.userId, until: soon }),
        403,
        'FORBIDDEN',
      );
      // naming themselves is fine
      await as(a.member)
        .put('/v1/lead-routing/away')
        .send({ userId: a.member.userId, until: soon })
        .expect(200);

      const date = inDays(10).toISOString().slice(0, 10);
      const theirs = await as(a.admin)
        .put('/v1/lead-routing/away')
        .send({ userId: a.colleague.userId, until: date })
        .expect(200);
      expect(theirs.body).toEqual({ userId: a.colleague.userId, until: `${date}T00:00:00.000Z` });
      const offset = await as(a.admin)
        .put('/v1/lead-routing/away')
        .send({ until: '2099-01-01T10:00:00+02:00' })
        .expect(200);
      expect(offset.body).toEqual({ userId: a.admin.userId, until: '2099-01-01T08:00:00.000Z' });
      expect((await overview(a.admin)).away).toEqual([
        { userId: a.member.userId, until: soon },
        { userId: a.colleague.userId, until: `${date}T00:00:00.000Z` },
        { userId: a.admin.userId, until: '2099-01-01T08:00:00.000Z' },
      ]);

      // back now: a past time, or null
      const past = await as(a.admin)
        .put('/v1/lead-routing/away')
        .send({ userId: a.admin.userId, until: inDays(-1).toISOString() })
        .expect(200);
      expect(past.body).toEqual({ userId: a.admin.userId, until: null });
      const back = await as(a.admin)
        .put('/v1/lead-routing/away')
        .send({ userId: a.colleague.userId, until: null })
        .expect(200);
      expect(back.body).toEqual({ userId: a.colleague.userId, until: null });
      expect((await overview(a.admin)).away).toEqual([{ userId: a.member.userId, until: soon }]);
      expect(
        await count(t, `select count(*) as n from routing_away where organization_id = ?`, [
          a.admin.organizationId,
        ]),
      ).toBe(1);

      // listed only while in the future
      t.clock.advance(3 * 86_400_000);
      try {
        expect((await overview(a.admin)).away).toEqual([]);
      } finally {
        t.clock.advance(-3 * 86_400_000);
      }

      const put = (body: Record<string, unknown>) => as(a.admin).put('/v1/lead-routing/away').send(body);
      expectValidation(await put({}), 'until');
      expectValidation(await put({ until: 'tomorrow' }), 'until');
      expectValidation(await put({ until: '2026-02-30' }), 'until');
      expectValidation(await put({ until: '2099-01-01T10:00:00' }), 'until');
      expectValidation(await put({ until: 5 }), 'until');
      expectValidation(await put({ until: null, userId: 'nope' }), 'userId');
      expectValidation(await put({ until: null, userId: MISSING }), 'userId');
    });
  });

  describe('problems', () => {
    it('names every problem code, one sentence each', async () => {
      const a = await t.seed.agency('Problem Agency');
      const { admin, member, colleague } = a;
      const zed = await t.seed.member(admin, 'member', 'Zed');
      const empty = await create(admin, { name: 'Empty', conditions: spanish });
      const allAway = await create(admin, { name: 'Away', conditions: spanish, userIds: [colleague.userId] });
      await as(colleague)
        .put('/v1/lead-routing/away')
        .send({ until: new Date(t.clock.now().getTime() + 86_400_000).toISOString() })
        .expect(200);
      const weights = await create(admin, {
        name: 'Weights',
        conditions: spanish,
        strategy: 'weighted',
        userIds: [member.userId, zed.userId],
        weights: { [member.userId]: 50, [zed.userId]: 50 },
      });
      const never = await create(admin, {
        name: 'Never',
        conditions: spanish,
        userIds: [member.userId],
        schedule: { zone: 'Europe/Madrid', days: [] },
      });
      const capped = await create(admin, {
        name: 'Capped',
        conditions: spanish,
        userIds: [member.userId],
        dailyCap: 2,
      });
      const today = t.clock.now().toISOString().slice(0, 10);
      await sql(t, `update route_state set today_day = ?, today_counts = ?::jsonb where rule_id = ?`, [
        today,
        JSON.stringify({ [member.userId]: 2 }),
        capped.id,
      ]);
      const catchAll = await create(admin, { name: 'Everything', userIds: [admin.userId] });
      const after = await create(admin, { name: 'After', userIds: [admin.userId] });
      // a paused catch-all hides nothing
      await create(admin, { name: 'Paused', paused: true, userIds: [admin.userId], position: 0 });

      // Zed leaves: the weights of the people left total 50
      await asSession(t.http.delete(`/organization/members/${zed.userId}`), admin).expect(204);

      const { problems } = await overview(admin);
      expect(problems.map(({ ruleId, code }) => [ruleId, code])).toEqual([
        [empty.id, 'EMPTY_POOL'],
        [allAway.id, 'ALL_AWAY'],
        [weights.id, 'WEIGHTS_NOT_100'],
        [never.id, 'NEVER_OPEN'],
        [capped.id, 'DAILY_CAP_REACHED'],
        [after.id, 'UNREACHABLE'],
      ]);
      for (const problem of problems) {
        expect(Object.keys(problem).sort()).toEqual(['code', 'ruleId', 'sentence']);
        expect(problem.sentence).toMatch(/^[A-Z].*\.$/);
      }
      expect(problems.find((p) => p.code === 'UNREACHABLE')?.sentence).toContain('"Everything"');
      expect(problems.find((p) => p.code === 'WEIGHTS_NOT_100')?.sentence).toContain('total 50');
      expect(catchAll.summary).toBe('Every lead goes to Ana Admin.');
      expect(never.summary).toBe('Leads in Spanish go to Mia Member, never (the schedule has no open time).');
      // the weighted route still lists the people in the organization now
      const route = (await overview(admin)).routes.find((r) => r.id === weights.id);
      expect(route?.members).toEqual([
        { userId: member.userId, teamId: null, name: 'Mia Member', weight: 50 },
      ]);
      expect(route?.userIds).toEqual([member.userId, zed.userId]);
      // a change that does not touch the pool keeps the one who left (no 400)
      await as(admin).patch(`/v1/lead-routing/rules/${weights.id}`).send({ name: 'Weights 2' }).expect(200);
    });
  });

  describe('preview', () => {
    let a: Agency;
    let other: Agency;
    beforeAll(async () => {
      a = await t.seed.agency('Preview Agency');
      other = await t.seed.agency('Other Preview Agency');
    });
    const preview = (body: unknown) =>
      as(a.admin)
        .post('/v1/lead-routing/preview')
        .send(body as object);

    it('refuses another organization’s lead and facts of the wrong type', async () => {
      const theirs = await t.seed.lead(other.admin);
      expectNotFound(await preview({ leadId: theirs.id }), 'Lead');
      expectNotFound(await preview({ leadId: 999_999_999 }), 'Lead');
      const lead = await t.seed.lead(a.admin);
      expectValidation(await preview({}), 'leadId');
      expectValidation(await preview({ leadId: 'one' }), 'leadId');
      expectValidation(await preview({ leadId: 1.5 }), 'leadId');
      expectValidation(await preview({ leadId: lead.id, facts: 'idealista' }), 'facts');
      expectValidation(await preview({ leadId: lead.id, facts: { source: 5 } }), 'facts.source');
      expectValidation(await preview({ leadId: lead.id, facts: { tagIds: ['x'] } }), 'facts.tagIds');
      expectValidation(await preview({ leadId: lead.id, facts: { tagIds: 'x' } }), 'facts.tagIds');
      expectValidation(await preview({ leadId: lead.id, facts: { hasPhone: 'yes' } }), 'facts.hasPhone');
      expectValidation(await preview({ leadId: lead.id, facts: { hasEmail: 1 } }), 'facts.hasEmail');
      expectValidation(
        await preview({ leadId: lead.id, facts: { arrivedAt: 'yesterday' } }),
        'facts.arrivedAt',
      );
      await preview({ leadId: lead.id, facts: {} }).expect(200);
    });

    it('answers each step: paused, no_match, closed, nobody_available with who was skipped, then assigned', async () => {
      const { admin, member, colleague } = a;
      const paused = await create(admin, { name: 'Paused', paused: true, userIds: [admin.userId] });
      const idealista = await create(admin, {
        name: 'Idealista',
        conditions: group(condition('source', 'has_any_of', strings('idealista'))),
        userIds: [admin.userId],
      });
      const tomorrow = (weekday() % 7) + 1;
      const closed = await create(admin, {
        name: 'Closed today',
        userIds: [admin.userId],
        schedule: { zone: 'UTC', days: [{ day: tomorrow, from: '00:00', to: '24:00' }] },
      });
      const away = await create(admin, { name: 'Away', userIds: [colleague.userId] });
      await as(admin)
        .put('/v1/lead-routing/away')
        .send({ userId: colleague.userId, until: '2099-01-01' })
        .expect(200);
      const open = await create(admin, { name: 'Open', userIds: [member.userId] });
      const lead = await t.seed.lead(admin);

      const res = await preview({ leadId: lead.id }).expect(200);
      expect(Object.keys(res.body).sort()).toEqual(
        ['ruleId', 'routeName', 'smartRouting', 'steps', 'userId', 'userName', 'why'].sort(),
      );
      expect(res.body).toMatchObject({
        ruleId: open.id,
        routeName: 'Open',
        smartRouting: false,
        userId: member.userId,
        userName: 'Mia Member',
        why: expect.stringContaining('Open'),
      });
      expect(res.body.steps).toEqual([
        { ruleId: paused.id, outcome: 'paused', skipped: [] },
        { ruleId: idealista.id, outcome: 'no_match', skipped: [] },
        { ruleId: closed.id, outcome: 'closed', skipped: [] },
        {
          ruleId: away.id,
          outcome: 'nobody_available',
          skipped: [{ userId: colleague.userId, reason: 'away' }],
        },
        { ruleId: open.id, outcome: 'assigned', skipped: [] },
      ]);

      // facts override the lead's own
      const fromIdealista = await preview({ leadId: lead.id, facts: { source: 'idealista' } }).expect(200);
      expect(fromIdealista.body).toMatchObject({
        ruleId: idealista.id,
        userId: admin.userId,
        userName: 'Ana Admin',
      });
      expect(fromIdealista.body.steps.map((step: { outcome: string }) => step.outcome)).toEqual([
        'paused',
        'assigned',
      ]);

      // nobody takes it: Smart routing when on, else unassigned
      await as(admin).patch(`/v1/lead-routing/rules/${open.id}`).send({ paused: true }).expect(200);
      const waiting = await preview({ leadId: lead.id }).expect(200);
      expect(waiting.body).toMatchObject({ ruleId: null, userId: null, userName: null, smartRouting: false });
      expect(waiting.body.steps.at(-1)).toEqual({ ruleId: null, outcome: 'unassigned', skipped: [] });
      await as(admin)
        .put('/v1/lead-routing/smart')
        .send({ enabled: true, userIds: [member.userId] })
        .expect(200);
      const smart = await preview({ leadId: lead.id }).expect(200);
      expect(smart.body).toMatchObject({ ruleId: null, smartRouting: true, userId: member.userId });
      expect(smart.body.steps.at(-1)).toMatchObject({ ruleId: null, outcome: 'smart_routing' });

      // the preview wrote nothing
      expect(await count(t, `select count(*) as n from routing_decisions where lead_id = ?`, [lead.id])).toBe(
        0,
      );
      expect(await sql(t, `select last_assignee_id from route_state where rule_id = ?`, [open.id])).toEqual([
        { last_assignee_id: null },
      ]);
      const [{ assignee_ids }] = await sql<{ assignee_ids: string[] }>(
        t,
        `select assignee_ids from leads where id = ?`,
        [lead.id],
      );
      expect(assignee_ids).toEqual(lead.assigneeIds);
    });
  });
});
