import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { AppConfig, DelayedJobs, JobName, MaintenanceProcessor, QueueName } from '@app/platform';
import {
  ReassignmentService,
  reassignJobId,
  RouteUnassignedService,
  RoutingPreviewService,
} from '@app/routing';
import { WorkerModule } from '../../apps/worker/src/worker.module';
import { Agency, api, expectNotFound, intakeLead, MINUTE, SignedIn, sql, TestApp } from '../fixtures';

interface Decision {
  id: string;
  leadId: number;
  trigger: string;
  ruleId: string | null;
  routeName: string | null;
  strategy: string | null;
  smartRouting: boolean;
  userId: string;
  previousUserIds: string[];
  why: string;
  steps: { ruleId: string | null; outcome: string; skipped: { userId: string; reason: string }[] }[];
  reassignDueAt: string | null;
}

/**
 * Lead routing's decisions (issue 14 items 3, 4, 7, 8, 11, 12): intake through the CRM's
 * `LeadRouter`, fairness under concurrency, route-unassigned, reassignment and the decision log.
 */
describe('lead routing: decisions', () => {
  let t: TestApp;
  let n = 0;
  const externalId = (label: string) => `${label}-${++n}`;

  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.stop());

  /** An agency with `extra` more members (names P1…), its integration key, and a plain list of people. */
  async function setUp(extra = 0) {
    const agency = await t.seed.agency('Casa Routing');
    const more: SignedIn[] = [];
    for (let i = 1; i <= extra; i++) more.push(await t.seed.member(agency.admin, 'member', `P${i}`));
    const key = await t.seed.integrationKey(agency.admin, 'idealista');
    return { agency, more, key: key.key, org: agency.admin.organizationId };
  }

  const decisionsOf = async (key: string, leadId: number): Promise<Decision[]> =>
    (await api(t, key).get(`/v1/leads/${leadId}/routing-decisions`).expect(200)).body.data as Decision[];

  const ownersOf = async (leadId: number): Promise<string[]> =>
    (await sql<{ assignee_ids: string[] }>(t, 'select assignee_ids from leads where id = ?', [leadId]))[0]
      .assignee_ids;

  const asAdmin = (agency: Agency) => t.seed.principal(agency.admin);

  it('round robin through intake: each lead to the next person, logged with its steps and history actor', async () => {
    const { agency, key } = await setUp();
    const pool = [agency.member.userId, agency.colleague.userId, agency.admin.userId];
    const route = await t.seed.route(agency.admin, { name: 'Everyone', userIds: pool });
    const owners: string[] = [];
    for (let i = 0; i < 6; i++) owners.push(...(await intakeLead(t, key, externalId('rr'))).assigneeIds);
    expect(owners).toEqual([...pool, ...pool]);

    const first = await intakeLead(t, key, externalId('rr'));
    expect(first.assigneeIds).toEqual([agency.member.userId]);
    const [decision] = await decisionsOf(agency.admin.key, first.leadId);
    expect(decision).toEqual({
      id: expect.any(String),
      leadId: first.leadId,
      at: expect.any(String),
      trigger: 'intake',
      ruleId: route.id,
      routeName: 'Everyone',
      strategy: 'round_robin',
      smartRouting: false,
      userId: agency.member.userId,
      previousUserIds: [],
      why: expect.stringContaining('Route "Everyone" assigned Mia Member'),
      steps: [{ ruleId: route.id, outcome: 'assigned', skipped: [] }],
      reassignDueAt: null,
    });
    const timeline = await api(t, agency.admin.key).get(`/v1/leads/${first.leadId}/timeline`).expect(200);
    const change = (timeline.body.data as { type: string; assigneeChange?: unknown }[]).find(
      (entry) => entry.type === 'assignee-change',
    );
    expect(change?.assigneeChange).toEqual({
      addedUserIds: [agency.member.userId],
      removedUserIds: [],
      changedBy: null,
      source: 'api',
      actor: `routing:${route.id}`,
    });

    // the decision log: the lead's reach as usual (its owner yes, another member and agency no)
    expect(await decisionsOf(agency.member.key, first.leadId)).toHaveLength(1);
    expectNotFound(
      await api(t, agency.colleague.key).get(`/v1/leads/${first.leadId}/routing-decisions`),
      'Lead',
    );
    const other = await t.seed.agency('Other Agency');
    expectNotFound(await api(t, other.admin.key).get(`/v1/leads/${first.leadId}/routing-decisions`), 'Lead');
    await api(t, agency.admin.key).get('/v1/leads/abc/routing-decisions').expect(400);

    // changing the pool moves no lead already assigned; the next lead goes to the new pool
    await api(t, agency.admin.key)
      .patch(`/v1/lead-routing/rules/${route.id}`)
      .send({ userIds: [agency.colleague.userId] })
      .expect(200);
    expect(await ownersOf(first.leadId)).toEqual([agency.member.userId]);
    expect((await intakeLead(t, key, externalId('rr'))).assigneeIds).toEqual([agency.colleague.userId]);
  });

  it('50 parallel intakes over a 5-person round robin give exactly 10 each', async () => {
    const { agency, more, key, org } = await setUp(2);
    const pool = [agency.admin, agency.member, agency.colleague, ...more].map((p) => p.userId);
    await t.seed.route(agency.admin, { userIds: pool });
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => intakeLead(t, key, externalId(`burst${i}`))),
    );
    const received = new Map<string, number>();
    for (const answer of answers) {
      expect(answer.assigneeIds).toHaveLength(1);
      received.set(answer.assigneeIds[0], (received.get(answer.assigneeIds[0]) ?? 0) + 1);
    }
    expect([...received.values()]).toEqual([10, 10, 10, 10, 10]);
    const [{ n: logged }] = await sql<{ n: number }>(
      t,
      'select count(*)::int as n from routing_decisions where organization_id = ?',
      [org],
    );
    expect(logged).toBe(50);
  });

  it('walks the routes: paused, no match, daily cap and away skips, then Smart routing, then Unassigned', async () => {
    const { agency, key, org } = await setUp();
    const { admin, member, colleague } = agency;
    const paused = await t.seed.route(agency.admin, {
      name: 'Paused',
      paused: true,
      userIds: [admin.userId],
    });
    const rent = await t.seed.route(agency.admin, {
      name: 'Rentals',
      userIds: [admin.userId],
      conditions: {
        type: 'group',
        combinator: 'and',
        children: [
          {
            type: 'condition',
            field: 'leadType',
            operator: 'has_any_of',
            value: { kind: 'strings', values: ['tenant'] },
          },
        ],
      },
    });
    const capped = await t.seed.route(agency.admin, {
      name: 'Capped',
      userIds: [member.userId, colleague.userId],
      dailyCap: 1,
    });
    await sql(t, 'insert into routing_away (organization_id, user_id, until) values (?, ?, ?)', [
      org,
      colleague.userId,
      new Date(t.clock.now().getTime() + 60 * MINUTE),
    ]);

    const one = await intakeLead(t, key, externalId('walk'));
    expect(one.assigneeIds).toEqual([member.userId]);
    const [first] = await decisionsOf(admin.key, one.leadId);
    expect(first.steps).toEqual([
      { ruleId: paused.id, outcome: 'paused', skipped: [] },
      { ruleId: rent.id, outcome: 'no_match', skipped: [] },
      { ruleId: capped.id, outcome: 'assigned', skipped: [{ userId: colleague.userId, reason: 'away' }] },
    ]);

    // the member is at the cap, the colleague away: nobody; Smart routing is off → unassigned, nothing logged
    const two = await intakeLead(t, key, externalId('walk'));
    expect(two.assigneeIds).toEqual([]);
    expect(await decisionsOf(admin.key, two.leadId)).toEqual([]);

    // a rental goes to its route
    const rental = await intakeLead(t, key, externalId('walk'), { leadType: 'tenant' });
    expect(rental.assigneeIds).toEqual([admin.userId]);

    // Smart routing on (team never set = everyone active): fewest today wins → the colleague is away, so
    // the admin (1 today) and the member (1 today) tie on today; open leads decide
    await sql(t, 'update routing_settings set smart_enabled = true where organization_id = ?', [org]);
    const three = await intakeLead(t, key, externalId('walk'));
    const [smart] = await decisionsOf(admin.key, three.leadId);
    expect(smart).toMatchObject({ ruleId: null, smartRouting: true, strategy: 'smart' });
    expect(smart.steps.at(-1)).toEqual({
      ruleId: null,
      outcome: 'smart_routing',
      skipped: [{ userId: colleague.userId, reason: 'away' }],
    });
    expect(smart.steps.slice(0, 3).map((s) => s.outcome)).toEqual(['paused', 'no_match', 'nobody_available']);
    expect(smart.steps[2].skipped).toEqual([
      { userId: member.userId, reason: 'daily_cap' },
      { userId: colleague.userId, reason: 'away' },
    ]);
    const timeline = await api(t, admin.key).get(`/v1/leads/${three.leadId}/timeline`).expect(200);
    expect(JSON.stringify(timeline.body)).toContain('routing:smart');
  });

  it('preview answers exactly the steps the real assignment logs, and moves nothing', async () => {
    const { agency } = await setUp();
    const { admin, member, colleague } = agency;
    await t.seed.route(agency.admin, { name: 'Paused', paused: true, userIds: [admin.userId] });
    await t.seed.route(agency.admin, {
      name: 'Two',
      userIds: [member.userId, colleague.userId],
      dailyCap: 5,
    });
    const lead = await t.seed.lead(admin, { unassigned: true });
    const preview = await t.get(RoutingPreviewService).preview(await asAdmin(agency), { leadId: lead.id });
    const again = await t.get(RoutingPreviewService).preview(await asAdmin(agency), { leadId: lead.id });
    expect(again).toEqual(preview); // no counter moved
    const result = await t.get(RouteUnassignedService).run(await asAdmin(agency));
    expect(result).toEqual({ considered: 1, assigned: 1, leftWaiting: 0 });
    const [logged] = await decisionsOf(admin.key, lead.id);
    expect(logged).toMatchObject({
      trigger: 'route_unassigned',
      ruleId: preview.ruleId,
      routeName: preview.routeName,
      userId: preview.userId,
      why: preview.why,
      steps: preview.steps,
    });
    expect(preview.userName).toBe('Mia Member');
  });

  it('two parallel route-unassigned runs never assign a lead twice', async () => {
    const { agency, org } = await setUp();
    await t.seed.route(agency.admin, { userIds: [agency.member.userId, agency.colleague.userId] });
    await bulkLeads(org, 120);
    const actor = await asAdmin(agency);
    const service = t.get(RouteUnassignedService);
    const [a, b] = await Promise.all([service.run(actor), service.run(actor)]);
    expect(a.assigned + b.assigned).toBe(120);
    const rows = await sql<{ lead_id: string; n: number }>(
      t,
      `select lead_id, count(*)::int as n from routing_decisions where organization_id = ? group by lead_id having count(*) > 1`,
      [org],
    );
    expect(rows).toEqual([]);
    const counts = await sql<{ owners: number; n: number }>(
      t,
      `select cardinality(assignee_ids) as owners, count(*)::int as n from leads where organization_id = ? group by 1`,
      [org],
    );
    expect(counts).toEqual([{ owners: 1, n: 120 }]);
    // round robin stayed fair across both runs
    const per = await sql<{ n: number }>(
      t,
      `select count(*)::int as n from routing_decisions where organization_id = ? group by user_id`,
      [org],
    );
    expect(per.map((row) => row.n)).toEqual([60, 60]);
  });

  it('weighted shares over 1,000 leads are within one lead of exact', async () => {
    const { agency, org } = await setUp();
    const { admin, member, colleague } = agency;
    await t.seed.route(agency.admin, {
      strategy: 'weighted',
      userIds: [admin.userId, member.userId, colleague.userId],
      weights: { [admin.userId]: 50, [member.userId]: 30, [colleague.userId]: 20 },
    });
    await bulkLeads(org, 1000);
    const actor = await asAdmin(agency);
    const first = await t.get(RouteUnassignedService).run(actor);
    expect(first).toEqual({ considered: 500, assigned: 500, leftWaiting: 0 });
    await t.get(RouteUnassignedService).run(actor);
    const per = new Map(
      (
        await sql<{ user_id: string; n: number }>(
          t,
          'select user_id, count(*)::int as n from routing_decisions where organization_id = ? group by user_id',
          [org],
        )
      ).map((row) => [row.user_id, row.n]),
    );
    expect(Math.abs(per.get(admin.userId)! - 500)).toBeLessThanOrEqual(1);
    expect(Math.abs(per.get(member.userId)! - 300)).toBeLessThanOrEqual(1);
    expect(Math.abs(per.get(colleague.userId)! - 200)).toBeLessThanOrEqual(1);
  });

  describe('reassignment (in-process sweep)', () => {
    it('moves an untouched lead along the route, leaving out the chain, at most pool size − 1 times', async () => {
      const { agency, key } = await setUp();
      const { admin, member, colleague } = agency;
      const pool = [member.userId, colleague.userId, admin.userId];
      const route = await t.seed.route(agency.admin, { userIds: pool, reassignAfterMinutes: 5 });
      const lead = await intakeLead(t, key, externalId('hop'));
      expect(lead.assigneeIds).toEqual([member.userId]);
      const [first] = await decisionsOf(admin.key, lead.leadId);
      expect(Date.parse(first.reassignDueAt!) - Date.parse((first as unknown as { at: string }).at)).toBe(
        5 * MINUTE,
      );

      const sweep = () => t.get(ReassignmentService).sweep(t.clock.now());
      t.clock.advance(4 * MINUTE);
      await sweep();
      expect(await ownersOf(lead.leadId)).toEqual([member.userId]); // not due yet
      t.clock.advance(2 * MINUTE);
      await sweep();
      expect(await ownersOf(lead.leadId)).toEqual([colleague.userId]);
      const [hop] = await decisionsOf(admin.key, lead.leadId);
      expect(hop).toMatchObject({
        trigger: 'reassign',
        ruleId: route.id,
        userId: colleague.userId,
        previousUserIds: [member.userId],
        reassignDueAt: expect.any(String),
      });
      t.clock.advance(6 * MINUTE);
      await sweep();
      expect(await ownersOf(lead.leadId)).toEqual([admin.userId]);
      const [last] = await decisionsOf(admin.key, lead.leadId);
      expect(last.reassignDueAt).toBeNull(); // two hops = pool size − 1: the chain ends
      t.clock.advance(60 * MINUTE);
      await sweep();
      expect(await ownersOf(lead.leadId)).toEqual([admin.userId]);
      expect(await decisionsOf(admin.key, lead.leadId)).toHaveLength(3);
      // handling is idempotent: a second sweep of the same rows changes nothing
      expect((await sweep()).reassigned).toBe(0);
    });

    it('leaves the lead when its owner acted on it or its owners changed', async () => {
      const { agency, key, org } = await setUp();
      const { admin, member, colleague } = agency;
      await t.seed.route(agency.admin, {
        userIds: [member.userId, colleague.userId],
        reassignAfterMinutes: 5,
      });
      const acted = await intakeLead(t, key, externalId('acted'));
      expect(acted.assigneeIds).toEqual([member.userId]);
      const moved = await intakeLead(t, key, externalId('moved'));
      expect(moved.assigneeIds).toEqual([colleague.userId]);

      t.clock.advance(MINUTE);
      await api(t, member.key)
        .post(`/v1/leads/${acted.leadId}/notes`)
        .send({ content: 'Called back, viewing Thursday' })
        .expect(201);
      await api(t, admin.key)
        .put(`/v1/leads/${moved.leadId}/assignees`)
        .send({ userIds: [admin.userId] })
        .expect(200);
      t.clock.advance(5 * MINUTE);
      await t.get(ReassignmentService).sweep(t.clock.now());
      expect(await ownersOf(acted.leadId)).toEqual([member.userId]);
      expect(await ownersOf(moved.leadId)).toEqual([admin.userId]);
      const states = await sql<{ reassign_state: string }>(
        t,
        'select reassign_state from routing_decisions where organization_id = ?',
        [org],
      );
      expect(states.map((row) => row.reassign_state)).toEqual(['done', 'done']);
    });
  });

  describe('reassignment through BullMQ (apps/worker on the machine Redis)', () => {
    let worker: INestApplicationContext;

    beforeAll(async () => {
      const config = AppConfig.fromEnv({
        DATABASE_URL: process.env.DATABASE_URL,
        REDIS_URL: 'redis://127.0.0.1:6379',
        LOG_LEVEL: 'silent',
      });
      const queuePrefix = `test-routing-${process.pid}-${Date.now()}`;
      worker = await NestFactory.createApplicationContext(WorkerModule.forRoot(config, { queuePrefix }), {
        logger: false,
        abortOnError: false,
      });
    });

    afterAll(async () => {
      const queue = worker.get<Queue>(getQueueToken(QueueName.Maintenance));
      try {
        await worker.get(MaintenanceProcessor).worker.close();
        await queue.obliterate({ force: true });
      } finally {
        await worker.close();
      }
    });

    it('the delayed job reassign:<decisionId> moves a due lead in the worker; a second run changes nothing', async () => {
      t.clock.reset(); // the worker decides on the system's clock: so does this side here
      const { agency, key } = await setUp();
      const { admin, member, colleague } = agency;
      await t.seed.route(agency.admin, {
        userIds: [member.userId, colleague.userId],
        reassignAfterMinutes: 5,
      });
      const lead = await intakeLead(t, key, externalId('bull'));
      expect(lead.assigneeIds).toEqual([member.userId]);
      const [decision] = await decisionsOf(admin.key, lead.leadId);
      // due now on the worker's clock (the system's)
      await sql(
        t,
        `update routing_decisions set reassign_due_at = now() - interval '1 minute' where id = ?`,
        [decision.id],
      );
      const jobs = worker.get(DelayedJobs);
      expect(jobs.enabled).toBe(true);
      jobs.schedule(
        JobName.RoutingReassign,
        reassignJobId(decision.id),
        { decisionId: decision.id },
        new Date(),
      );
      for (let i = 0; i < 100 && (await ownersOf(lead.leadId))[0] === member.userId; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(await ownersOf(lead.leadId)).toEqual([colleague.userId]);
      const [hop] = await decisionsOf(admin.key, lead.leadId);
      expect(hop).toMatchObject({ trigger: 'reassign', previousUserIds: [member.userId] });
      // the row is the truth: handling it again (the sweep, a duplicate job) is a no-op
      expect(await worker.get(ReassignmentService).onDue({ decisionId: decision.id }, new Date())).toEqual({
        outcome: 'not_due',
      });
      expect(await decisionsOf(admin.key, lead.leadId)).toHaveLength(2);
    });
  });

  /** `count` unassigned leads of `org`, oldest first, straight into the table. */
  async function bulkLeads(org: string, count: number): Promise<void> {
    const base = t.clock.now().getTime() - count * 1000;
    await sql(
      t,
      `insert into leads (organization_id, first_name, last_name, email, phone_number, crm_status, source, purchased_at, created_at, updated_at)
       select ?, 'Bulk', 'Lead' || g, 'bulk' || g || '@routing.test', '', 'lead', 'api', to_timestamp((? + g * 1000) / 1000.0),
              to_timestamp((? + g * 1000) / 1000.0), to_timestamp((? + g * 1000) / 1000.0)
         from generate_series(1, ?) g`,
      [org, base, base, base, count],
    );
  }
});
