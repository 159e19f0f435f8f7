import {
  Agency,
  api,
  count,
  expectNotFound,
  expectValidation,
  LeadJson,
  MINUTE,
  TestApp,
  TIMELINE_PAGE_FIELDS,
} from '../fixtures';

interface Entry {
  type: string;
  date: string;
  [key: string]: unknown;
}

describe('GET /v1/leads/{leadId}/timeline', () => {
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

  const timeline = async (key: string, leadId: number, query = '') => {
    const res = await api(t, key).get(`/v1/leads/${leadId}/timeline${query}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(TIMELINE_PAGE_FIELDS);
    return res.body as {
      data: Entry[];
      hasMore: boolean;
      nextOffset: number | null;
      total: number;
      totalIsExact: boolean;
      tasksById: Record<string, Record<string, unknown>>;
      dealsById: Record<string, unknown>;
    };
  };

  /** A lead with one of each kind of entry, a minute apart; returns what was done, oldest first. */
  async function busyLead() {
    const times: string[] = [];
    const stamp = () => {
      times.push(t.clock.now().toISOString());
      t.clock.advance(MINUTE);
    };
    const lead = await t.seed.lead(a.admin, { crmStatus: 'lead', assigneeIds: [a.member.userId] });
    stamp();
    await api(t, a.member.key)
      .put(`/v1/leads/${lead.id}/status`)
      .send({ crmStatus: 'potential' })
      .expect(200);
    stamp();
    const note = await t.seed.note(a.member, lead.id, 'Likes the terrace');
    stamp();
    const task = await t.seed.task(a.member, { leadId: lead.id, title: 'Book viewing' });
    stamp();
    await api(t, a.member.key).patch(`/v1/tasks/${task.id}`).send({ status: 'completed' }).expect(200);
    stamp();
    await api(t, a.member.key).patch(`/v1/tasks/${task.id}`).send({ status: 'pending' }).expect(200);
    stamp();
    await api(t, a.admin.key)
      .post(`/v1/leads/${lead.id}/assignees`)
      .send({ userIds: [a.colleague.userId] })
      .expect(200);
    stamp();
    await api(t, a.admin.key)
      .post('/v1/leads/status')
      .send({ leadIds: [lead.id], crmStatus: 'client' })
      .expect(200);
    stamp();
    return { lead, note, task, times };
  }

  it('lists every kind of entry newest first with its payload', async () => {
    const { lead, note, task, times } = await busyLead();
    const page = await timeline(a.member.key, lead.id);
    expect(page).toMatchObject({
      hasMore: false,
      nextOffset: null,
      total: 9,
      totalIsExact: true,
      dealsById: {},
    });
    expect(page.data.map((e) => e.type)).toEqual([
      'status-change',
      'assignee-change',
      'task',
      'task',
      'task',
      'note',
      'status-change',
      // lead-created and its opening owner share a moment
      expect.stringMatching(/^(lead-created|assignee-change)$/),
      expect.stringMatching(/^(lead-created|assignee-change)$/),
    ]);
    const [bulk, added, reopened, completed, created, noteEntry, status, ...opening] = page.data;
    expect(bulk).toEqual({
      type: 'status-change',
      date: times[7],
      statusChange: { from: 'potential', to: 'client', changedBy: a.admin.userId, source: 'api' },
    });
    expect(added).toEqual({
      type: 'assignee-change',
      date: times[6],
      assigneeChange: {
        addedUserIds: [a.colleague.userId],
        removedUserIds: [],
        changedBy: a.admin.userId,
        source: 'api',
      },
    });
    expect(reopened).toEqual({ type: 'task', date: times[5], task: { taskId: task.id, action: 'reopened' } });
    expect(completed).toEqual({
      type: 'task',
      date: times[4],
      task: { taskId: task.id, action: 'completed' },
    });
    expect(created).toEqual({ type: 'task', date: times[3], task: { taskId: task.id, action: 'created' } });
    expect(noteEntry).toEqual({
      type: 'note',
      date: times[2],
      note: {
        id: note.id,
        authorId: a.member.userId,
        content: 'Likes the terrace',
        isPinned: false,
        createdAt: times[2],
        updatedAt: times[2],
      },
    });
    expect(status).toEqual({
      type: 'status-change',
      date: times[1],
      statusChange: { from: 'lead', to: 'potential', changedBy: a.member.userId, source: 'api' },
    });
    expect(opening).toEqual(
      expect.arrayContaining([
        {
          type: 'lead-created',
          date: times[0],
          leadCreated: { source: 'api', leadGroupName: null, crmStatus: 'lead' },
        },
        {
          type: 'assignee-change',
          date: times[0],
          assigneeChange: {
            addedUserIds: [a.member.userId],
            removedUserIds: [],
            changedBy: a.admin.userId,
            source: 'api',
          },
        },
      ]),
    );
    // tasks named on the page come once, as Task rows, current state
    expect(Object.keys(page.tasksById)).toEqual([task.id]);
    expect(page.tasksById[task.id]).toMatchObject({
      id: task.id,
      leadId: lead.id,
      status: 'pending',
      completedAt: null,
    });
    // every history row the API wrote carries source api
    expect(
      await count(t, `select count(*) as n from lead_history where lead_id = ? and source <> 'api'`, [
        lead.id,
      ]),
    ).toBe(0);
    expect(await count(t, 'select count(*) as n from lead_history where lead_id = ?', [lead.id])).toBe(8);
  });

  it('pages by offset: nextOffset while hasMore, exact total, no repeats', async () => {
    const { lead } = await busyLead();
    const full = await timeline(a.admin.key, lead.id, '?limit=100');
    expect(full.data).toHaveLength(9);
    const seen: Entry[] = [];
    let offset = 0;
    const offsets: (number | null)[] = [];
    for (;;) {
      const page = await timeline(a.admin.key, lead.id, `?limit=4&offset=${offset}`);
      expect(page.total).toBe(9);
      expect(page.totalIsExact).toBe(true);
      seen.push(...page.data);
      offsets.push(page.nextOffset);
      if (!page.hasMore) {
        expect(page.nextOffset).toBeNull();
        break;
      }
      offset = page.nextOffset!;
    }
    expect(offsets).toEqual([4, 8, null]);
    expect(seen).toEqual(full.data);
    const past = await timeline(a.admin.key, lead.id, '?offset=50');
    expect(past).toMatchObject({ data: [], hasMore: false, nextOffset: null, total: 9, tasksById: {} });
    const one = await timeline(a.admin.key, lead.id, '?limit=1&offset=2');
    expect(one.data).toEqual([full.data[2]]);
    expect(one.tasksById).toEqual({ [(full.data[2].task as { taskId: string }).taskId]: expect.any(Object) });
  });

  it('defaults to 20 entries', async () => {
    const lead = await t.seed.lead(a.admin);
    for (let i = 0; i < 22; i++) {
      t.clock.advance(MINUTE);
      await t.seed.note(a.admin, lead.id, `note ${i}`);
    }
    const page = await timeline(a.admin.key, lead.id);
    expect(page.data).toHaveLength(20);
    expect(page).toMatchObject({ hasMore: true, nextOffset: 20, total: 24 });
    expect((page.data[0].note as { content: string }).content).toBe('note 21');
  });

  it('refuses limit 0 and 101, a negative offset and a non-integer lead id', async () => {
    const lead = await t.seed.lead(a.admin);
    const get = (query: string) => api(t, a.admin.key).get(`/v1/leads/${lead.id}/timeline${query}`);
    expectValidation(await get('?limit=0'), 'limit');
    expectValidation(await get('?limit=101'), 'limit');
    expectValidation(await get('?offset=-1'), 'offset');
    expectValidation(await get('?offset=x'), 'offset');
    expectValidation(await api(t, a.admin.key).get('/v1/leads/lead-1/timeline'), 'leadId');
    await get('?limit=100').expect(200);
  });

  it('reads notes live: an edit shows, a deleted note is gone', async () => {
    const lead = await t.seed.lead(a.admin);
    t.clock.advance(MINUTE);
    const note = await t.seed.note(a.admin, lead.id, 'first draft');
    t.clock.advance(MINUTE);
    await api(t, a.admin.key).patch(`/v1/notes/${note.id}`).send({ content: 'final' }).expect(200);
    const edited = await timeline(a.admin.key, lead.id);
    expect(edited.data[0]).toMatchObject({
      type: 'note',
      note: { id: note.id, content: 'final', updatedAt: t.clock.now().toISOString() },
    });
    expect(edited.total).toBe(3);
    await api(t, a.admin.key).delete(`/v1/notes/${note.id}`).expect(204);
    const after = await timeline(a.admin.key, lead.id);
    expect(after.total).toBe(2);
    expect(after.data.map((e) => e.type)).not.toContain('note');
  });

  it('cuts note bodies over 1,000 characters and says so in _preview', async () => {
    const lead = await t.seed.lead(a.admin);
    t.clock.advance(MINUTE);
    const long = 'a'.repeat(999) + 'b' + 'c'.repeat(500);
    await t.seed.note(a.admin, lead.id, long);
    t.clock.advance(MINUTE);
    await t.seed.note(a.admin, lead.id, 'x'.repeat(1000));
    const page = await timeline(a.admin.key, lead.id);
    const [exact, cut] = page.data;
    expect((exact.note as { content: string }).content).toHaveLength(1000);
    expect(exact).not.toHaveProperty('_preview');
    expect((cut.note as { content: string }).content).toBe('a'.repeat(999) + 'b');
    expect(cut._preview).toEqual({ field: 'content', shownLength: 1000, fullLength: 1500 });
    // the note itself keeps its whole body
    const notes = await api(t, a.admin.key).get(`/v1/leads/${lead.id}/notes`).expect(200);
    expect(notes.body.data[1].content).toBe(long);
  });

  it('answers 404 Lead not found to a member not on the lead and to another agency', async () => {
    const mine = await t.seed.lead(a.member);
    const theirs = await t.seed.lead(a.colleague);
    await timeline(a.member.key, mine.id);
    expectNotFound(await api(t, a.member.key).get(`/v1/leads/${theirs.id}/timeline`), 'Lead');
    const other = await t.seed.agency('Other Agency');
    expectNotFound(await api(t, other.admin.key).get(`/v1/leads/${theirs.id}/timeline`), 'Lead');
    expectNotFound(await api(t, a.admin.key).get(`/v1/leads/${theirs.id + 1000}/timeline`), 'Lead');
  });

  it('keeps each lead’s entries to itself', async () => {
    const one: LeadJson = await t.seed.lead(a.admin);
    const two = await t.seed.lead(a.admin);
    t.clock.advance(MINUTE);
    await t.seed.note(a.admin, two.id, 'on two');
    await api(t, a.admin.key).put(`/v1/leads/${two.id}/status`).send({ crmStatus: 'client' }).expect(200);
    const page = await timeline(a.admin.key, one.id);
    expect(page.total).toBe(2);
    expect(page.data.map((e) => e.type).sort()).toEqual(['assignee-change', 'lead-created']);
    const other = await timeline(a.admin.key, two.id);
    expect(other.total).toBe(4);
    expect(
      other.data
        .map((e) => e.type)
        .slice(0, 2)
        .sort(),
    ).toEqual(['note', 'status-change']);
  });
});
