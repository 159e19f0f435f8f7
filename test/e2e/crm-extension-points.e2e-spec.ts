import {
  CalendarItemJson,
  CalendarRequest,
  CalendarSource,
  CalendarSourceProvider,
  TimelineEntryJson,
  TimelineLead,
  TimelineSource,
  TimelineSourceProvider,
} from '@app/crm';
import { DocumentsTimelineSource as RealDocumentsTimelineSource } from '@app/documents';
import { OpenHousesCalendarSource as RealOpenHousesCalendarSource } from '../../libs/network/src/application/open-houses.calendar-source';
import { Agency, api, CALENDAR_ITEM_FIELDS, expectValidation, HOUR, MINUTE, sql, TestApp } from '../fixtures';

/**
 * A context the CRM does not know, contributing `document` entries (one per lead, 30 s after it
 * came in). It stands in for the documents context's own source, which the test app replaces with
 * an unmarked value (so only this one claims the type).
 */
@TimelineSourceProvider()
class DocumentsTimelineSource implements TimelineSource {
  readonly types = ['document'] as const;

  readonly byId = {
    key: 'documentsById' as const,
    fill: async (_lead: TimelineLead, entries: TimelineEntryJson[]) =>
      Object.fromEntries(
        entries.flatMap((entry) => {
          if (entry.type !== 'document') return [];
          const id = (entry.document as { documentId: string }).documentId;
          return [[id, { id, status: 'scheduled' }]];
        }),
      ),
  };

  entries(lead: TimelineLead) {
    return {
      sql: `select 'document', l.created_at + interval '30 seconds',
                   jsonb_build_object('documentId', 'document-' || l.id, 'action', 'scheduled'), 'document-' || l.id
              from leads l where l.organization_id = ? and l.id = ?`,
      params: [lead.organizationId, lead.leadId],
    };
  }
}

/**
 * A context the CRM does not know, putting one open house on everyone's calendar: 09:00-10:00 UTC
 * on the window's first day. It stands in for the network context's own source, which the test
 * app replaces with an unmarked value (so only this one claims the kind).
 */
@CalendarSourceProvider()
class OpenHousesCalendarSource implements CalendarSource {
  readonly kinds = ['open_house'] as const;

  async items(request: CalendarRequest): Promise<CalendarItemJson[]> {
    const day = Date.parse(`${request.from}T00:00:00.000Z`);
    return [
      {
        kind: 'open_house',
        title: `Open house of ${request.userId}`,
        startsAt: new Date(day + 9 * HOUR).toISOString(),
        endsAt: new Date(day + 10 * HOUR).toISOString(),
        allDay: false,
        status: 'confirmed',
        leadId: null,
        eventId: 'open-house-1',
        attendeeCount: 2,
        done: false,
        overdue: false,
      },
    ];
  }
}

interface Calendar {
  window: { from: string; to: string; tz: string };
  truncated: boolean;
  items: CalendarItemJson[];
}

describe('CRM extension points', () => {
  let t: TestApp;
  let a: Agency;
  beforeAll(async () => {
    t = await TestApp.start({
      providers: [DocumentsTimelineSource, OpenHousesCalendarSource],
      overrides: [
        { provide: RealDocumentsTimelineSource, useValue: {} },
        { provide: RealOpenHousesCalendarSource, useValue: {} },
      ],
    });
  });
  afterAll(() => t.stop());
  beforeEach(async () => {
    await t.resetRows();
    a = await t.seed.agency();
  });

  const calendar = async (key: string, query: string): Promise<Calendar> => {
    const res = await api(t, key).get(`/v1/calendar${query}`);
    expect(res.status).toBe(200);
    return res.body as Calendar;
  };
  const tasksOf = (body: Calendar) => body.items.filter((item) => item.kind === 'task');

  describe('a TimelineSource provided by another module', () => {
    it('adds its entries to the timeline, in date order, counted and paged with the others', async () => {
      t.clock.set(new Date('2026-11-22T10:00:00.000Z'));
      const lead = await t.seed.lead(a.admin, { assigneeIds: [a.member.userId] });
      t.clock.advance(MINUTE);
      const note = await t.seed.note(a.member, lead.id, 'After the viewing');
      const other = await t.seed.lead(a.admin);

      const res = await api(t, a.member.key).get(`/v1/leads/${lead.id}/timeline`).expect(200);
      expect(res.body.total).toBe(4);
      expect(res.body.data.map((e: { type: string }) => e.type)).toEqual([
        'note',
        'document',
        expect.stringMatching(/^(lead-created|assignee-change)$/),
        expect.stringMatching(/^(lead-created|assignee-change)$/),
      ]);
      expect(res.body.data[0].note.id).toBe(note.id);
      expect(res.body.data[1]).toEqual({
        type: 'document',
        date: '2026-11-22T10:00:30.000Z',
        document: { documentId: `document-${lead.id}`, action: 'scheduled' },
      });
      // its own byId map sits next to the ones that are always there
      expect(res.body).toMatchObject({
        tasksById: {},
        dealsById: {},
        documentsById: { [`document-${lead.id}`]: { id: `document-${lead.id}`, status: 'scheduled' } },
      });

      const page = await api(t, a.member.key)
        .get(`/v1/leads/${lead.id}/timeline?limit=1&offset=1`)
        .expect(200);
      expect(page.body).toMatchObject({ total: 4, hasMore: true, nextOffset: 2 });
      expect(page.body.data.map((e: { type: string }) => e.type)).toEqual(['document']);
      const past = await api(t, a.member.key).get(`/v1/leads/${lead.id}/timeline?offset=10`).expect(200);
      expect(past.body).toMatchObject({ data: [], total: 4, hasMore: false, nextOffset: null });

      const otherPage = await api(t, a.admin.key).get(`/v1/leads/${other.id}/timeline`).expect(200);
      expect(otherPage.body.data.filter((e: { type: string }) => e.type === 'document')).toEqual([
        expect.objectContaining({ document: { documentId: `document-${other.id}`, action: 'scheduled' } }),
      ]);
    });

    it('is still behind the lead door: a member off the lead gets 404', async () => {
      const lead = await t.seed.lead(a.admin, { assigneeIds: [a.member.userId] });
      const res = await api(t, a.colleague.key).get(`/v1/leads/${lead.id}/timeline`);
      expect(res.status).toBe(404);
      expect(res.body.error.message).toBe('Lead not found.');
    });
  });

  describe('a CalendarSource provided by another module', () => {
    it('adds its items to the calendar, merged with the tasks by startsAt', async () => {
      const lead = await t.seed.lead(a.admin, { assigneeIds: [a.member.userId] });
      const early = await t.seed.task(a.member, { leadId: lead.id, dueDate: '2026-12-01T08:00:00Z' });
      const late = await t.seed.task(a.member, { leadId: lead.id, dueDate: '2026-12-01T11:00:00Z' });
      const body = await calendar(a.member.key, '?from=2026-12-01&to=2026-12-02&tz=UTC');
      expect(body.items.map((item) => [item.kind, item.eventId])).toEqual([
        ['task', early.id],
        ['open_house', 'open-house-1'],
        ['task', late.id],
      ]);
      expect(body.items[1]).toEqual({
        kind: 'open_house',
        title: `Open house of ${a.member.userId}`,
        startsAt: '2026-12-01T09:00:00.000Z',
        endsAt: '2026-12-01T10:00:00.000Z',
        allDay: false,
        status: 'confirmed',
        leadId: null,
        eventId: 'open-house-1',
        attendeeCount: 2,
        done: false,
        overdue: false,
      });
    });
  });

  describe('GET /v1/calendar', () => {
    it('answers the window as asked, with items ordered by startsAt', async () => {
      const body = await calendar(a.member.key, '?from=2026-12-01&to=2026-12-08&tz=Europe/Madrid');
      expect(Object.keys(body).sort()).toEqual(['items', 'truncated', 'window']);
      expect(body.window).toEqual({ from: '2026-12-01', to: '2026-12-08', tz: 'Europe/Madrid' });
      expect(body.truncated).toBe(false);
    });

    it.each([
      ['', ['from', 'to', 'tz']],
      ['?to=2026-12-02&tz=UTC', ['from']],
      ['?from=2026-12-01&tz=UTC', ['to']],
      ['?from=2026-12-01&to=2026-12-02', ['tz']],
      ['?from=2026-02-30&to=2026-03-02&tz=UTC', ['from']],
      ['?from=2026-12-01&to=12/02/2026&tz=UTC', ['to']],
      ['?from=2026-12-01&to=2026-12-02&tz=Mars/Olympus_Mons', ['tz']],
      [`?from=2026-12-01&to=2026-12-02&tz=${'A'.repeat(65)}`, ['tz']],
      ['?from=2026-12-01&to=2026-12-02&tz=', ['tz']],
      ['?from=2026-12-02&to=2026-12-02&tz=UTC', ['to']],
      ['?from=2026-12-02&to=2026-12-01&tz=UTC', ['to']],
    ])('refuses %s with 400 VALIDATION_FAILED naming %j', async (query, fields) => {
      const res = await api(t, a.member.key).get(`/v1/calendar${query}`);
      expectValidation(res, ...fields);
    });

    it('takes a window of 42 days, not 43', async () => {
      await calendar(a.member.key, '?from=2026-12-01&to=2027-01-12&tz=Europe/Madrid');
      const res = await api(t, a.member.key).get(
        '/v1/calendar?from=2026-12-01&to=2027-01-13&tz=Europe/Madrid',
      );
      expectValidation(res, 'to');
    });

    it("shows a member only the tasks they created or are on, never another agency's", async () => {
      const lead = await t.seed.lead(a.admin, { assigneeIds: [a.member.userId, a.colleague.userId] });
      const day = { dueDate: '2026-12-03T10:00:00Z', leadId: lead.id };
      const own = await t.seed.task(a.member, { ...day, title: 'Own' });
      const onIt = await t.seed.task(a.admin, {
        ...day,
        title: 'On it',
        assigneeIds: [a.member.userId],
      });
      const colleagues = await t.seed.task(a.admin, {
        ...day,
        title: "Colleague's",
        assigneeIds: [a.colleague.userId],
      });
      const created = await t.seed.task(a.member, {
        ...day,
        title: 'Created for the colleague',
        assigneeIds: [a.colleague.userId],
      });
      await t.seed.task(a.member, { leadId: lead.id, title: 'No due date' });
      const rival = await t.seed.agency('Rival Agency');
      const rivalLead = await t.seed.lead(rival.admin, { assigneeIds: [rival.member.userId] });
      await t.seed.task(rival.member, { ...day, leadId: rivalLead.id, title: 'Rival' });
      await t.seed.task(rival.admin, { ...day, leadId: rivalLead.id, title: 'Rival admin' });

      const query = '?from=2026-12-03&to=2026-12-04&tz=UTC';
      const ids = async (key: string) =>
        tasksOf(await calendar(key, query))
          .map((item) => item.eventId)
          .sort();
      expect(await ids(a.member.key)).toEqual([own.id, onIt.id, created.id].sort());
      expect(await ids(a.colleague.key)).toEqual([colleagues.id, created.id].sort());
      // an admin's calendar is their own too, not the agency's
      expect(await ids(a.admin.key)).toEqual([onIt.id, colleagues.id].sort());
      expect(tasksOf(await calendar(rival.member.key, query)).map((item) => item.title)).toEqual(['Rival']);
    });

    it('gives a task as a calendar item: timed tasks end when they start', async () => {
      t.clock.set(new Date('2026-11-20T12:00:00.000Z'));
      const lead = await t.seed.lead(a.admin, { assigneeIds: [a.member.userId] });
      const task = await t.seed.task(a.member, {
        leadId: lead.id,
        title: 'Call back',
        dueDate: '2026-12-03T10:30:00+01:00',
      });
      const [item] = tasksOf(await calendar(a.member.key, '?from=2026-12-03&to=2026-12-04&tz=Europe/Madrid'));
      expect(Object.keys(item).sort()).toEqual(CALENDAR_ITEM_FIELDS);
      expect(item).toEqual({
        kind: 'task',
        title: 'Call back',
        startsAt: '2026-12-03T09:30:00.000Z',
        endsAt: '2026-12-03T09:30:00.000Z',
        allDay: false,
        status: 'pending',
        leadId: lead.id,
        eventId: task.id,
        attendeeCount: null,
        done: false,
        overdue: false,
      });
    });

    it('places a timed task by its moment in tz', async () => {
      const lead = await t.seed.lead(a.admin, { assigneeIds: [a.member.userId] });
      // 20:00 UTC on Dec 3 is 10:00 on Dec 4 in Kiritimati (UTC+14)
      const task = await t.seed.task(a.member, { leadId: lead.id, dueDate: '2026-12-03T20:00:00Z' });
      const ids = async (query: string) => tasksOf(await calendar(a.member.key, query)).map((i) => i.eventId);
      expect(await ids('?from=2026-12-03&to=2026-12-04&tz=UTC')).toEqual([task.id]);
      expect(await ids('?from=2026-12-03&to=2026-12-04&tz=Pacific/Kiritimati')).toEqual([]);
      expect(await ids('?from=2026-12-04&to=2026-12-05&tz=Pacific/Kiritimati')).toEqual([task.id]);
    });

    it('shows a date-only task all day on its date whatever tz', async () => {
      const lead = await t.seed.lead(a.admin, { assigneeIds: [a.member.userId] });
      const task = await t.seed.task(a.member, { leadId: lead.id, dueDate: '2026-12-03' });
      for (const tz of ['UTC', 'America/Los_Angeles', 'Pacific/Kiritimati', 'Asia/Kolkata']) {
        const items = tasksOf(await calendar(a.member.key, `?from=2026-12-03&to=2026-12-04&tz=${tz}`));
        expect(items).toEqual([
          expect.objectContaining({
            eventId: task.id,
            allDay: true,
            startsAt: '2026-12-03T00:00:00.000Z',
            endsAt: '2026-12-04T00:00:00.000Z',
          }),
        ]);
        expect(tasksOf(await calendar(a.member.key, `?from=2026-12-02&to=2026-12-03&tz=${tz}`))).toEqual([]);
        expect(tasksOf(await calendar(a.member.key, `?from=2026-12-04&to=2026-12-05&tz=${tz}`))).toEqual([]);
      }
    });

    it('marks completed tasks done and pending ones past due overdue', async () => {
      t.clock.set(new Date('2026-12-03T12:00:00.000Z'));
      const lead = await t.seed.lead(a.admin, { assigneeIds: [a.member.userId] });
      const make = (title: string, dueDate: string) =>
        t.seed.task(a.member, { leadId: lead.id, title, dueDate });
      const past = await make('Past', '2026-12-03T11:00:00Z');
      const future = await make('Future', '2026-12-03T13:00:00Z');
      const today = await make('Today', '2026-12-03');
      const yesterday = await make('Yesterday', '2026-12-02');
      const done = await make('Done', '2026-12-02T09:00:00Z');
      await api(t, a.member.key).patch(`/v1/tasks/${done.id}`).send({ status: 'completed' }).expect(200);

      const items = tasksOf(await calendar(a.member.key, '?from=2026-12-01&to=2026-12-05&tz=UTC'));
      const flags = Object.fromEntries(items.map((i) => [i.eventId, { done: i.done, overdue: i.overdue }]));
      expect(flags).toEqual({
        [past.id]: { done: false, overdue: true },
        [future.id]: { done: false, overdue: false },
        [today.id]: { done: false, overdue: false },
        [yesterday.id]: { done: false, overdue: true },
        [done.id]: { done: true, overdue: false },
      });
      expect(items.find((i) => i.eventId === done.id)?.status).toBe('completed');
    });

    it('gives at most 1,000 items, earliest first, truncated when more', async () => {
      const lead = await t.seed.lead(a.admin, { assigneeIds: [a.member.userId] });
      await sql(
        t,
        `insert into tasks (id, organization_id, lead_id, assignee_ids, created_by, title, due_date, status, created_at, updated_at)
         select gen_random_uuid(), ?, ?, array[?]::uuid[], ?, 'Bulk ' || g.i,
                '2026-12-01T08:00:00Z'::timestamptz + g.i * interval '1 minute', 'pending', now(), now()
           from generate_series(1, 1001) as g(i)`,
        [a.member.organizationId, lead.id, a.member.userId, a.member.userId],
      );
      const body = await calendar(a.member.key, '?from=2026-12-01&to=2026-12-03&tz=UTC');
      expect(body.truncated).toBe(true);
      expect(body.items).toHaveLength(1000);
      const starts = body.items.map((item) => item.startsAt);
      expect([...starts].sort()).toEqual(starts);
      expect(body.items.filter((item) => item.kind === 'open_house')).toHaveLength(1);
    });
  });
});
