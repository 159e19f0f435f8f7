import { Client } from 'pg';
import { LeadCountersCompaction } from '@app/crm';
import { api, leadBody, sql, TestApp } from '../fixtures';

/**
 * Totals, counts and tag lead counts come from trigger-kept counters; after any mix of changes
 * they must equal what counting the rows gives.
 */
describe('lead counters', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.stop());
  beforeEach(() => t.resetRows());

  it('stay equal to counting the rows after creates, status, bulk status, tag and owner changes', async () => {
    const a = await t.seed.agency();
    const admin = api(t, a.admin.key);
    const hot = await t.seed.tag(a.admin, 'Hot');
    const cold = await t.seed.tag(a.admin, 'Cold');
    const ids: number[] = [];
    for (let i = 0; i < 8; i++)
      ids.push((await t.seed.lead(a.admin, { crmStatus: i % 2 ? 'lead' : 'client' })).id);
    await t.seed.lead(a.member, { crmStatus: 'potential' });
    await admin.put(`/v1/leads/${ids[0]}/status`).send({ crmStatus: 'bad_timing' }).expect(200);
    await admin
      .post('/v1/leads/status')
      .send({ leadIds: ids.slice(1, 5), crmStatus: 'unqualified' })
      .expect(200);
    await admin
      .put(`/v1/leads/${ids[1]}/tags`)
      .send({ tagIds: [hot.id, cold.id] })
      .expect(200);
    await admin
      .put(`/v1/leads/${ids[2]}/tags`)
      .send({ tagIds: [hot.id] })
      .expect(200);
    await admin
      .put(`/v1/leads/${ids[1]}/tags`)
      .send({ tagIds: [cold.id] })
      .expect(200);
    await admin.put(`/v1/leads/${ids[3]}/assignees`).send({ userIds: [] }).expect(200);
    await admin.put(`/v1/leads/${ids[4]}/assignees`).send({ userIds: [] }).expect(200);
    await admin
      .post(`/v1/leads/${ids[4]}/assignees`)
      .send({ userIds: [a.member.userId] })
      .expect(200);
    await admin.patch(`/v1/leads/${ids[5]}`).send({ companyName: 'Acme' }).expect(200);

    const [{ organization_id: orgId }] = await sql<{ organization_id: string }>(
      t,
      'select organization_id from leads limit 1',
    );
    const counted = await sql<{ crm_status: string; n: string; unassigned: string }>(
      t,
      `select crm_status, count(*) as n, count(*) filter (where cardinality(assignee_ids) = 0) as unassigned
         from leads where organization_id = ? group by 1 order by 1`,
      [orgId],
    );
    const kept = await sql<{ crm_status: string; n: string; unassigned: string }>(
      t,
      `select crm_status, sum(n) as n, sum(unassigned) as unassigned from lead_status_counts
        where organization_id = ? group by 1 having sum(n) > 0 order by 1`,
      [orgId],
    );
    expect(kept.map((r) => [r.crm_status, Number(r.n), Number(r.unassigned)])).toEqual(
      counted.map((r) => [r.crm_status, Number(r.n), Number(r.unassigned)]),
    );

    const counts = await admin.get('/v1/leads/counts').expect(200);
    expect(counts.body).toEqual({
      lead: 2,
      potential: 1,
      bad_timing: 1,
      client: 1,
      unqualified: 4,
      unassigned: 1,
    });
    const list = await admin.get('/v1/leads?limit=1').expect(200);
    expect(list.body.total).toBe(9);
    expect((await admin.get('/v1/leads?crmStatus=unqualified').expect(200)).body.total).toBe(4);

    const tags = await t.http.get('/tags').auth(a.admin.token, { type: 'bearer' }).expect(200);
    const leadCount = Object.fromEntries(
      tags.body.data.map((tag: { name: string; leadCount: number }) => [tag.name, tag.leadCount]),
    );
    expect(leadCount).toEqual({ Hot: 1, Cold: 1 });

    // folded back into one row per key, the same totals
    await t.get(LeadCountersCompaction).compact(new Date());
    const rows = await sql<{ crm_status: string; n: string }>(
      t,
      'select crm_status, count(*) as n from lead_status_counts where organization_id = ? group by 1',
      [orgId],
    );
    expect(rows.every((row) => Number(row.n) === 1)).toBe(true);
    expect((await admin.get('/v1/leads/counts').expect(200)).body).toEqual(counts.body);
    const tagsAfter = await t.http.get('/tags').auth(a.admin.token, { type: 'bearer' }).expect(200);
    expect(tagsAfter.body).toEqual(tags.body);
  });

  it('make no create wait for another: with a status change of the agency uncommitted, a create answers 201', async () => {
    const a = await t.seed.agency();
    const admin = api(t, a.admin.key);
    const [one, other] = [await t.seed.lead(a.admin), await t.seed.lead(a.admin)];
    const holder = new Client({ connectionString: process.env.DATABASE_URL });
    await holder.connect();
    try {
      // what a slow write of the agency holds until its commit: its counters' rows, once one per key
      await holder.query('begin');
      await holder.query("update leads set crm_status = 'potential' where id = $1", [one.id]);
      const created = await admin.post('/v1/leads').send(leadBody({ crmStatus: 'lead' }));
      expect(created.status).toBe(201);
      await admin.put(`/v1/leads/${other.id}/status`).send({ crmStatus: 'potential' }).expect(200);
    } finally {
      await holder.query('rollback');
      await holder.end();
    }
    expect((await admin.get('/v1/leads/counts').expect(200)).body).toMatchObject({ lead: 2, potential: 1 });
  });

  it('keep agencies apart', async () => {
    const one = await t.seed.agency('One');
    const two = await t.seed.agency('Two');
    await t.seed.lead(one.admin);
    await t.seed.lead(one.admin);
    await t.seed.lead(two.admin);
    expect((await api(t, one.admin.key).get('/v1/leads').expect(200)).body.total).toBe(2);
    expect((await api(t, two.admin.key).get('/v1/leads').expect(200)).body.total).toBe(1);
  });
});
