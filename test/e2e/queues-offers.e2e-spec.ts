import { OfferGenerator } from '@app/queues';
import { Agency, api, asKey, count, expectError, expectNotFound, LeadJson, sql, TestApp } from '../fixtures';

/**
 * Queue offers through HTTP (issue 13 item 8, INTERFACES.md "Queues" → Offers): each trigger
 * (`call_ended` from a connector's call, `task_completed` from the task route, `time_passed` from
 * the hourly job), one open offer per lead and rule, accept for each kind (history source `api`),
 * dismiss, undo and its 409s, the admin-only `assign`, and who gets 404.
 */

interface OfferBody {
  id: string;
  leadId: number;
  queueId: string;
  ruleId: string;
  when: string;
  offer: Record<string, unknown>;
  status: string;
  sentence: string;
  createdAt: string;
  decidedAt: string | null;
  decidedBy: string | null;
}

const condition = (field: string, operator: string, value: unknown) => ({
  type: 'condition',
  field,
  operator,
  value,
});
const group = (...children: unknown[]) => ({ type: 'group', combinator: 'and', children });
const strings = (...values: string[]) => ({ kind: 'strings', values });
const OFFER_FIELDS = [
  'createdAt',
  'decidedAt',
  'decidedBy',
  'id',
  'leadId',
  'offer',
  'queueId',
  'ruleId',
  'sentence',
  'status',
  'when',
].sort();

describe('Queues: offers', () => {
  let t: TestApp;
  let a: Agency;
  let other: Agency;
  let key: string;
  let hot: { id: string; name: string };
  let cold: { id: string; name: string };
  let queueId: string;
  let calls = 0;

  const as = (person: { key: string }) => api(t, person.key);
  const offersOf = async (person: { key: string }, leadId: number): Promise<Record<string, OfferBody>> => {
    const res = await as(person).get(`/v1/leads/${leadId}/offers`).expect(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'hasMore']);
    const open = (res.body.data as OfferBody[]).filter((offer) => offer.status === 'open');
    return Object.fromEntries(open.map((offer) => [offer.ruleId, offer]));
  };
  const openCount = (leadId: number) =>
    count(t, `select count(*) as n from offers where lead_id = ? and status = 'open'`, [leadId]);
  /** A connector's call on the lead, new (201) unless `externalId` was stored before. */
  const callEnded = async (leadId: number, externalId = `call-${++calls}`) => {
    const res = await asKey(t.http.put(`/integrations/v1/calls/${externalId}`), key).send({
      leadId,
      direction: 'outbound',
      status: 'no-answer',
      durationSeconds: 0,
      hasRecording: false,
      startedAt: '2026-11-20T10:00:00Z',
    });
    expect([200, 201]).toContain(res.status);
  };
  const taskCompleted = async (person: Agency['member'], leadId: number) => {
    const task = await t.seed.task(person, { leadId, title: 'Visit' });
    await as(person).patch(`/v1/tasks/${task.id}`).send({ status: 'completed' }).expect(200);
  };
  const memberLead = (overrides: Record<string, unknown> = {}) =>
    t.seed.lead(a.admin, { assigneeIds: [a.member.userId], ...overrides });

  beforeAll(async () => {
    t = await TestApp.start();
    a = await t.seed.agency('Offers Agency');
    other = await t.seed.agency('Other Offers');
    key = (await t.seed.integrationKey(a.admin, 'aircall')).key;
    hot = await t.seed.tag(a.admin, 'Hot');
    cold = await t.seed.tag(a.admin, 'Cold');
    const queue = await as(a.admin)
      .post('/v1/queues')
      .send({
        name: 'Follow-ups',
        scope: 'shared',
        rules: [
          {
            id: 'to-potential',
            when: 'call_ended',
            if: group(condition('crmStatus', 'has_any_of', strings('lead'))),
            offer: { kind: 'set_status', status: 'potential' },
          },
          { id: 'tag-hot', when: 'call_ended', if: group(), offer: { kind: 'add_tag', tagId: hot.id } },
          { id: 'call-back', when: 'task_completed', if: group(), offer: { kind: 'follow_up', inDays: 2 } },
          {
            id: 'uncold',
            when: 'task_completed',
            if: group(condition('tag', 'has_any_of', strings(cold.id))),
            offer: { kind: 'remove_tag', tagId: cold.id },
          },
          {
            id: 'hand-over',
            when: 'task_completed',
            if: group(condition('crmStatus', 'has_any_of', strings('client'))),
            offer: { kind: 'assign', userId: a.colleague.userId },
          },
        ],
      })
      .expect(201);
    queueId = queue.body.id as string;
  });
  afterAll(() => t.stop());

  describe('triggers', () => {
    it('call_ended: a new call makes one open offer per rule whose `if` holds; more calls make none', async () => {
      const lead = await memberLead();
      const client = await memberLead({ crmStatus: 'client' });
      await callEnded(lead.id, 'first-call');
      await callEnded(client.id);

      const offers = await offersOf(a.member, lead.id);
      expect(Object.keys(offers).sort()).toEqual(['tag-hot', 'to-potential']);
      expect(Object.keys(offers['to-potential']).sort()).toEqual(OFFER_FIELDS);
      expect(offers['to-potential']).toEqual({
        id: expect.any(String),
        leadId: lead.id,
        queueId,
        ruleId: 'to-potential',
        when: 'call_ended',
        offer: { kind: 'set_status', status: 'potential' },
        status: 'open',
        sentence: 'Set status to potential',
        createdAt: expect.any(String),
        decidedAt: null,
        decidedBy: null,
      });
      expect(offers['tag-hot'].sentence).toBe('Add the tag "Hot"');
      // the client matches only the rule with an empty `if`
      expect(Object.keys(await offersOf(a.admin, client.id))).toEqual(['tag-hot']);

      // another call, and the first call sent again: still one open offer per rule
      await callEnded(lead.id);
      await callEnded(lead.id, 'first-call');
      expect(await openCount(lead.id)).toBe(2);
    });

    it('task_completed: completing a task through the route makes its offers, once', async () => {
      const lead = await memberLead();
      await as(a.member)
        .put(`/v1/leads/${lead.id}/tags`)
        .send({ tagIds: [cold.id] })
        .expect(200);
      await taskCompleted(a.member, lead.id);
      const offers = await offersOf(a.member, lead.id);
      expect(Object.keys(offers).sort()).toEqual(['call-back', 'uncold']);
      expect(offers['call-back']).toMatchObject({ when: 'task_completed', sentence: 'Call back in 2 days' });
      expect(offers.uncold.sentence).toBe('Remove the tag "Cold"');
      await taskCompleted(a.member, lead.id);
      expect(await openCount(lead.id)).toBe(2);
    });

    it('time_passed: the hourly job evaluates each queue as its creator opens it, once per rule', async () => {
      const b = await t.seed.agency('Hourly Agency');
      const mine = await t.seed.lead(b.admin, { assigneeIds: [b.member.userId] });
      const theirs = await t.seed.lead(b.admin, { assigneeIds: [b.colleague.userId] });
      // the admin's queue reaches every lead; the member's private `$me` queue only the member's
      await as(b.admin)
        .post('/v1/queues')
        .send({
          name: 'Stale',
          rules: [{ id: 'wake', when: 'time_passed', if: group(), offer: { kind: 'follow_up', inDays: 0 } }],
        })
        .expect(201);
      await as(b.member)
        .post('/v1/queues')
        .send({
          name: 'Mine',
          root: group(condition('assignee', 'has_any_of', strings('$me'))),
          rules: [
            {
              id: 'promote',
              when: 'time_passed',
              if: group(),
              offer: { kind: 'set_status', status: 'client' },
            },
          ],
        })
        .expect(201);
      const before = await count(t, 'select count(*) as n from offers');
      const job = t.get(OfferGenerator);
      const first = await job.timePassed(new Date());
      expect(first.offers).toBe(3);
      expect(Object.keys(await offersOf(b.member, mine.id)).sort()).toEqual(['promote', 'wake']);
      const forTheirs = await offersOf(b.admin, theirs.id);
      expect(Object.keys(forTheirs)).toEqual(['wake']);
      expect(forTheirs.wake.sentence).toBe('Call back today');
      expect((await job.timePassed(new Date())).offers).toBe(0);
      expect(await count(t, 'select count(*) as n from offers')).toBe(before + 3);
    });
  });

  describe('accept, dismiss, undo', () => {
    it('set_status and add_tag: applied as API changes, undone within 24 h (the offer opens again)', async () => {
      const lead = await memberLead();
      await callEnded(lead.id);
      const offers = await offersOf(a.member, lead.id);

      const accepted = await as(a.member).post(`/v1/offers/${offers['to-potential'].id}/accept`).expect(200);
      expect(Object.keys(accepted.body).sort()).toEqual(['lead', 'offer']);
      expect(accepted.body.offer).toMatchObject({
        id: offers['to-potential'].id,
        status: 'accepted',
        decidedBy: a.member.userId,
        decidedAt: expect.any(String),
      });
      expect((accepted.body.lead as LeadJson).crmStatus).toBe('potential');
      const [history] = await sql<{ payload: Record<string, unknown> }>(
        t,
        `select payload from lead_history where lead_id = ? and type = 'status-change'`,
        [lead.id],
      );
      expect(history.payload).toMatchObject({
        from: 'lead',
        to: 'potential',
        source: 'api',
        changedBy: a.member.userId,
      });

      // a decided offer cannot be decided again
      expectError(await as(a.member).post(`/v1/offers/${offers['to-potential'].id}/accept`), 409, 'CONFLICT');
      expectError(
        await as(a.member).post(`/v1/offers/${offers['to-potential'].id}/dismiss`),
        409,
        'CONFLICT',
      );

      const tagged = await as(a.member).post(`/v1/offers/${offers['tag-hot'].id}/accept`).expect(200);
      expect((tagged.body.lead as LeadJson).tags.map((tag) => tag.id)).toEqual([hot.id]);

      // the tag's accept changed the lead after the status's: that undo is refused, the tag's is not
      expectError(await as(a.member).post(`/v1/offers/${offers['to-potential'].id}/undo`), 409, 'CONFLICT');
      const untagged = await as(a.member).post(`/v1/offers/${offers['tag-hot'].id}/undo`).expect(200);
      expect(untagged.body.offer).toMatchObject({ status: 'open', decidedAt: null, decidedBy: null });
      expect((untagged.body.lead as LeadJson).tags).toEqual([]);
      expect((untagged.body.lead as LeadJson).crmStatus).toBe('potential');
      // an open offer is not accepted: no undo
      expectError(await as(a.member).post(`/v1/offers/${offers['tag-hot'].id}/undo`), 409, 'CONFLICT');
    });

    it('set_status undo puts the status back; after 24 h or a later change of the lead it is refused', async () => {
      const lead = await memberLead();
      await callEnded(lead.id);
      const { 'to-potential': offer } = await offersOf(a.member, lead.id);
      await as(a.member).post(`/v1/offers/${offer.id}/accept`).expect(200);
      const undone = await as(a.member).post(`/v1/offers/${offer.id}/undo`).expect(200);
      expect((undone.body.lead as LeadJson).crmStatus).toBe('lead');
      expect(undone.body.offer.status).toBe('open');

      // accepted again, then 24 h pass
      await as(a.member).post(`/v1/offers/${offer.id}/accept`).expect(200);
      await sql(t, `update offers set decided_at = decided_at - interval '24 hours 1 second' where id = ?`, [
        offer.id,
      ]);
      expectError(await as(a.member).post(`/v1/offers/${offer.id}/undo`), 409, 'CONFLICT');
      await sql(t, `update offers set decided_at = now() where id = ?`, [offer.id]);
      // the lead changed since
      await as(a.member).patch(`/v1/leads/${lead.id}`).send({ companyName: 'Acme' }).expect(200);
      expectError(await as(a.member).post(`/v1/offers/${offer.id}/undo`), 409, 'CONFLICT');
      expect((await as(a.member).get(`/v1/leads/${lead.id}`).expect(200)).body.crmStatus).toBe('potential');
    });

    it('follow_up makes a date-only "Call back" task for the acceptor; remove_tag; undo deletes and restores', async () => {
      const lead = await memberLead();
      await as(a.member)
        .put(`/v1/leads/${lead.id}/tags`)
        .send({ tagIds: [cold.id, hot.id] })
        .expect(200);
      await taskCompleted(a.member, lead.id);
      const offers = await offersOf(a.member, lead.id);

      const followed = await as(a.member).post(`/v1/offers/${offers['call-back'].id}/accept`).expect(200);
      const due = new Date(
        Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 2),
      );
      const tasks = async () =>
        (
          (await as(a.member).get(`/v1/tasks?leadId=${lead.id}`).expect(200)).body.data as Record<
            string,
            unknown
          >[]
        ).filter((task) => task.title === 'Call back');
      expect(await tasks()).toEqual([
        expect.objectContaining({
          dueDate: due.toISOString(),
          assigneeIds: [a.member.userId],
          status: 'pending',
        }),
      ]);
      expect(followed.body.lead.pendingTasks).toBe(1);
      await as(a.member).post(`/v1/offers/${offers['call-back'].id}/undo`).expect(200);
      expect(await tasks()).toEqual([]);

      const removed = await as(a.member).post(`/v1/offers/${offers.uncold.id}/accept`).expect(200);
      expect((removed.body.lead as LeadJson).tags.map((tag) => tag.id)).toEqual([hot.id]);
      const restored = await as(a.member).post(`/v1/offers/${offers.uncold.id}/undo`).expect(200);
      expect((restored.body.lead as LeadJson).tags.map((tag) => tag.id).sort()).toEqual(
        [cold.id, hot.id].sort(),
      );
    });

    it('assign: a member gets 403 ORG_ADMIN_REQUIRED; an admin makes the person the owner and undoes it', async () => {
      const lead = await memberLead({ crmStatus: 'client' });
      await taskCompleted(a.member, lead.id);
      const { 'hand-over': offer } = await offersOf(a.member, lead.id);
      expect(offer.sentence).toMatch(/^Assign to /);
      expectError(await as(a.member).post(`/v1/offers/${offer.id}/accept`), 403, 'ORG_ADMIN_REQUIRED');
      const accepted = await as(a.admin).post(`/v1/offers/${offer.id}/accept`).expect(200);
      expect((accepted.body.lead as LeadJson).assigneeIds).toEqual([a.colleague.userId]);
      const undone = await as(a.admin).post(`/v1/offers/${offer.id}/undo`).expect(200);
      expect((undone.body.lead as LeadJson).assigneeIds).toEqual([a.member.userId]);
    });

    it('dismiss leaves the lead; a dismissed offer is listed 7 days and cannot be accepted or undone', async () => {
      const lead = await memberLead();
      await callEnded(lead.id);
      const { 'to-potential': offer } = await offersOf(a.member, lead.id);
      const dismissed = await as(a.member).post(`/v1/offers/${offer.id}/dismiss`).expect(200);
      expect(Object.keys(dismissed.body)).toEqual(['offer']);
      expect(dismissed.body.offer).toMatchObject({ status: 'dismissed', decidedBy: a.member.userId });
      expectError(await as(a.member).post(`/v1/offers/${offer.id}/accept`), 409, 'CONFLICT');
      expectError(await as(a.member).post(`/v1/offers/${offer.id}/undo`), 409, 'CONFLICT');
      expect((await as(a.member).get(`/v1/leads/${lead.id}`).expect(200)).body.crmStatus).toBe('lead');

      const listed = async () =>
        ((await as(a.member).get(`/v1/leads/${lead.id}/offers`).expect(200)).body.data as OfferBody[]).map(
          (o) => o.id,
        );
      expect(await listed()).toContain(offer.id);
      await sql(t, `update offers set decided_at = now() - interval '8 days' where id = ?`, [offer.id]);
      expect(await listed()).not.toContain(offer.id);
      // a body is refused
      expectError(await as(a.member).post(`/v1/offers/${offer.id}/accept`).send({}), 400, 'BAD_REQUEST');
    });

    it('404: a lead the caller does not reach, another agency, an unknown offer', async () => {
      const lead = await memberLead();
      await callEnded(lead.id);
      const { 'to-potential': offer } = await offersOf(a.member, lead.id);
      for (const action of ['accept', 'dismiss', 'undo']) {
        expectNotFound(await as(a.colleague).post(`/v1/offers/${offer.id}/${action}`), 'Offer');
        expectNotFound(await as(other.admin).post(`/v1/offers/${offer.id}/${action}`), 'Offer');
      }
      expectNotFound(
        await as(a.admin).post('/v1/offers/0190a0a0-0000-7000-8000-000000000001/accept'),
        'Offer',
      );
      expectNotFound(await as(a.colleague).get(`/v1/leads/${lead.id}/offers`), 'Lead');
      expectNotFound(await as(other.admin).get(`/v1/leads/${lead.id}/offers`), 'Lead');
      expect((await offersOf(a.member, lead.id))['to-potential'].status).toBe('open');
    });
  });
});
