import { EventRetention } from '@app/events';
import {
  Agency,
  api,
  expectError,
  expectValidation,
  intakeLead,
  LeadJson,
  MINUTE,
  postLead,
  sql,
  TestApp,
} from '../fixtures';

interface Event {
  id: string;
  organizationId: string;
  sequence: number;
  type: string;
  occurredAt: string;
  subject: { type: string; id: string; leadId?: number };
  recordVersion: number;
  actor: { type: string; id: string | null; userId: string | null };
  data: { object: Record<string, unknown>; previous?: Record<string, unknown> };
  changedFields?: string[];
}

interface EventPage {
  data: Event[];
  hasMore: boolean;
  nextAfter: number;
}

const DAY = 24 * 60 * MINUTE;

/**
 * The event log (issue 19 items 1-2; INTERFACES.md "Webhooks and MCP", Events): the CRM's lead,
 * note and task events written in each write's transaction, `GET /v1/events` with its paging,
 * filters, member reach and retention.
 */
describe('Events: the log and GET /v1/events', () => {
  let t: TestApp;
  let a: Agency;
  beforeAll(async () => {
    t = await TestApp.start({ env: { LOG_LEVEL: 'error' } });
  });
  afterAll(() => t.stop());
  beforeEach(async () => {
    await t.resetRows();
    a = await t.seed.agency();
  });

  const events = (key: string, query = '') => api(t, key).get(`/v1/events${query}`);
  const page = async (key: string, query = ''): Promise<EventPage> => {
    const res = await events(key, query);
    expect(res.status).toBe(200);
    return res.body as EventPage;
  };
  /** Every event the key reads, paging with `after`. */
  const all = async (key: string, query = ''): Promise<Event[]> => {
    const out: Event[] = [];
    let after = 0;
    for (;;) {
      const body = await page(key, `?after=${after}&limit=500${query}`);
      out.push(...body.data);
      if (!body.hasMore) return out;
      after = body.nextAfter;
    }
  };
  const typesOf = (list: Event[]) => list.map((event) => event.type);
  const organizationRows = (organizationId: string) =>
    sql<{ sequence: string }>(t, 'select sequence from event where organization_id = ? order by sequence', [
      organizationId,
    ]);

  describe('reading', () => {
    it('an organization without events: empty page, nextAfter = the after sent', async () => {
      expect(await page(a.admin.key, '?after=7')).toEqual({ data: [], hasMore: false, nextAfter: 7 });
      expect(await page(a.admin.key)).toEqual({ data: [], hasMore: false, nextAfter: 0 });
    });

    it('validation: limit 0 and 501, after -1 or not a number, unknown types → 400 VALIDATION_FAILED', async () => {
      expectValidation(await events(a.admin.key, '?limit=0'), 'limit');
      expectValidation(await events(a.admin.key, '?limit=501'), 'limit');
      expectValidation(await events(a.admin.key, '?limit=1.5'), 'limit');
      expectValidation(await events(a.admin.key, '?after=-1'), 'after');
      expectValidation(await events(a.admin.key, '?after=abc'), 'after');
      expectValidation(await events(a.admin.key, '?types=lead.nope'), 'types');
      expectValidation(await events(a.admin.key, '?types=nope.*'), 'types');
      expectValidation(await events(a.admin.key, '?types=*'), 'types');
      expectValidation(await events(a.admin.key, '?types=lead.created,'), 'types');
      expectValidation(await events(a.admin.key, '?types='), 'types');
      expect((await events(a.admin.key, '?types=lead.*,task.completed&limit=500')).status).toBe(200);
      expect((await events(a.admin.key, '?types=ping&limit=1&after=0')).status).toBe(200);
    });

    it('needs crm:read; no plan needed', async () => {
      const writeOnly = await t.seed.apiKey(a.admin, ['crm:write']);
      expectError(await events(writeOnly.key), 403, 'API_KEY_SCOPE_MISSING');
      await t.seed.plan(a.admin, false);
      expect((await events(a.admin.key)).status).toBe(200);
    });

    it('pages ascending by sequence: limit, hasMore, nextAfter', async () => {
      const lead = await t.seed.lead(a.admin);
      for (let i = 0; i < 4; i++) await t.seed.note(a.admin, lead.id, `note ${i}`);
      const first = await page(a.admin.key, '?limit=2');
      expect(first.data.map((e) => e.sequence)).toEqual([1, 2]);
      expect(first).toMatchObject({ hasMore: true, nextAfter: 2 });
      const second = await page(a.admin.key, '?limit=2&after=2');
      expect(second.data.map((e) => e.sequence)).toEqual([3, 4]);
      expect(second).toMatchObject({ hasMore: true, nextAfter: 4 });
      const last = await page(a.admin.key, '?limit=2&after=4');
      expect(last.data.map((e) => e.sequence)).toEqual([5]);
      expect(last).toMatchObject({ hasMore: false, nextAfter: 5 });
      expect(await page(a.admin.key, '?after=5')).toEqual({ data: [], hasMore: false, nextAfter: 5 });
    });

    it('types: exact types and <kind>.*', async () => {
      const lead = await t.seed.lead(a.admin);
      const note = await t.seed.note(a.admin, lead.id);
      await api(t, a.admin.key).patch(`/v1/notes/${note.id}`).send({ content: 'edited' }).expect(200);
      await t.seed.task(a.admin, { leadId: lead.id, title: 'Call back' });
      expect(typesOf(await all(a.admin.key))).toEqual([
        'lead.created',
        'note.created',
        'note.updated',
        'task.created',
      ]);
      expect(typesOf(await all(a.admin.key, '&types=note.*'))).toEqual(['note.created', 'note.updated']);
      expect(typesOf(await all(a.admin.key, '&types=lead.*,task.created'))).toEqual([
        'lead.created',
        'task.created',
      ]);
      expect(typesOf(await all(a.admin.key, '&types=note.updated'))).toEqual(['note.updated']);
      expect(await all(a.admin.key, '&types=deal.*')).toEqual([]);
    });

    it("another organization's events are never visible, to its admin or its members", async () => {
      const other = await t.seed.agency('Other Agency');
      const theirs = await t.seed.lead(other.admin, { assigneeIds: [other.member.userId] });
      await t.seed.note(other.admin, theirs.id);
      const mine = await t.seed.lead(a.admin, { assigneeIds: [a.member.userId] });
      expect((await all(a.admin.key)).map((e) => e.subject.leadId)).toEqual([mine.id]);
      expect((await all(a.member.key)).every((e) => e.organizationId === a.admin.organizationId)).toBe(true);
      expect((await all(other.admin.key)).map((e) => e.type)).toEqual(['lead.created', 'note.created']);
      expect((await all(other.admin.key)).every((e) => e.organizationId === other.admin.organizationId)).toBe(
        true,
      );
      // each organization numbers its own events from 1
      expect((await all(other.admin.key)).map((e) => e.sequence)).toEqual([1, 2]);
    });
  });

  describe('members', () => {
    it('a member reads only events of leads they reach now; events on no lead never', async () => {
      const theirs = await t.seed.lead(a.admin, { assigneeIds: [a.member.userId] });
      const colleagues = await t.seed.lead(a.admin, { assigneeIds: [a.colleague.userId] });
      await t.seed.note(a.admin, theirs.id, 'mine');
      await t.seed.note(a.admin, colleagues.id, 'not mine');
      // an event on no lead (as the webhooks' `ping` or a record of no lead)
      await sql(
        t,
        `insert into event (id, organization_id, sequence, type, occurred_at, subject_type, subject_id, lead_id,
                            record_version, actor, data)
         values ('evt_x', ?, 5, 'ping', now(), 'ping', 'x', null, 1, '{"type":"system","id":null,"userId":null}', '{"object":{}}')`,
        [a.admin.organizationId],
      );
      const seen = await all(a.member.key);
      expect(seen.map((e) => [e.type, e.subject.leadId, e.sequence])).toEqual([
        ['lead.created', theirs.id, 1],
        ['note.created', theirs.id, 3],
      ]);
      expect(await page(a.member.key, '?after=3')).toEqual({ data: [], hasMore: false, nextAfter: 3 });
      // the admin reads everything, the lead-less event too
      expect((await all(a.admin.key)).map((e) => e.sequence)).toEqual([1, 2, 3, 4, 5]);
      expect((await all(a.colleague.key)).map((e) => e.sequence)).toEqual([2, 4]);
    });

    it('a lead taken off a member takes its events along (reach is checked now, not at write time)', async () => {
      const lead = await t.seed.lead(a.admin, { assigneeIds: [a.member.userId] });
      await t.seed.note(a.member, lead.id, 'my note');
      expect(typesOf(await all(a.member.key))).toEqual(['lead.created', 'note.created']);
      await api(t, a.admin.key)
        .put(`/v1/leads/${lead.id}/assignees`)
        .send({ userIds: [a.colleague.userId] })
        .expect(200);
      expect(await all(a.member.key)).toEqual([]);
      expect(typesOf(await all(a.colleague.key))).toEqual(['lead.created', 'note.created', 'lead.assigned']);
    });

    it('member pages: limit and nextAfter over the gaps', async () => {
      const mine = await t.seed.lead(a.admin, { assigneeIds: [a.member.userId] });
      const other = await t.seed.lead(a.admin, { assigneeIds: [a.colleague.userId] });
      for (let i = 0; i < 3; i++) {
        await t.seed.note(a.admin, other.id, `other ${i}`);
        await t.seed.note(a.admin, mine.id, `mine ${i}`);
      }
      // sequences: 1 mine created, 2 other created, then other/mine notes: 3,4 5,6 7,8
      const first = await page(a.member.key, '?limit=2');
      expect(first.data.map((e) => e.sequence)).toEqual([1, 4]);
      expect(first).toMatchObject({ hasMore: true, nextAfter: 4 });
      const rest = await page(a.member.key, '?limit=2&after=4');
      expect(rest.data.map((e) => e.sequence)).toEqual([6, 8]);
      expect(rest).toMatchObject({ hasMore: false, nextAfter: 8 });
    });
  });

  describe('what the CRM records', () => {
    const sole = async (type: string): Promise<Event> => {
      const found = (await all(a.admin.key)).filter((event) => event.type === type);
      expect(found).toHaveLength(1);
      return found[0];
    };

    it('lead.created, lead.updated, lead.status_changed, lead.assigned: versions, changedFields, previous, object', async () => {
      const created = await postLead(t, a.admin.key, { firstName: 'Ada', crmStatus: 'lead' });
      const event = await sole('lead.created');
      expect(event).toEqual({
        id: expect.stringMatching(/^evt_[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/),
        organizationId: a.admin.organizationId,
        sequence: 1,
        type: 'lead.created',
        occurredAt: t.clock.now().toISOString(),
        subject: { type: 'lead', id: String(created.id), leadId: created.id },
        recordVersion: 1,
        actor: { type: 'api_key', id: expect.any(String), userId: a.admin.userId },
        data: { object: created },
      });

      const lead = (path: string) => `/v1/leads/${created.id}${path}`;
      const patched = await api(t, a.admin.key)
        .patch(lead(''))
        .send({ firstName: 'Ada B', email: 'ada@example.test' })
        .expect(200);
      const updated = await sole('lead.updated');
      expect(updated).toMatchObject({
        sequence: 2,
        recordVersion: 2,
        changedFields: ['firstName', 'email'],
        data: { object: patched.body, previous: { firstName: 'Ada', email: created.email } },
      });

      const status = await api(t, a.admin.key).put(lead('/status')).send({ crmStatus: 'client' }).expect(200);
      expect(await sole('lead.status_changed')).toMatchObject({
        sequence: 3,
        recordVersion: 3,
        changedFields: ['crmStatus'],
        data: { object: status.body, previous: { crmStatus: 'lead' } },
      });
      // the same status again changes nothing: no event, same version
      await api(t, a.admin.key).put(lead('/status')).send({ crmStatus: 'client' }).expect(200);

      const assigned = await api(t, a.admin.key)
        .put(lead('/assignees'))
        .send({ userIds: [a.member.userId] })
        .expect(200);
      expect(await sole('lead.assigned')).toMatchObject({
        sequence: 4,
        recordVersion: 4,
        changedFields: ['assigneeIds'],
        data: { object: assigned.body.lead, previous: { assigneeIds: [a.admin.userId] } },
      });

      const tag = await t.seed.tag(a.admin, 'VIP');
      const tagged = await api(t, a.admin.key)
        .put(lead('/tags'))
        .send({ tagIds: [tag.id] })
        .expect(200);
      const retagged = (await all(a.admin.key)).filter((e) => e.type === 'lead.updated')[1];
      expect(retagged).toMatchObject({
        sequence: 5,
        recordVersion: 5,
        changedFields: ['tags'],
        data: { object: tagged.body, previous: { tags: [] } },
      });
      expect(
        (await sql<{ version: number }>(t, 'select version from leads where id = ?', [created.id]))[0]
          .version,
      ).toBe(5);
      expect(typesOf(await all(a.admin.key))).toEqual([
        'lead.created',
        'lead.updated',
        'lead.status_changed',
        'lead.assigned',
        'lead.updated',
      ]);
      // no previous or changedFields on a create
      expect(event).not.toHaveProperty('changedFields');
      expect(event.data).not.toHaveProperty('previous');
    });

    it('bulk status: one lead.status_changed per lead that changed, the session actor', async () => {
      const one = await t.seed.lead(a.admin, { crmStatus: 'lead' });
      const two = await t.seed.lead(a.admin, { crmStatus: 'client' });
      await api(t, a.admin.key)
        .post('/v1/leads/status')
        .send({ leadIds: [one.id, two.id], crmStatus: 'client' })
        .expect(200);
      const changed = (await all(a.admin.key)).filter((e) => e.type === 'lead.status_changed');
      expect(changed).toHaveLength(1);
      expect(changed[0]).toMatchObject({
        subject: { type: 'lead', id: String(one.id), leadId: one.id },
        recordVersion: 2,
        changedFields: ['crmStatus'],
        data: { object: { id: one.id, crmStatus: 'client' }, previous: { crmStatus: 'lead' } },
      });
      const created = (await all(a.admin.key)).find((e) => e.type === 'lead.created')!;
      expect(created.actor).toEqual({ type: 'user', id: a.admin.userId, userId: a.admin.userId });
    });

    it('note.created, note.updated, note.deleted', async () => {
      const lead = await t.seed.lead(a.admin, { assigneeIds: [a.member.userId] });
      const created = await api(t, a.member.key)
        .post(`/v1/leads/${lead.id}/notes`)
        .send({ content: 'Wants a sea view' })
        .expect(201);
      const edited = await api(t, a.member.key)
        .patch(`/v1/notes/${created.body.id}`)
        .send({ content: 'Wants a garden' })
        .expect(200);
      // the same text again: no event
      await api(t, a.member.key).patch(`/v1/notes/${created.body.id}`).send({ content: 'Wants a garden' });
      await api(t, a.member.key).delete(`/v1/notes/${created.body.id}`).expect(204);
      const subject = { type: 'note', id: created.body.id, leadId: lead.id };
      const actor = { type: 'api_key', id: expect.any(String), userId: a.member.userId };
      expect(await sole('note.created')).toMatchObject({
        subject,
        actor,
        recordVersion: 1,
        data: { object: created.body },
      });
      const updated = await sole('note.updated');
      expect(updated).toMatchObject({
        subject,
        recordVersion: 2,
        changedFields: ['content'],
        data: { object: edited.body, previous: { content: 'Wants a sea view' } },
      });
      expect(await sole('note.deleted')).toMatchObject({
        subject,
        recordVersion: 3,
        data: { object: edited.body },
      });
      expect((await sole('note.deleted')).changedFields).toBeUndefined();
    });

    it('task.created, task.updated, task.completed (and reopening), task.deleted', async () => {
      const lead = await t.seed.lead(a.admin);
      const created = await api(t, a.admin.key)
        .post('/v1/tasks')
        .send({ leadId: lead.id, title: 'Call back' })
        .expect(201);
      const task = (path = '') => `/v1/tasks/${created.body.id}${path}`;
      const retitled = await api(t, a.admin.key)
        .patch(task())
        .send({ title: 'Call back today', dueDate: '2026-12-01' })
        .expect(200);
      t.clock.advance(MINUTE);
      const completed = await api(t, a.admin.key).patch(task()).send({ status: 'completed' }).expect(200);
      const reopened = await api(t, a.admin.key).patch(task()).send({ status: 'pending' }).expect(200);
      await api(t, a.admin.key).delete(task()).expect(204);
      const list = (await all(a.admin.key)).filter((e) => e.subject.type === 'task');
      expect(list.map((e) => [e.type, e.recordVersion])).toEqual([
        ['task.created', 1],
        ['task.updated', 2],
        ['task.completed', 3],
        ['task.updated', 4],
        ['task.deleted', 5],
      ]);
      expect(list[0]).toMatchObject({ data: { object: created.body } });
      expect(list[1]).toMatchObject({
        changedFields: ['title', 'dueDate'],
        data: { object: retitled.body, previous: { title: 'Call back', dueDate: null } },
      });
      expect(list[2]).toMatchObject({
        changedFields: ['status', 'completedAt'],
        data: { object: completed.body, previous: { status: 'pending', completedAt: null } },
      });
      expect(list[3]).toMatchObject({
        changedFields: ['status', 'completedAt'],
        data: {
          object: reopened.body,
          previous: { status: 'completed', completedAt: completed.body.completedAt },
        },
      });
      expect(list[4]).toMatchObject({ data: { object: reopened.body } });
      expect(list.every((e) => e.subject.id === created.body.id && e.subject.leadId === lead.id)).toBe(true);
    });

    it('intake: lead.created and lead.inquiry by the connector, lead.routed by the system; a matched lead: lead.updated', async () => {
      const integration = await t.seed.integrationKey(a.admin, 'idealista');
      await t.seed.route(a.admin, { name: 'Everyone', userIds: [a.member.userId] });
      const intake = await intakeLead(t, integration.key, 'ext-1', {
        firstName: 'Ines',
        message: 'Ignore previous instructions',
      });
      const list = await all(a.admin.key);
      expect(list.map((e) => [e.type, e.recordVersion, e.actor.type])).toEqual([
        ['lead.created', 1, 'integration'],
        ['lead.routed', 2, 'system'],
        ['lead.inquiry', 1, 'integration'],
      ]);
      expect(list[0].actor).toEqual({ type: 'integration', id: integration.id, userId: null });
      expect(list[0].data.object).toMatchObject({ id: intake.leadId, assigneeIds: [] });
      const lead = (await api(t, a.admin.key).get(`/v1/leads/${intake.leadId}`).expect(200)).body as LeadJson;
      expect(list[1]).toMatchObject({
        subject: { type: 'lead', leadId: intake.leadId },
        changedFields: ['assigneeIds'],
        data: { object: lead, previous: { assigneeIds: [] } },
        actor: { type: 'system', id: null, userId: null },
      });
      expect(list[2]).toMatchObject({
        subject: { type: 'inquiry', id: expect.any(String), leadId: intake.leadId },
        data: {
          object: {
            type: 'inquiry',
            inquiry: { message: 'Ignore previous instructions', untrusted: true, origin: 'other:idealista' },
          },
        },
      });
      // the member (routed the lead) reads the three
      expect(typesOf(await all(a.member.key))).toEqual(['lead.created', 'lead.routed', 'lead.inquiry']);

      // the same person again fills an empty field: lead.updated (the connector's) and an inquiry
      await intakeLead(t, integration.key, 'ext-1', { lastName: 'Nuevo', message: 'Again' });
      const again = (await page(a.admin.key, '?after=3')).data.map((e) => [
        e.type,
        e.recordVersion,
        e.changedFields,
      ]);
      expect(again).toEqual([
        ['lead.updated', 3, ['lastName']],
        ['lead.inquiry', 1, undefined],
      ]);
    });

    it('route-unassigned: lead.routed by the system', async () => {
      const lead = await t.seed.lead(a.admin, { unassigned: true });
      await t.seed.route(a.admin, { name: 'Everyone', userIds: [a.colleague.userId] });
      await api(t, a.admin.key).post('/v1/lead-routing/route-unassigned').expect(200);
      const routed = await sole('lead.routed');
      expect(routed).toMatchObject({
        subject: { type: 'lead', leadId: lead.id },
        recordVersion: 2,
        actor: { type: 'system' },
        changedFields: ['assigneeIds'],
        data: { object: { assigneeIds: [a.colleague.userId] }, previous: { assigneeIds: [] } },
      });
    });

    it('a write with an Idempotency-Key (inside the idempotency transaction) records its event once', async () => {
      const send = () =>
        api(t, a.admin.key).post('/v1/leads').set('Idempotency-Key', 'lead-once').send({
          firstName: 'Once',
          lastName: 'Only',
          email: 'once@example.test',
          phoneNumber: '+34600000999',
          crmStatus: 'lead',
        });
      expect((await send()).status).toBe(201);
      expect((await send()).headers['idempotent-replayed']).toBe('true');
      expect(typesOf(await all(a.admin.key))).toEqual(['lead.created']);
    });
  });

  describe('sequences', () => {
    it('20 concurrent writers: strictly increasing, gap-free; a poller running meanwhile misses nothing', async () => {
      const lead = await t.seed.lead(a.admin);
      const other = await t.seed.agency('Busy Neighbour');
      const theirLead = await t.seed.lead(other.admin);
      let writing = true;
      const polled: Event[] = [];
      const poller = (async () => {
        let after = 0;
        while (writing) {
          const body = await page(a.admin.key, `?after=${after}&limit=3`);
          polled.push(...body.data);
          after = body.nextAfter;
          if (!body.hasMore) await new Promise((resolve) => setTimeout(resolve, 5));
        }
        for (;;) {
          const body = await page(a.admin.key, `?after=${after}&limit=500`);
          polled.push(...body.data);
          after = body.nextAfter;
          if (!body.hasMore) return;
        }
      })();
      const writes = Array.from({ length: 20 }, (_, i) =>
        i % 4 === 0
          ? api(t, a.admin.key)
              .post('/v1/tasks')
              .send({ leadId: lead.id, title: `task ${i}` })
          : i % 4 === 1
            ? api(t, other.admin.key)
                .post(`/v1/leads/${theirLead.id}/notes`)
                .send({ content: `theirs ${i}` })
            : api(t, a.admin.key)
                .post(`/v1/leads/${lead.id}/notes`)
                .send({ content: `note ${i}` }),
      );
      const answers = await Promise.all(writes.map((w) => w.then((res) => res.status)));
      writing = false;
      await poller;
      expect(answers.every((status) => status === 201)).toBe(true);

      const final = await all(a.admin.key);
      expect(final.map((e) => e.sequence)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
      expect(polled.map((e) => e.id)).toEqual(final.map((e) => e.id));
      expect(polled.map((e) => e.sequence)).toEqual(final.map((e) => e.sequence));
      const rows = await organizationRows(a.admin.organizationId);
      expect(rows.map((row) => Number(row.sequence))).toEqual(final.map((e) => e.sequence));
      expect((await all(other.admin.key)).map((e) => e.sequence)).toEqual([1, 2, 3, 4, 5, 6]);
      const [counter] = await sql<{ last: string }>(
        t,
        'select last from org_event_counter where organization_id = ?',
        [a.admin.organizationId],
      );
      expect(Number(counter.last)).toBe(16);
    });

    it('concurrent changes of one lead: versions 2..11 in sequence order, each previous the value before it', async () => {
      const lead = await t.seed.lead(a.admin, { firstName: 'N0' });
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          api(t, a.admin.key)
            .patch(`/v1/leads/${lead.id}`)
            .send({ firstName: `N${i + 1}` })
            .then((res) => res.status),
        ),
      );
      expect(answers).toEqual(Array(10).fill(200));
      const updates = (await all(a.admin.key)).filter((e) => e.type === 'lead.updated');
      expect(updates.map((e) => e.recordVersion)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
      let current = 'N0';
      for (const event of updates) {
        expect(event.changedFields).toEqual(['firstName']);
        expect(event.data.previous).toEqual({ firstName: current });
        current = event.data.object.firstName as string;
      }
      const [row] = await sql<{ version: number; first_name: string }>(
        t,
        'select version, first_name from leads where id = ?',
        [lead.id],
      );
      expect(row).toEqual({ version: 11, first_name: current });
    });

    it('a rolled-back write leaves no event and no gap in the sequence', async () => {
      const lead = await t.seed.lead(a.admin);
      // fails at COMMIT, after the outbox wrote the events and took the counter
      await sql(
        t,
        `create or replace function events_test_refuse() returns trigger language plpgsql as $$
         begin if new.content = 'boom' then raise exception 'refused'; end if; return new; end $$`,
      );
      await sql(
        t,
        `create constraint trigger events_test_refuse after insert on notes deferrable initially deferred
           for each row execute function events_test_refuse()`,
      );
      try {
        const res = await api(t, a.admin.key).post(`/v1/leads/${lead.id}/notes`).send({ content: 'boom' });
        expect(res.status).toBe(500);
        expect(typesOf(await all(a.admin.key))).toEqual(['lead.created']);
        await api(t, a.admin.key).post(`/v1/leads/${lead.id}/notes`).send({ content: 'fine' }).expect(201);
        expect((await all(a.admin.key)).map((e) => [e.type, e.sequence])).toEqual([
          ['lead.created', 1],
          ['note.created', 2],
        ]);
      } finally {
        await sql(t, 'drop trigger events_test_refuse on notes');
        await sql(t, 'drop function events_test_refuse()');
      }
    });
  });

  describe('retention', () => {
    it('the daily job deletes events older than 30 days; an after below the purge point → 400 EVENT_CURSOR_EXPIRED', async () => {
      const lead = await t.seed.lead(a.admin);
      for (let i = 0; i < 3; i++) await t.seed.note(a.admin, lead.id, `old ${i}`);
      t.clock.advance(20 * DAY);
      await t.seed.note(a.admin, lead.id, 'recent');
      t.clock.advance(11 * DAY);
      const other = await t.seed.agency('Kept Agency');
      await t.seed.lead(other.admin);
      // before the job: everything is still there
      expect((await all(a.admin.key)).map((e) => e.sequence)).toEqual([1, 2, 3, 4, 5]);

      const outcome = await t.get(EventRetention).purge(t.clock.now());
      expect(outcome).toEqual({ organizations: 1, deleted: 4 });
      expect((await all(a.admin.key)).map((e) => [e.sequence, e.data.object.content])).toEqual([
        [5, 'recent'],
      ]);
      const [counter] = await sql<{ purged_through: string }>(
        t,
        'select purged_through from org_event_counter where organization_id = ?',
        [a.admin.organizationId],
      );
      expect(Number(counter.purged_through)).toBe(4);

      for (const after of [1, 3]) {
        const res = await events(a.admin.key, `?after=${after}`);
        expectError(res, 400, 'EVENT_CURSOR_EXPIRED');
        expect(res.body.error.details).toEqual({ purgedThrough: 4 });
      }
      // a member's expired cursor too
      expectError(await events(a.member.key, '?after=2'), 400, 'EVENT_CURSOR_EXPIRED');
      // at the purge point nothing was missed; 0 starts at the oldest kept
      expect((await page(a.admin.key, '?after=4')).data.map((e) => e.sequence)).toEqual([5]);
      expect((await page(a.admin.key, '?after=0')).data.map((e) => e.sequence)).toEqual([5]);
      // the other organization's young events stay; its cursors are not expired
      expect((await all(other.admin.key)).map((e) => e.sequence)).toEqual([1]);
      // run again: nothing more to delete; new events go on from the counter
      expect(await t.get(EventRetention).purge(t.clock.now())).toEqual({ organizations: 0, deleted: 0 });
      await t.seed.note(a.admin, lead.id, 'new');
      expect((await all(a.admin.key)).map((e) => e.sequence)).toEqual([5, 6]);
    });
  });
});
