import {
  Agency,
  api,
  count,
  expectError,
  expectNotFound,
  expectValidation,
  LeadJson,
  MINUTE,
  NOTE_FIELDS,
  postTask,
  sql,
  TASK_FIELDS,
  TestApp,
} from '../fixtures';

const MISSING_UUID = '0190a0a0-0000-7000-8000-000000000001';

describe('CRM notes and tasks', () => {
  let t: TestApp;
  let a: Agency;
  /** A lead of the member (created by the admin, so the admin's own notes and tasks can sit on it). */
  let lead: LeadJson;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.stop());
  beforeEach(async () => {
    await t.resetRows();
    a = await t.seed.agency();
    lead = await t.seed.lead(a.admin, { assigneeIds: [a.member.userId] });
  });

  describe('notes', () => {
    it('POST creates a note authored by the key person: 201 Note', async () => {
      const res = await api(t, a.member.key)
        .post(`/v1/leads/${lead.id}/notes`)
        .send({ content: 'Wants a sea view' });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body).sort()).toEqual(NOTE_FIELDS);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        leadId: lead.id,
        authorId: a.member.userId,
        content: 'Wants a sea view',
        isPinned: false,
        occurredAt: null,
        createdAt: t.clock.now().toISOString(),
        updatedAt: t.clock.now().toISOString(),
      });
    });

    it('POST requires a content string', async () => {
      const post = (body: object) => api(t, a.admin.key).post(`/v1/leads/${lead.id}/notes`).send(body);
      expectValidation(await post({}), 'content');
      expectValidation(await post({ content: '' }), 'content');
      expectValidation(await post({ content: 12 }), 'content');
      expectValidation(
        await api(t, a.admin.key).post('/v1/leads/abc/notes').send({ content: 'x' }),
        'leadId',
      );
      expect(await count(t, 'select count(*) as n from notes')).toBe(0);
    });

    it('GET lists the whole list newest first as {data, hasMore:false}', async () => {
      const first = await t.seed.note(a.admin, lead.id, 'first');
      t.clock.advance(MINUTE);
      const second = await t.seed.note(a.member, lead.id, 'second');
      t.clock.advance(MINUTE);
      const third = await t.seed.note(a.admin, lead.id, 'third');
      const otherLead = await t.seed.lead(a.admin);
      await t.seed.note(a.admin, otherLead.id, 'elsewhere');
      const res = await api(t, a.member.key).get(`/v1/leads/${lead.id}/notes`).expect(200);
      expect(Object.keys(res.body).sort()).toEqual(['data', 'hasMore']);
      expect(res.body.hasMore).toBe(false);
      expect(res.body.data.map((n: { id: string }) => n.id)).toEqual([third.id, second.id, first.id]);
      expect(res.body.data[1]).toEqual(second);
    });

    it('answers 404 Lead not found on a lead the member is not on or another agency’s', async () => {
      const theirs = await t.seed.lead(a.colleague);
      await t.seed.note(a.colleague, theirs.id);
      expectNotFound(await api(t, a.member.key).get(`/v1/leads/${theirs.id}/notes`), 'Lead');
      expectNotFound(
        await api(t, a.member.key).post(`/v1/leads/${theirs.id}/notes`).send({ content: 'x' }),
        'Lead',
      );
      const other = await t.seed.agency('Other Agency');
      expectNotFound(await api(t, other.admin.key).get(`/v1/leads/${theirs.id}/notes`), 'Lead');
      expectNotFound(
        await api(t, other.admin.key).post(`/v1/leads/${theirs.id}/notes`).send({ content: 'x' }),
        'Lead',
      );
      expect(await count(t, 'select count(*) as n from notes')).toBe(1);
    });

    it('PATCH lets anyone who reaches the lead edit, and answers the Note', async () => {
      const note = await t.seed.note(a.admin, lead.id, 'by the admin');
      t.clock.advance(MINUTE);
      const res = await api(t, a.member.key)
        .patch(`/v1/notes/${note.id}`)
        .send({ content: 'edited by the member' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...note,
        content: 'edited by the member',
        authorId: a.admin.userId,
        updatedAt: t.clock.now().toISOString(),
      });
      expect(res.body.updatedAt).not.toBe(note.createdAt);
      expectValidation(await api(t, a.member.key).patch(`/v1/notes/${note.id}`).send({}), 'content');
      expectValidation(
        await api(t, a.member.key).patch('/v1/notes/not-a-uuid').send({ content: 'x' }),
        'noteId',
      );
    });

    it('PATCH answers 404 Note not found for a note on a lead the member is not on, another agency’s or a missing one', async () => {
      const theirs = await t.seed.lead(a.colleague);
      const hidden = await t.seed.note(a.colleague, theirs.id, 'private');
      expectNotFound(
        await api(t, a.member.key).patch(`/v1/notes/${hidden.id}`).send({ content: 'x' }),
        'Note',
      );
      const other = await t.seed.agency('Other Agency');
      expectNotFound(
        await api(t, other.admin.key).patch(`/v1/notes/${hidden.id}`).send({ content: 'x' }),
        'Note',
      );
      expectNotFound(
        await api(t, a.admin.key).patch(`/v1/notes/${MISSING_UUID}`).send({ content: 'x' }),
        'Note',
      );
      const [row] = await sql<{ content: string }>(t, 'select content from notes where id = ?', [hidden.id]);
      expect(row.content).toBe('private');
    });

    it('DELETE: a member deletes own notes (204), others’ are 403 FORBIDDEN; an admin deletes any', async () => {
      const own = await t.seed.note(a.member, lead.id, 'mine');
      const admins = await t.seed.note(a.admin, lead.id, 'admin’s');
      const res = await api(t, a.member.key).delete(`/v1/notes/${own.id}`);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expectError(await api(t, a.member.key).delete(`/v1/notes/${admins.id}`), 403, 'FORBIDDEN');
      expect(await count(t, 'select count(*) as n from notes where id = ?', [admins.id])).toBe(1);

      const another = await t.seed.note(a.member, lead.id, 'member again');
      await api(t, a.admin.key).delete(`/v1/notes/${another.id}`).expect(204);
      await api(t, a.admin.key).delete(`/v1/notes/${admins.id}`).expect(204);
      const list = await api(t, a.member.key).get(`/v1/leads/${lead.id}/notes`).expect(200);
      expect(list.body.data).toEqual([]);
      expectNotFound(await api(t, a.admin.key).delete(`/v1/notes/${admins.id}`), 'Note');
    });

    it('DELETE answers 404 Note not found for a lead the member is not on and another agency’s note', async () => {
      const theirs = await t.seed.lead(a.colleague);
      const hidden = await t.seed.note(a.colleague, theirs.id);
      expectNotFound(await api(t, a.member.key).delete(`/v1/notes/${hidden.id}`), 'Note');
      const other = await t.seed.agency('Other Agency');
      expectNotFound(await api(t, other.admin.key).delete(`/v1/notes/${hidden.id}`), 'Note');
      expect(await count(t, 'select count(*) as n from notes')).toBe(1);
    });

    it('writes need a plan and crm:write; reads need neither', async () => {
      const note = await t.seed.note(a.member, lead.id);
      const readOnly = api(t, (await t.seed.apiKey(a.member, ['crm:read'])).key);
      expectError(
        await readOnly.post(`/v1/leads/${lead.id}/notes`).send({ content: 'x' }),
        403,
        'API_KEY_SCOPE_MISSING',
        {
          missing: ['crm:write'],
        },
      );
      expectError(
        await readOnly.patch(`/v1/notes/${note.id}`).send({ content: 'x' }),
        403,
        'API_KEY_SCOPE_MISSING',
        {
          missing: ['crm:write'],
        },
      );
      expectError(await readOnly.delete(`/v1/notes/${note.id}`), 403, 'API_KEY_SCOPE_MISSING', {
        missing: ['crm:write'],
      });
      await t.seed.plan(a.admin.organizationId, false);
      const member = api(t, a.member.key);
      expectError(
        await member.post(`/v1/leads/${lead.id}/notes`).send({ content: 'x' }),
        403,
        'SUBSCRIPTION_REQUIRED',
      );
      expectError(
        await member.patch(`/v1/notes/${note.id}`).send({ content: 'x' }),
        403,
        'SUBSCRIPTION_REQUIRED',
      );
      expectError(await member.delete(`/v1/notes/${note.id}`), 403, 'SUBSCRIPTION_REQUIRED');
      const list = await readOnly.get(`/v1/leads/${lead.id}/notes`).expect(200);
      expect(list.body.data).toEqual([note]);
    });
  });

  describe('tasks', () => {
    it('POST creates a Task owned by the key person: 201', async () => {
      const res = await api(t, a.member.key).post('/v1/tasks').send({
        leadId: lead.id,
        title: 'Send brochure',
        description: 'The two flats',
        dueDate: '2031-05-04',
      });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body).sort()).toEqual(TASK_FIELDS);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        leadId: lead.id,
        assigneeIds: [a.member.userId],
        createdBy: a.member.userId,
        title: 'Send brochure',
        description: 'The two flats',
        dueDate: '2031-05-04T00:00:00.000Z',
        status: 'pending',
        completedAt: null,
        createdAt: t.clock.now().toISOString(),
        updatedAt: t.clock.now().toISOString(),
      });
    });

    it('reads dueDate as midnight UTC of a date, or the exact moment of a timestamp with offset', async () => {
      const due = async (dueDate: string) =>
        (await postTask(t, a.admin.key, { leadId: lead.id, dueDate })).dueDate as string;
      expect(await due('2031-12-31')).toBe('2031-12-31T00:00:00.000Z');
      expect(await due('2031-06-01T10:00:00+02:00')).toBe('2031-06-01T08:00:00.000Z');
      expect(await due('2031-06-01T23:30:00-05:00')).toBe('2031-06-02T04:30:00.000Z');
      expect(await due('2031-06-01T10:00:00.250Z')).toBe('2031-06-01T10:00:00.250Z');
      const noDue = await postTask(t, a.admin.key, { leadId: lead.id });
      expect(noDue.dueDate).toBeNull();
      for (const bad of ['2031-02-30', '2031-06-01T10:00:00', 'tomorrow', '01/06/2031', '2031-6-1', '']) {
        expectValidation(
          await api(t, a.admin.key).post('/v1/tasks').send({ leadId: lead.id, title: 'x', dueDate: bad }),
          'dueDate',
        );
      }
      expect(await count(t, 'select count(*) as n from tasks')).toBe(5);
    });

    it('POST requires leadId and title and checks them', async () => {
      const post = (body: object) => api(t, a.admin.key).post('/v1/tasks').send(body);
      expectValidation(await post({}), 'leadId', 'title');
      expectValidation(await post({ title: 'x' }), 'leadId');
      expectValidation(await post({ leadId: lead.id }), 'title');
      expectValidation(await post({ leadId: String(lead.id), title: 'x' }), 'leadId');
      expectValidation(await post({ leadId: lead.id, title: '' }), 'title');
      expectValidation(await post({ leadId: lead.id, title: 'x', assigneeIds: ['nope'] }), 'assigneeIds');
      expect(await count(t, 'select count(*) as n from tasks')).toBe(0);
    });

    it('POST takes assignees and teams from the agency only', async () => {
      const team = await t.seed.team(a.admin, 'Sales', [a.colleague.userId]);
      const task = await postTask(t, a.admin.key, {
        leadId: lead.id,
        assigneeIds: [a.member.userId],
        teamIds: [team.id],
      });
      expect(task.assigneeIds.sort()).toEqual([a.member.userId, a.colleague.userId].sort());
      expect(task.createdBy).toBe(a.admin.userId);
      const other = await t.seed.agency('Other Agency');
      expectValidation(
        await api(t, a.admin.key)
          .post('/v1/tasks')
          .send({ leadId: lead.id, title: 'x', assigneeIds: [other.member.userId] }),
        'assigneeIds',
      );
    });

    it('POST answers 404 Lead not found on a lead the member is not on or another agency’s', async () => {
      const theirs = await t.seed.lead(a.colleague);
      expectNotFound(
        await api(t, a.member.key).post('/v1/tasks').send({ leadId: theirs.id, title: 'x' }),
        'Lead',
      );
      const other = await t.seed.agency('Other Agency');
      expectNotFound(
        await api(t, other.admin.key).post('/v1/tasks').send({ leadId: theirs.id, title: 'x' }),
        'Lead',
      );
      expectNotFound(
        await api(t, a.admin.key).post('/v1/tasks').send({ leadId: 987654321, title: 'x' }),
        'Lead',
      );
      expect(await count(t, 'select count(*) as n from tasks')).toBe(0);
    });

    it('GET ?leadId lists the lead’s tasks; 404 for a lead the caller does not reach', async () => {
      const t1 = await t.seed.task(a.admin, { leadId: lead.id, dueDate: '2031-02-01' });
      const t2 = await t.seed.task(a.member, { leadId: lead.id, dueDate: '2031-01-01' });
      const elsewhere = await t.seed.lead(a.admin);
      await t.seed.task(a.admin, { leadId: elsewhere.id });
      const res = await api(t, a.member.key).get(`/v1/tasks?leadId=${lead.id}`).expect(200);
      expect(Object.keys(res.body).sort()).toEqual(['data', 'hasMore']);
      expect(res.body.hasMore).toBe(false);
      expect(res.body.data.map((x: { id: string }) => x.id).sort()).toEqual([t1.id, t2.id].sort());
      for (const task of res.body.data) expect(Object.keys(task).sort()).toEqual(TASK_FIELDS);
      expectNotFound(await api(t, a.member.key).get(`/v1/tasks?leadId=${elsewhere.id}`), 'Lead');
      const other = await t.seed.agency('Other Agency');
      expectNotFound(await api(t, other.admin.key).get(`/v1/tasks?leadId=${lead.id}`), 'Lead');
      expectValidation(await api(t, a.member.key).get('/v1/tasks?leadId=abc'), 'leadId');
    });

    it('GET without leadId lists only tasks the person created or is on, for admins too; status filters', async () => {
      const mineCreated = await t.seed.task(a.member, { leadId: lead.id });
      const onMe = await t.seed.task(a.admin, { leadId: lead.id, assigneeIds: [a.member.userId] });
      const adminOnly = await t.seed.task(a.admin, { leadId: lead.id });
      const colleagues = await t.seed.lead(a.colleague);
      const colleagueTask = await t.seed.task(a.colleague, { leadId: colleagues.id });
      await api(t, a.member.key).patch(`/v1/tasks/${onMe.id}`).send({ status: 'completed' }).expect(200);
      const other = await t.seed.agency('Other Agency');
      const otherLead = await t.seed.lead(other.admin);
      await t.seed.task(other.admin, { leadId: otherLead.id });

      const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((x) => x.id).sort();
      const member = await api(t, a.member.key).get('/v1/tasks').expect(200);
      expect(member.body.hasMore).toBe(false);
      expect(ids(member)).toEqual([mineCreated.id, onMe.id].sort());
      const admin = await api(t, a.admin.key).get('/v1/tasks').expect(200);
      expect(ids(admin)).toEqual([onMe.id, adminOnly.id].sort());
      expect(ids(admin)).not.toContain(colleagueTask.id);
      expect(ids(await api(t, a.member.key).get('/v1/tasks?status=pending').expect(200))).toEqual([
        mineCreated.id,
      ]);
      expect(ids(await api(t, a.member.key).get('/v1/tasks?status=completed').expect(200))).toEqual([
        onMe.id,
      ]);
      expectValidation(await api(t, a.member.key).get('/v1/tasks?status=done'), 'status');
    });

    it('GET without leadId is capped at 500 rows with hasMore', async () => {
      // 501 rows through the API would meet the per-key rate limit; insert them as the service would
      await sql(
        t,
        `insert into tasks (id, organization_id, lead_id, assignee_ids, created_by, title, status, created_at, updated_at)
         select gen_random_uuid(), ?, ?, array[?]::uuid[], ?, 'Task ' || i, 'pending', now(), now()
           from generate_series(1, 501) as i`,
        [a.admin.organizationId, lead.id, a.member.userId, a.admin.userId],
      );
      const res = await api(t, a.member.key).get('/v1/tasks').expect(200);
      expect(res.body.data).toHaveLength(500);
      expect(res.body.hasMore).toBe(true);
      await sql(t, 'delete from tasks where id = (select id from tasks limit 1)');
      const exact = await api(t, a.member.key).get('/v1/tasks').expect(200);
      expect(exact.body.data).toHaveLength(500);
      expect(exact.body.hasMore).toBe(false);
    });

    it('PATCH edits title, description and dueDate and answers the Task', async () => {
      const task = await t.seed.task(a.member, {
        leadId: lead.id,
        description: 'old',
        dueDate: '2031-01-01',
      });
      t.clock.advance(MINUTE);
      const res = await api(t, a.member.key)
        .patch(`/v1/tasks/${task.id}`)
        .send({ title: 'New title', description: null, dueDate: '2031-03-03T09:00:00+01:00' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...task,
        title: 'New title',
        description: null,
        dueDate: '2031-03-03T08:00:00.000Z',
        updatedAt: t.clock.now().toISOString(),
      });
      const cleared = await api(t, a.member.key)
        .patch(`/v1/tasks/${task.id}`)
        .send({ dueDate: null })
        .expect(200);
      expect(cleared.body.dueDate).toBeNull();
      const patch = (body: object) => api(t, a.member.key).patch(`/v1/tasks/${task.id}`).send(body);
      expectValidation(await patch({ dueDate: 'next week' }), 'dueDate');
      expectValidation(await patch({ status: 'done' }), 'status');
      expectValidation(await patch({ title: '' }), 'title');
      expectValidation(await api(t, a.member.key).patch('/v1/tasks/123').send({ title: 'x' }), 'taskId');
    });

    it('PATCH status completed sets completedAt; pending clears it', async () => {
      const task = await t.seed.task(a.member, { leadId: lead.id });
      t.clock.advance(5 * MINUTE);
      const done = await api(t, a.member.key)
        .patch(`/v1/tasks/${task.id}`)
        .send({ status: 'completed' })
        .expect(200);
      expect(done.body).toMatchObject({ status: 'completed', completedAt: t.clock.now().toISOString() });
      const listed = await api(t, a.member.key).get('/v1/leads').expect(200);
      expect(listed.body.data[0]).toMatchObject({ id: lead.id, pendingTasks: 0 });
      t.clock.advance(MINUTE);
      const again = await api(t, a.member.key)
        .patch(`/v1/tasks/${task.id}`)
        .send({ status: 'pending' })
        .expect(200);
      expect(again.body).toMatchObject({ status: 'pending', completedAt: null });
    });

    it('lets the creator, anyone on the task and an admin edit and tick it; another member on the lead gets 403', async () => {
      await api(t, a.admin.key)
        .put(`/v1/leads/${lead.id}/assignees`)
        .send({ userIds: [a.member.userId, a.colleague.userId] })
        .expect(200);
      const task = await t.seed.task(a.member, { leadId: lead.id });
      expect(task.assigneeIds).toEqual([a.member.userId]);
      const colleague = api(t, a.colleague.key);
      expectError(
        await colleague.patch(`/v1/tasks/${task.id}`).send({ status: 'completed' }),
        403,
        'FORBIDDEN',
      );
      expectError(
        await colleague.patch(`/v1/tasks/${task.id}`).send({ title: 'mine now' }),
        403,
        'FORBIDDEN',
      );
      expectError(await colleague.delete(`/v1/tasks/${task.id}`), 403, 'FORBIDDEN');
      const [row] = await sql<{ status: string; title: string }>(
        t,
        'select status, title from tasks where id = ?',
        [task.id],
      );
      expect(row).toEqual({ status: 'pending', title: task.title });

      await api(t, a.member.key).patch(`/v1/tasks/${task.id}`).send({ title: 'by creator' }).expect(200);
      await api(t, a.admin.key).patch(`/v1/tasks/${task.id}`).send({ status: 'completed' }).expect(200);
      // once on the task, the colleague may tick it
      const onIt = await api(t, a.admin.key)
        .patch(`/v1/tasks/${task.id}`)
        .send({ assigneeIds: [a.colleague.userId] })
        .expect(200);
      expect(onIt.body.assigneeIds).toEqual([a.colleague.userId]);
      const reopened = await colleague.patch(`/v1/tasks/${task.id}`).send({ status: 'pending' }).expect(200);
      expect(reopened.body.status).toBe('pending');
      // the creator keeps access after being taken off it
      await api(t, a.member.key).patch(`/v1/tasks/${task.id}`).send({ title: 'still mine' }).expect(200);
    });

    it('lets only an admin change assigneeIds and teamIds (403 FORBIDDEN for the creator)', async () => {
      const task = await t.seed.task(a.member, { leadId: lead.id });
      const member = api(t, a.member.key);
      expectError(
        await member
          .patch(`/v1/tasks/${task.id}`)
          .send({ assigneeIds: [a.member.userId, a.colleague.userId] }),
        403,
        'FORBIDDEN',
      );
      const team = await t.seed.team(a.admin, 'Sales', [a.colleague.userId]);
      expectError(await member.patch(`/v1/tasks/${task.id}`).send({ teamIds: [team.id] }), 403, 'FORBIDDEN');
      const byTeam = await api(t, a.admin.key)
        .patch(`/v1/tasks/${task.id}`)
        .send({ assigneeIds: [a.member.userId], teamIds: team.id })
        .expect(200);
      expect(byTeam.body.assigneeIds.sort()).toEqual([a.member.userId, a.colleague.userId].sort());
      const other = await t.seed.agency('Other Agency');
      expectValidation(
        await api(t, a.admin.key)
          .patch(`/v1/tasks/${task.id}`)
          .send({ assigneeIds: [other.admin.userId] }),
        'assigneeIds',
      );
    });

    it('answers 404 Task not found to a member who does not reach it, another agency and a missing id', async () => {
      const theirs = await t.seed.lead(a.colleague);
      const hidden = await t.seed.task(a.colleague, { leadId: theirs.id });
      expectNotFound(await api(t, a.member.key).patch(`/v1/tasks/${hidden.id}`).send({ title: 'x' }), 'Task');
      expectNotFound(await api(t, a.member.key).delete(`/v1/tasks/${hidden.id}`), 'Task');
      const other = await t.seed.agency('Other Agency');
      expectNotFound(
        await api(t, other.admin.key).patch(`/v1/tasks/${hidden.id}`).send({ title: 'x' }),
        'Task',
      );
      expectNotFound(await api(t, other.admin.key).delete(`/v1/tasks/${hidden.id}`), 'Task');
      expectNotFound(
        await api(t, a.admin.key).patch(`/v1/tasks/${MISSING_UUID}`).send({ title: 'x' }),
        'Task',
      );
      expect(await count(t, 'select count(*) as n from tasks where id = ?', [hidden.id])).toBe(1);
    });

    it('DELETE: 204 for the creator, someone on it, or an admin; then 404', async () => {
      const byCreator = await t.seed.task(a.member, { leadId: lead.id });
      const res = await api(t, a.member.key).delete(`/v1/tasks/${byCreator.id}`);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expectNotFound(
        await api(t, a.member.key).patch(`/v1/tasks/${byCreator.id}`).send({ title: 'x' }),
        'Task',
      );

      const onMember = await t.seed.task(a.admin, { leadId: lead.id, assigneeIds: [a.member.userId] });
      await api(t, a.member.key).delete(`/v1/tasks/${onMember.id}`).expect(204);
      const memberTask = await t.seed.task(a.member, { leadId: lead.id });
      await api(t, a.admin.key).delete(`/v1/tasks/${memberTask.id}`).expect(204);
      expectNotFound(await api(t, a.admin.key).delete(`/v1/tasks/${memberTask.id}`), 'Task');
      expect(await count(t, 'select count(*) as n from tasks')).toBe(0);
    });

    it('writes need crm:write and a plan; reads do not', async () => {
      const task = await t.seed.task(a.member, { leadId: lead.id });
      const readOnly = api(t, (await t.seed.apiKey(a.member, ['crm:read'])).key);
      const missing = { missing: ['crm:write'] };
      expectError(
        await readOnly.post('/v1/tasks').send({ leadId: lead.id, title: 'x' }),
        403,
        'API_KEY_SCOPE_MISSING',
        missing,
      );
      expectError(
        await readOnly.patch(`/v1/tasks/${task.id}`).send({ title: 'x' }),
        403,
        'API_KEY_SCOPE_MISSING',
        missing,
      );
      expectError(await readOnly.delete(`/v1/tasks/${task.id}`), 403, 'API_KEY_SCOPE_MISSING', missing);
      await t.seed.plan(a.admin.organizationId, false);
      const member = api(t, a.member.key);
      expectError(
        await member.post('/v1/tasks').send({ leadId: lead.id, title: 'x' }),
        403,
        'SUBSCRIPTION_REQUIRED',
      );
      expectError(
        await member.patch(`/v1/tasks/${task.id}`).send({ title: 'x' }),
        403,
        'SUBSCRIPTION_REQUIRED',
      );
      expectError(await member.delete(`/v1/tasks/${task.id}`), 403, 'SUBSCRIPTION_REQUIRED');
      const list = await readOnly.get('/v1/tasks').expect(200);
      expect(list.body.data).toEqual([task]);
      await readOnly.get(`/v1/tasks?leadId=${lead.id}`).expect(200);
    });
  });
});
