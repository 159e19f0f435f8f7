import { Client } from 'pg';
import { SYSTEM_QUEUE_DEFINITION } from '@app/queues';
import { BACKFILL_SYSTEM_QUEUES } from '../../migrations/Migration20261124090000_queues';
import {
  Agency,
  api,
  count,
  expectError,
  expectNotFound,
  expectValidation,
  LeadJson,
  sql,
  TestApp,
} from '../fixtures';

/**
 * Queues through HTTP (issue 13 items 4-7, INTERFACES.md "Queues"): the sidebar list and its
 * order, create/read/change/delete with every access rule and QUEUE_* code, the audience, the
 * per-person limit, the system queue, and the preview (one statement, populations, `$me`, lanes,
 * rows, cool-down, offers) on the real database.
 */

interface QueueBody {
  id: string;
  name: string;
  mine: boolean;
  system: boolean;
  scope: string;
  [field: string]: unknown;
}

const condition = (field: string, operator: string, value: unknown) => ({
  type: 'condition',
  field,
  operator,
  value,
});
const group = (...children: unknown[]) => ({ type: 'group', combinator: 'and', children });
const strings = (...values: string[]) => ({ kind: 'strings', values });
const MISSING = '0190a0a0-0000-7000-8000-000000000001';

const QUEUE_FIELDS = [
  'audience',
  'calling',
  'description',
  'icon',
  'id',
  'lanes',
  'mine',
  'name',
  'rest',
  'root',
  'rules',
  'scope',
  'sort',
  'summary',
  'system',
  'updatedAt',
];

describe('Queues: routes and preview', () => {
  let t: TestApp;
  let a: Agency;
  let other: Agency;

  const as = (person: { key: string }) => api(t, person.key);
  const create = async (person: { key: string }, body: Record<string, unknown>): Promise<QueueBody> => {
    const res = await as(person).post('/v1/queues').send(body);
    if (res.status !== 201) throw new Error(`queue not created: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as QueueBody;
  };
  const systemQueueOf = async (person: { key: string }): Promise<QueueBody> => {
    const res = await as(person).get('/v1/queues').expect(200);
    return (res.body.queues as QueueBody[]).find((queue) => queue.system)!;
  };

  beforeAll(async () => {
    t = await TestApp.start();
    a = await t.seed.agency('Casa Agency');
    other = await t.seed.agency('Other Agency');
  });
  afterAll(() => t.stop());

  describe('the system queue', () => {
    it('is made with the first read, once, shared with everyone, and refuses every change', async () => {
      const [fromMember, fromAdmin] = await Promise.all([
        as(a.member).get('/v1/queues').expect(200),
        as(a.admin).get('/v1/queues').expect(200),
      ]);
      expect(
        await count(t, `select count(*) as n from queues where organization_id = ? and system`, [
          a.admin.organizationId,
        ]),
      ).toBe(1);
      const system = fromMember.body.queues[0] as Record<string, unknown>;
      expect(fromAdmin.body.queues[0].id).toBe(system.id);
      expect(Object.keys(system).sort()).toEqual(QUEUE_FIELDS);
      expect(system).toMatchObject({
        name: 'My calls',
        system: true,
        mine: false,
        scope: 'shared',
        root: group(condition('assignee', 'has_any_of', strings('$me'))),
        rest: 'last',
        calling: { pool: 'owners', coolDownMinutes: 120, people: null },
        rules: [],
      });
      expect((system.lanes as { id: string }[]).map((lane) => lane.id)).toEqual([
        'overdue',
        'due-today',
        'new',
        'not-reached',
      ]);
      // the migration's frozen copy of the definition is the code's
      const [row] = await sql<{ definition: unknown }>(t, `select definition from queues where id = ?`, [
        system.id,
      ]);
      const { name: _n, icon: _i, scope: _s, ...definition } = SYSTEM_QUEUE_DEFINITION;
      expect(row.definition).toEqual(definition);
      expect(system.description).toMatchObject({ lanes: expect.any(Array), rules: [] });
      expect((system.description as { lanes: unknown[] }).lanes).toHaveLength(4);

      const id = system.id as string;
      expectError(await as(a.admin).patch(`/v1/queues/${id}`).send({ name: 'Mine' }), 403, 'QUEUE_IS_SYSTEM');
      expectError(await as(a.admin).delete(`/v1/queues/${id}`), 403, 'QUEUE_IS_SYSTEM');
      expectError(
        await as(a.admin).put(`/v1/queues/${id}/audience`).send({ userIds: [] }),
        403,
        'QUEUE_IS_SYSTEM',
      );
      await as(a.member).get(`/v1/queues/${id}`).expect(200);
      // another organization's system queue is not openable
      expectNotFound(await as(other.admin).get(`/v1/queues/${id}`), 'Queue');
    });
    it('is backfilled by the migration for organizations made before queues, once', async () => {
      const older = await t.seed.withKey(await t.seed.organization({ name: 'Older Agency' }));
      const systemRows = () =>
        sql<{ id: string; definition: unknown; name: string }>(
          t,
          `select id, definition, name from queues where organization_id = ? and system`,
          [older.organizationId],
        );
      expect(await systemRows()).toEqual([]);
      await sql(t, BACKFILL_SYSTEM_QUEUES);
      await sql(t, BACKFILL_SYSTEM_QUEUES);
      const rows = await systemRows();
      const { name: _n, icon: _i, scope: _s, ...definition } = SYSTEM_QUEUE_DEFINITION;
      expect(rows).toEqual([{ id: expect.any(String), name: 'My calls', definition }]);
      const list = await as(older).get('/v1/queues').expect(200);
      expect(list.body.queues.map((queue: QueueBody) => queue.id)).toEqual([rows[0].id]);
    });
  });

  describe('create, read, change, delete', () => {
    it('creates with defaults and made ids; validates every limit with its path', async () => {
      const res = await as(a.member)
        .post('/v1/queues')
        .send({
          name: 'Hot buyers',
          lanes: [
            { name: 'Call now', when: group(condition('callCount', 'eq', { kind: 'integer', value: 0 })) },
            { name: 'Call now', when: group() },
          ],
          rules: [{ when: 'call_ended', offer: { kind: 'follow_up', inDays: 2 } }],
        })
        .expect(201);
      expect(Object.keys(res.body).sort()).toEqual(QUEUE_FIELDS);
      expect(res.body).toMatchObject({
        name: 'Hot buyers',
        icon: 'phone',
        scope: 'private',
        mine: true,
        system: false,
        rest: 'last',
        sort: null,
        calling: { pool: 'owners', coolDownMinutes: 120, people: null },
        audience: { userIds: [], teamIds: [] },
      });
      expect(res.body.lanes.map((lane: { id: string }) => lane.id)).toEqual(['call-now', 'call-now-2']);
      expect(res.body.rules.map((rule: { id: string }) => rule.id)).toEqual(['rule-1']);
      expect(res.body.summary).toEqual(expect.any(String));
      expect(res.body.description.lanes.map((lane: { id: string }) => lane.id)).toEqual([
        'call-now',
        'call-now-2',
      ]);
      expect(res.body.description.rules).toHaveLength(1);

      const lane = (n: number) => ({ name: `Lane ${n}`, when: group() });
      const many = (n: number, make: (i: number) => unknown) => Array.from({ length: n }, (_, i) => make(i));
      const refused = async (body: Record<string, unknown>, path: string) =>
        expectValidation(
          await as(a.member)
            .post('/v1/queues')
            .send({ name: 'Q', ...body }),
          path,
        );
      await refused({ name: 'x'.repeat(41) }, 'name');
      await refused({ name: undefined }, 'name');
      await refused({ lanes: many(9, lane) }, 'lanes');
      await refused(
        { rules: many(11, () => ({ when: 'time_passed', offer: { kind: 'follow_up', inDays: 1 } })) },
        'rules',
      );
      await refused(
        { root: group(...many(26, () => condition('phone', 'is_present', { kind: 'empty' }))) },
        'root.children',
      );
      await refused(
        { root: group(group(group(condition('phone', 'is_present', { kind: 'empty' })))) },
        'root.children[0].children[0]',
      );
      await refused({ calling: { coolDownMinutes: 1441 } }, 'calling.coolDownMinutes');
      await refused(
        { lanes: [lane(1), { name: 'B', when: group(condition('callCount', 'eq', strings('1'))) }] },
        'lanes[1].when.children[0].value',
      );
      await refused(
        {
          lanes: [
            { id: 'a', ...lane(1) },
            { id: 'a', ...lane(2) },
          ],
        },
        'lanes[1].id',
      );
      await refused(
        { rules: [{ when: 'call_ended', offer: { kind: 'assign', userId: other.admin.userId } }] },
        'rules[0].offer.userId',
      );
      expectError(await as(a.member).post('/v1/queues').send([]), 400, 'VALIDATION_FAILED');
    });

    it('lists system, own, then shared by name; private is the creator’s only, admins included', async () => {
      const mine = await create(a.colleague, { name: 'b private' });
      const shared = await create(a.colleague, { name: 'a shared', scope: 'shared' });
      const memberShared = await create(a.member, { name: 'Z member shared', scope: 'shared' });

      const list = await as(a.colleague).get('/v1/queues').expect(200);
      const names = (list.body.queues as QueueBody[]).map((queue) => queue.name);
      expect(names.slice(0, 3)).toEqual(['My calls', 'a shared', 'b private']);
      expect(names.indexOf('Z member shared')).toBeGreaterThan(2);
      expect(names).not.toContain('Hot buyers'); // the member's private queue
      expect(list.body.queues.find((q: QueueBody) => q.id === memberShared.id).mine).toBe(false);

      // a colleague's private queue: 404 for everyone else, admins included, on every route
      for (const who of [a.admin, a.member]) {
        expectNotFound(await as(who).get(`/v1/queues/${mine.id}`), 'Queue');
        expectNotFound(await as(who).patch(`/v1/queues/${mine.id}`).send({ name: 'x' }), 'Queue');
        expectNotFound(await as(who).delete(`/v1/queues/${mine.id}`), 'Queue');
        expectNotFound(await as(who).post('/v1/queues/preview').send({ queueId: mine.id }), 'Queue');
      }
      expectNotFound(await as(a.admin).put(`/v1/queues/${mine.id}/audience`).send({}), 'Queue');
      // shared: opened by others, changed only by its creator
      const read = await as(a.admin).get(`/v1/queues/${shared.id}`).expect(200);
      expect(read.body).toMatchObject({ id: shared.id, mine: false, scope: 'shared' });
      expectError(
        await as(a.admin).patch(`/v1/queues/${shared.id}`).send({ name: 'x' }),
        403,
        'QUEUE_NOT_YOURS',
      );
      expectError(await as(a.member).delete(`/v1/queues/${shared.id}`), 403, 'QUEUE_NOT_YOURS');
      // another organization's queue, an unknown one, a malformed id
      expectNotFound(await as(other.admin).get(`/v1/queues/${shared.id}`), 'Queue');
      expectNotFound(await as(other.admin).patch(`/v1/queues/${shared.id}`).send({ name: 'x' }), 'Queue');
      expectNotFound(await as(other.admin).delete(`/v1/queues/${shared.id}`), 'Queue');
      expectNotFound(await as(other.admin).put(`/v1/queues/${shared.id}/audience`).send({}), 'Queue');
      expectNotFound(await as(other.admin).post('/v1/queues/preview').send({ queueId: shared.id }), 'Queue');
      expectNotFound(await as(a.admin).get(`/v1/queues/${MISSING}`), 'Queue');
      expectError(await as(a.admin).get('/v1/queues/not-a-uuid'), 400, 'VALIDATION_FAILED');
    });

    it('changes own queues (lanes and rules replaced whole) and deletes them (204, leads untouched)', async () => {
      const queue = await create(a.member, {
        name: 'Changing',
        lanes: [{ id: 'one', name: 'One', when: group() }],
        rules: [{ when: 'task_completed', offer: { kind: 'follow_up', inDays: 1 } }],
        calling: { coolDownMinutes: 30 },
      });
      const changed = await as(a.member)
        .patch(`/v1/queues/${queue.id}`)
        .send({ name: 'Changed', lanes: [{ name: 'Two', when: group() }], icon: 'star' })
        .expect(200);
      expect(changed.body).toMatchObject({
        name: 'Changed',
        icon: 'star',
        calling: { coolDownMinutes: 30 },
        rules: [{ id: 'rule-1', when: 'task_completed' }],
      });
      expect(changed.body.lanes.map((lane: { id: string }) => lane.id)).toEqual(['two']);
      const reread = await as(a.member).get(`/v1/queues/${queue.id}`).expect(200);
      expect(reread.body).toEqual(changed.body);
      expectValidation(await as(a.member).patch(`/v1/queues/${queue.id}`).send({ name: '' }), 'name');

      const leads = await count(t, `select count(*) as n from leads where organization_id = ?`, [
        a.admin.organizationId,
      ]);
      const gone = await as(a.member).delete(`/v1/queues/${queue.id}`).expect(204);
      expect(gone.text).toBe('');
      expectNotFound(await as(a.member).get(`/v1/queues/${queue.id}`), 'Queue');
      expect(
        await count(t, `select count(*) as n from leads where organization_id = ?`, [a.admin.organizationId]),
      ).toBe(leads);
    });

    it('team pools: admin only (checked first), shared only', async () => {
      const team = await t.seed.team(a.admin, 'Closers', [a.member.userId]);
      const pool = { pool: 'team', people: { userIds: [], teamIds: [team.id] } };
      // a member: 403 before the 400 a private team queue would get
      expectError(
        await as(a.member).post('/v1/queues').send({ name: 'T', calling: pool }),
        403,
        'QUEUE_TEAM_POOL_ADMIN_ONLY',
      );
      const own = await create(a.member, { name: 'Own', scope: 'shared' });
      expectError(
        await as(a.member).patch(`/v1/queues/${own.id}`).send({ calling: pool }),
        403,
        'QUEUE_TEAM_POOL_ADMIN_ONLY',
      );
      expectError(
        await as(a.admin).post('/v1/queues').send({ name: 'T', calling: pool }),
        400,
        'QUEUE_TEAM_POOL_NOT_SHARED',
      );
      expectValidation(
        await as(a.admin)
          .post('/v1/queues')
          .send({
            name: 'T',
            scope: 'shared',
            calling: { pool: 'team', people: { userIds: [other.admin.userId] } },
          }),
        'calling.people.userIds[0]',
      );
      const teamQueue = await create(a.admin, { name: 'Team', scope: 'shared', calling: pool });
      expect(teamQueue).toMatchObject({
        calling: { pool: 'team', people: { userIds: [], teamIds: [team.id] } },
      });
      expectError(
        await as(a.admin).patch(`/v1/queues/${teamQueue.id}`).send({ scope: 'private' }),
        400,
        'QUEUE_TEAM_POOL_NOT_SHARED',
      );
      await as(a.admin).patch(`/v1/queues/${teamQueue.id}`).send({ name: 'Team A' }).expect(200);
    });

    it('audience: admins only, shared queues only, people of the organization; creator plus audience see it', async () => {
      const team = await t.seed.team(a.admin, 'Audience team', [a.member.userId]);
      const shared = await create(a.colleague, { name: 'For some', scope: 'shared' });
      const privateQueue = await create(a.admin, { name: 'Admin private' });

      expectError(
        await as(a.member).put(`/v1/queues/${shared.id}/audience`).send({ userIds: [] }),
        403,
        'ORG_ADMIN_REQUIRED',
      );
      expectError(
        await as(a.admin).put(`/v1/queues/${privateQueue.id}/audience`).send({ userIds: [] }),
        400,
        'BAD_REQUEST',
      );
      expectValidation(
        await as(a.admin)
          .put(`/v1/queues/${shared.id}/audience`)
          .send({ userIds: [other.member.userId] }),
        'userIds',
      );
      expectValidation(
        await as(a.admin)
          .put(`/v1/queues/${shared.id}/audience`)
          .send({ teamIds: ['nope'] }),
        'teamIds',
      );

      const set = await as(a.admin)
        .put(`/v1/queues/${shared.id}/audience`)
        .send({ userIds: [], teamIds: [team.id] })
        .expect(200);
      expect(set.body).toMatchObject({ id: shared.id, audience: { userIds: [], teamIds: [team.id] } });
      await as(a.member).get(`/v1/queues/${shared.id}`).expect(200); // through the team
      await as(a.colleague).get(`/v1/queues/${shared.id}`).expect(200); // the creator
      expectNotFound(await as(a.admin).get(`/v1/queues/${shared.id}`), 'Queue'); // not in the audience
      const adminList = await as(a.admin).get('/v1/queues').expect(200);
      expect(adminList.body.queues.map((q: QueueBody) => q.id)).not.toContain(shared.id);
    });

    it('writes need crm:write and a plan; at most 50 queues a person (409)', async () => {
      const readOnly = (await t.seed.apiKey(other.member, { name: 'read', scopes: ['crm:read'] })).key;
      expectError(
        await api(t, readOnly).post('/v1/queues').send({ name: 'Q' }),
        403,
        'API_KEY_SCOPE_MISSING',
      );
      await api(t, readOnly).get('/v1/queues').expect(200);

      const now = new Date();
      await sql(
        t,
        `insert into queues (id, organization_id, created_by, name, icon, scope, definition, created_at, updated_at)
         select gen_random_uuid(), ?, ?, 'Q' || n, 'phone', 'private', ?::jsonb, ?, ?
           from generate_series(1, 50) n`,
        [
          other.member.organizationId,
          other.member.userId,
          JSON.stringify({
            root: group(),
            lanes: [],
            rest: 'last',
            sort: null,
            calling: { pool: 'owners', coolDownMinutes: 120, people: null },
            rules: [],
          }),
          now,
          now,
        ],
      );
      expectError(await as(other.member).post('/v1/queues').send({ name: 'The 51st' }), 409, 'CONFLICT');
      await create(other.colleague, { name: 'Another person' });

      await t.seed.plan(other.admin, false);
      expectError(
        await as(other.colleague).post('/v1/queues').send({ name: 'No plan' }),
        403,
        'SUBSCRIPTION_REQUIRED',
      );
      await as(other.colleague).post('/v1/queues/preview').send({ definition: {} }).expect(200);
      await t.seed.plan(other.admin, true);
    });
  });

  describe('preview', () => {
    let b: Agency;
    let mine: LeadJson;
    let shared: LeadJson;
    let colleagues: LeadJson;
    let nobody: LeadJson;
    const NOW = new Date('2026-11-20T15:30:00Z');

    beforeAll(async () => {
      b = await t.seed.agency('Preview Agency');
      mine = await t.seed.lead(b.admin, { firstName: 'Ada', assigneeIds: [b.member.userId] });
      shared = await t.seed.lead(b.admin, {
        firstName: 'ben',
        crmStatus: 'potential',
        assigneeIds: [b.member.userId, b.colleague.userId],
      });
      colleagues = await t.seed.lead(b.admin, { firstName: 'Cid', assigneeIds: [b.colleague.userId] });
      nobody = await t.seed.lead(b.admin, { firstName: 'Dee', unassigned: true });
      const facts = (lead: LeadJson, lastCallAt: string, total: number, streak: number) =>
        sql(
          t,
          `insert into lead_facts (lead_id, organization_id, last_call_at, total_calls, unanswered_streak, updated_at)
           values (?, ?, ?, ?, ?, now())`,
          [lead.id, b.admin.organizationId, lastCallAt, total, streak],
        );
      await facts(shared, '2026-11-19T10:00:00Z', 2, 2); // not reached
      await facts(colleagues, '2026-11-20T15:00:00Z', 1, 0); // called 30 minutes ago: cooling
      t.clock.set(NOW);
      await t.seed.task(b.admin, { leadId: mine.id, dueDate: '2026-11-19', assigneeIds: [b.member.userId] }); // overdue
    });
    afterAll(() => t.clock.reset());

    const preview = (person: { key: string }, body: Record<string, unknown>) =>
      as(person).post('/v1/queues/preview').send(body);

    it('needs exactly one of queueId and definition', async () => {
      expectValidation(await preview(b.member, {}), 'queueId');
      const system = await systemQueueOf(b.member);
      expectValidation(await preview(b.member, { queueId: system.id, definition: {} }), 'definition');
      expectValidation(await preview(b.member, { queueId: 'nope' }), 'queueId');
      expectValidation(await preview(b.member, { definition: { lanes: 'x' } }), 'lanes');
      expectNotFound(await preview(b.member, { queueId: MISSING }), 'Queue');
    });

    it('the system queue for a member: $me, lanes, cool-down, rest rows, reasons', async () => {
      const system = await systemQueueOf(b.member);
      const res = await preview(b.member, { queueId: system.id }).expect(200);
      expect(Object.keys(res.body).sort()).toEqual(
        [
          'coolingDownCount',
          'description',
          'lanes',
          'offers',
          'restCount',
          'rows',
          'rowsPerLane',
          'summary',
        ].sort(),
      );
      expect(res.body.lanes).toEqual([
        { id: 'overdue', name: 'Overdue', count: 1 },
        { id: 'due-today', name: 'Due today', count: 0 },
        { id: 'new', name: 'New', count: 0 },
        { id: 'not-reached', name: 'Not reached', count: 1 },
      ]);
      expect(res.body).toMatchObject({ restCount: 0, coolingDownCount: 0, offers: [], rowsPerLane: 10 });
      expect(res.body.rows).toEqual([
        {
          id: mine.id,
          firstName: 'Ada',
          lastName: mine.lastName,
          laneId: 'overdue',
          laneName: 'Overdue',
          reason: expect.stringContaining('never called'),
        },
        {
          id: shared.id,
          firstName: 'ben',
          lastName: shared.lastName,
          laneId: 'not-reached',
          laneName: 'Not reached',
          reason: expect.stringContaining('2026-11-19 10:00'),
        },
      ]);
      // the colleague: their two leads, one cooling down (called 30 minutes ago)
      const colleague = await preview(b.colleague, { queueId: system.id }).expect(200);
      expect(colleague.body).toMatchObject({ coolingDownCount: 1, restCount: 0 });
      expect(colleague.body.rows.map((row: { id: number }) => row.id)).toEqual([shared.id]);
      // the admin is assigned nothing: $me matches nothing
      const admin = await preview(b.admin, { queueId: system.id }).expect(200);
      expect(admin.body.rows).toEqual([]);
      expect(admin.body.lanes.map((lane: { count: number }) => lane.count)).toEqual([0, 0, 0, 0]);
    });

    it('populations: a member their leads, an admin the agency; no lanes = one lane `all`; offers; order', async () => {
      const definition = {
        sort: { key: 'firstName', dir: 'asc' },
        calling: { coolDownMinutes: 0 },
        rules: [
          {
            when: 'call_ended',
            if: group(condition('crmStatus', 'has_any_of', strings('potential'))),
            offer: { kind: 'set_status', status: 'client' },
          },
          { when: 'time_passed', offer: { kind: 'follow_up', inDays: 3 } },
        ],
      };
      const member = await preview(b.member, { definition }).expect(200);
      expect(member.body.lanes).toEqual([{ id: 'all', name: 'All', count: 2 }]);
      expect(member.body.rows.map((row: { firstName: string }) => row.firstName)).toEqual(['Ada', 'ben']);
      expect(member.body.offers).toEqual([
        { ruleId: 'rule-1', when: 'call_ended', offer: { kind: 'set_status', status: 'client' }, count: 1 },
        { ruleId: 'rule-2', when: 'time_passed', offer: { kind: 'follow_up', inDays: 3 }, count: 2 },
      ]);
      const admin = await preview(b.admin, { definition }).expect(200);
      expect(admin.body.lanes).toEqual([{ id: 'all', name: 'All', count: 4 }]);
      expect(admin.body.rows.map((row: { id: number }) => row.id)).toEqual([
        mine.id,
        shared.id,
        colleagues.id,
        nobody.id,
      ]);
      expect(admin.body.rows[0].reason).toContain('first name ada');
      // another organization sees none of these leads
      const stranger = await preview(other.admin, {
        definition: { root: group(condition('crmStatus', 'has_any_of', strings('potential'))) },
      }).expect(200);
      expect(stranger.body.rows.map((row: { id: number }) => row.id)).not.toContain(shared.id);

      // rest `hide` shows no rest rows but still counts them; crmStatus sorts in the spec's order
      const hidden = await preview(b.admin, {
        definition: {
          rest: 'hide',
          calling: { coolDownMinutes: 0 },
          lanes: [
            { name: 'Potential', when: group(condition('crmStatus', 'has_any_of', strings('potential'))) },
          ],
          sort: { key: 'crmStatus', dir: 'desc' },
        },
      }).expect(200);
      expect(hidden.body).toMatchObject({ lanes: [{ id: 'potential', count: 1 }], restCount: 3 });
      expect(hidden.body.rows).toEqual([
        expect.objectContaining({
          id: shared.id,
          laneId: 'potential',
          reason: expect.stringContaining('status potential'),
        }),
      ]);
      const last = await preview(b.admin, {
        definition: {
          calling: { coolDownMinutes: 0 },
          lanes: [
            { name: 'Potential', when: group(condition('crmStatus', 'has_any_of', strings('potential'))) },
          ],
        },
      }).expect(200);
      expect(last.body.rows.filter((row: { laneId: string | null }) => row.laneId === null)).toHaveLength(3);
      expect(last.body.rows[1]).toMatchObject({
        laneName: null,
        reason: expect.stringContaining('In no lane'),
      });
    });

    it('a team queue: its people see every lead of the agency, others their own', async () => {
      const team = await t.seed.team(b.admin, 'Callers', [b.member.userId]);
      const queue = await create(b.admin, {
        name: 'Team calls',
        scope: 'shared',
        calling: { pool: 'team', coolDownMinutes: 0, people: { userIds: [], teamIds: [team.id] } },
      });
      const inTeam = await preview(b.member, { queueId: queue.id }).expect(200);
      expect(inTeam.body.lanes).toEqual([{ id: 'all', name: 'All', count: 4 }]);
      const outside = await preview(b.colleague, { queueId: queue.id }).expect(200);
      expect(outside.body.lanes).toEqual([{ id: 'all', name: 'All', count: 2 }]);
      // an unsaved team definition never widens what the caller reaches
      const adHoc = await preview(b.member, {
        definition: {
          scope: 'shared',
          calling: { pool: 'team', coolDownMinutes: 0, people: { userIds: [b.member.userId] } },
        },
      }).expect(200);
      expect(adHoc.body.lanes[0].count).toBe(2);
    });

    it('reads the leads in one SQL statement', async () => {
      const system = await systemQueueOf(b.admin);
      const texts: string[] = [];
      const original = Client.prototype.query;
      const spy = jest.spyOn(Client.prototype, 'query').mockImplementation(function (
        this: Client,
        ...args: unknown[]
      ) {
        const first = args[0] as string | { text?: string };
        texts.push(typeof first === 'string' ? first : (first?.text ?? ''));
        return (original as (...a: unknown[]) => unknown).apply(this, args);
      } as typeof Client.prototype.query);
      try {
        await preview(b.member, { queueId: system.id }).expect(200);
      } finally {
        spy.mockRestore();
      }
      expect(texts.filter((text) => /\bleads\b/.test(text))).toHaveLength(1);
      expect(texts.filter((text) => /\blead_facts\b/.test(text))).toHaveLength(1);
    });

    it('a preview that cannot finish in time answers 503 with Retry-After', async () => {
      const blocker = new Client({ connectionString: process.env.DATABASE_URL });
      await blocker.connect();
      try {
        await blocker.query('begin');
        await blocker.query('lock table lead_facts in access exclusive mode');
        const res = await preview(b.member, { definition: {} });
        expectError(res, 503, 'INTERNAL');
        expect(res.headers['retry-after']).toBe('1');
      } finally {
        await blocker.query('rollback');
        await blocker.end();
      }
      await preview(b.member, { definition: {} }).expect(200);
    });

    it('$me stands for the caller', async () => {
      const byMe = {
        definition: {
          calling: { coolDownMinutes: 0 },
          root: group(condition('assignee', 'has_all_of', strings('$me'))),
        },
      };
      const member = await preview(b.member, byMe).expect(200);
      expect(member.body.rows.map((row: { id: number }) => row.id).sort()).toEqual(
        [mine.id, shared.id].sort(),
      );
      const colleague = await preview(b.colleague, byMe).expect(200);
      expect(colleague.body.rows.map((row: { id: number }) => row.id).sort()).toEqual(
        [shared.id, colleagues.id].sort(),
      );
    });
  });
});
