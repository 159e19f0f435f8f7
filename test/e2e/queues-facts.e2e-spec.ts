import { Client } from 'pg';
import { LeadFactsService } from '@app/crm';
import { Agency, api, HOUR, LeadJson, postTask, sql, TestApp } from '../fixtures';

const DAY = 24 * HOUR;

/**
 * The lead facts of the lead's work (issue 13 item 3): `pending_tasks`, `next_task_due_at`,
 * `overdue_from` and `open_deal_stages` are kept by every task and deal write, in the write's own
 * transaction, and `facts:rebuild` computes the very same values; the queues read them.
 */

const NOW = new Date('2026-11-20T15:30:00Z');

interface WorkFacts {
  pending_tasks: number;
  next_task_due_at: string | null;
  overdue_from: string | null;
  open_deal_stages: string[];
}

describe('Lead facts of tasks and deals', () => {
  let t: TestApp;
  let a: Agency;
  let other: Agency;
  let lead: LeadJson;

  const as = (person: { key: string }) => api(t, person.key);
  const iso = (value: unknown) => (value === null ? null : new Date(value as string).toISOString());
  const factsOf = async (leadId: number): Promise<WorkFacts | undefined> => {
    const [row] = await sql<WorkFacts>(
      t,
      `select pending_tasks, next_task_due_at, overdue_from, open_deal_stages from lead_facts where lead_id = ?`,
      [leadId],
    );
    return (
      row && { ...row, next_task_due_at: iso(row.next_task_due_at), overdue_from: iso(row.overdue_from) }
    );
  };
  const allFacts = () =>
    sql(
      t,
      `select lead_id, pending_tasks, next_task_due_at, overdue_from, open_deal_stages from lead_facts
        where organization_id = ? order by lead_id`,
      [a.admin.organizationId],
    );
  const overdueLane = async (person: { key: string }): Promise<number[]> => {
    const res = await as(person)
      .post('/v1/queues/preview')
      .send({
        definition: {
          calling: { coolDownMinutes: 0 },
          lanes: [
            {
              name: 'Overdue',
              when: {
                type: 'group',
                combinator: 'and',
                children: [
                  {
                    type: 'condition',
                    field: 'taskOverdue',
                    operator: 'is_true',
                    value: { kind: 'boolean', value: true },
                  },
                ],
              },
            },
          ],
          rest: 'hide',
        },
      })
      .expect(200);
    return res.body.rows.map((row: { id: number }) => row.id);
  };

  beforeAll(async () => {
    t = await TestApp.start();
    t.clock.set(NOW);
    a = await t.seed.agency('Facts Agency');
    other = await t.seed.agency('Other Agency');
    lead = await t.seed.lead(a.admin, { assigneeIds: [a.member.userId] });
  });
  afterAll(() => t.stop());

  it('every task write recomputes the lead’s task facts; a lead without a facts row gets one', async () => {
    expect(await factsOf(lead.id)).toBeUndefined();
    // a timed task due an hour ago: overdue from one microsecond after its due moment
    const timed = await postTask(t, a.member.key, {
      leadId: lead.id,
      dueDate: new Date(NOW.getTime() - HOUR).toISOString(),
    });
    expect(await factsOf(lead.id)).toEqual({
      pending_tasks: 1,
      next_task_due_at: '2026-11-20T14:30:00.000Z',
      overdue_from: '2026-11-20T14:30:00.000Z',
      open_deal_stages: [],
    });
    // (timestamptz keeps microseconds; the driver's Date drops them: check the exact value in SQL)
    const [exact] = await sql<{ ok: boolean }>(
      t,
      `select overdue_from = next_task_due_at + interval '1 microsecond' as ok from lead_facts where lead_id = ?`,
      [lead.id],
    );
    expect(exact.ok).toBe(true);
    expect(await overdueLane(a.member)).toEqual([lead.id]);

    // a date-only task due yesterday: overdue from today 00:00 UTC, earlier than the timed one
    const dateOnly = await postTask(t, a.member.key, { leadId: lead.id, dueDate: '2026-11-19' });
    expect(await factsOf(lead.id)).toEqual({
      pending_tasks: 2,
      next_task_due_at: '2026-11-19T00:00:00.000Z',
      overdue_from: '2026-11-20T00:00:00.000Z',
      open_deal_stages: [],
    });

    // PATCH the due dates into the future: nothing is overdue
    await as(a.member).patch(`/v1/tasks/${dateOnly.id}`).send({ dueDate: '2026-11-20' }).expect(200);
    await as(a.member)
      .patch(`/v1/tasks/${timed.id}`)
      .send({ dueDate: new Date(NOW.getTime() + 2 * DAY).toISOString() })
      .expect(200);
    expect(await factsOf(lead.id)).toEqual({
      pending_tasks: 2,
      next_task_due_at: '2026-11-20T00:00:00.000Z',
      overdue_from: '2026-11-21T00:00:00.000Z',
      open_deal_stages: [],
    });
    expect(await overdueLane(a.member)).toEqual([]);

    // complete, reopen, delete
    await as(a.member).patch(`/v1/tasks/${dateOnly.id}`).send({ status: 'completed' }).expect(200);
    expect(await factsOf(lead.id)).toMatchObject({
      pending_tasks: 1,
      next_task_due_at: '2026-11-22T15:30:00.000Z',
    });
    await as(a.member).patch(`/v1/tasks/${dateOnly.id}`).send({ status: 'pending' }).expect(200);
    expect(await factsOf(lead.id)).toMatchObject({
      pending_tasks: 2,
      overdue_from: '2026-11-21T00:00:00.000Z',
    });
    await as(a.member).delete(`/v1/tasks/${dateOnly.id}`).expect(204);
    await as(a.member).delete(`/v1/tasks/${timed.id}`).expect(204);
    expect(await factsOf(lead.id)).toEqual({
      pending_tasks: 0,
      next_task_due_at: null,
      overdue_from: null,
      open_deal_stages: [],
    });
  });

  it('the task write and the facts commit together: while the facts wait, the write is not visible', async () => {
    const task = await postTask(t, a.member.key, { leadId: lead.id, dueDate: '2026-11-18' });
    expect(await factsOf(lead.id)).toMatchObject({ pending_tasks: 1 });
    const blocker = new Client({ connectionString: process.env.DATABASE_URL });
    await blocker.connect();
    try {
      await blocker.query('begin');
      await blocker.query('lock table lead_facts in exclusive mode');
      const completing = as(a.member)
        .patch(`/v1/tasks/${task.id}`)
        .send({ status: 'completed' })
        .then((res) => res);
      // the write has flushed and waits to write the facts (polled, bounded by the lock timeout)
      const until = Date.now() + 1_000;
      let waiting = 0;
      while (!waiting && Date.now() < until) {
        const found = await blocker.query(
          `select 1 from pg_locks where not granted and relation = 'lead_facts'::regclass`,
        );
        waiting = found.rowCount ?? 0;
      }
      expect(waiting).toBe(1);
      const [seen] = await sql<{ status: string }>(t, 'select status from tasks where id = ?', [task.id]);
      expect(seen.status).toBe('pending');
      expect(await factsOf(lead.id)).toMatchObject({ pending_tasks: 1 });
      await blocker.query('rollback');
      expect((await completing).status).toBe(200);
    } finally {
      await blocker.end();
    }
    const [done] = await sql<{ status: string }>(t, 'select status from tasks where id = ?', [task.id]);
    expect(done.status).toBe('completed');
    expect(await factsOf(lead.id)).toMatchObject({ pending_tasks: 0, overdue_from: null });
  });

  it('every deal write that moves a stage or status recomputes the open deal stages', async () => {
    const dealLead = await t.seed.lead(a.admin, { assigneeIds: [a.member.userId] });
    const post = async (stage: string) => {
      const res = await as(a.member).post('/v1/deals').send({ leadId: dealLead.id, title: 'Flat', stage });
      expect(res.status).toBe(201);
      return res.body.id as string;
    };
    const first = await post('viewing');
    expect(await factsOf(dealLead.id)).toMatchObject({ pending_tasks: 0, open_deal_stages: ['viewing'] });
    const second = await post('qualified');
    expect((await factsOf(dealLead.id))?.open_deal_stages).toEqual(['qualified', 'viewing']);
    await as(a.member).put(`/v1/deals/${second}/stage`).send({ stage: 'offer' }).expect(200);
    expect((await factsOf(dealLead.id))?.open_deal_stages).toEqual(['offer', 'viewing']);
    await as(a.member).post(`/v1/deals/${first}/won`).send({}).expect(200);
    expect((await factsOf(dealLead.id))?.open_deal_stages).toEqual(['offer']);
    await as(a.member).post(`/v1/deals/${second}/lost`).send({}).expect(200);
    expect((await factsOf(dealLead.id))?.open_deal_stages).toEqual([]);
    await as(a.member).post(`/v1/deals/${second}/reopen`).send({ stage: 'reserved' }).expect(200);
    expect((await factsOf(dealLead.id))?.open_deal_stages).toEqual(['reserved']);
    // a stage move reopens a won deal
    await as(a.member).put(`/v1/deals/${first}/stage`).send({ stage: 'reserved' }).expect(200);
    expect((await factsOf(dealLead.id))?.open_deal_stages).toEqual(['reserved']);
    // a refused write (409: reopen an open deal) leaves the facts as they were
    expect((await as(a.member).post(`/v1/deals/${first}/reopen`).send({})).status).toBe(409);
    expect((await factsOf(dealLead.id))?.open_deal_stages).toEqual(['reserved']);
    // another agency's write never touches this agency's facts (404)
    expect((await as(other.admin).post(`/v1/deals/${first}/won`).send({})).status).toBe(404);
    expect((await factsOf(dealLead.id))?.open_deal_stages).toEqual(['reserved']);
  });

  it('facts:rebuild computes the same values as the writes', async () => {
    const busy = await t.seed.lead(a.admin);
    await postTask(t, a.admin.key, { leadId: busy.id, dueDate: '2026-11-25' });
    await postTask(t, a.admin.key, { leadId: busy.id, dueDate: '2026-11-20T09:00:00Z' });
    const done = await postTask(t, a.admin.key, { leadId: busy.id, dueDate: '2026-11-01' });
    await as(a.admin).patch(`/v1/tasks/${done.id}`).send({ status: 'completed' }).expect(200);
    await as(a.admin).post('/v1/deals').send({ leadId: busy.id, title: 'Flat', stage: 'offer' }).expect(201);
    const incremental = await allFacts();
    expect(incremental.length).toBeGreaterThanOrEqual(3);
    await sql(
      t,
      `update lead_facts set pending_tasks = 99, next_task_due_at = null, overdue_from = now(),
              open_deal_stages = '{x}' where organization_id = ?`,
      [a.admin.organizationId],
    );
    const result = await t.get(LeadFactsService).rebuild(a.admin.organizationId);
    expect(result.organizationId).toBe(a.admin.organizationId);
    expect(await allFacts()).toEqual(incremental);
  });
});
