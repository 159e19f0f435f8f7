import type { Response } from 'supertest';
import {
  Agency,
  api,
  asSession,
  CALENDAR_ITEM_FIELDS,
  expectError,
  expectNotFound,
  expectValidation,
  LeadJson,
  Person,
  sql,
  TestApp,
} from '../fixtures';
import { CalendarSources } from '../../libs/crm/src/extension-points/calendar-source';

interface Item {
  kind: string;
  title: string;
  startsAt: string;
  endsAt: string;
  allDay: boolean;
  status: string | null;
  eventId: string;
  attendeeCount: number | null;
}

interface Slot {
  startsAt: string;
  endsAt: string;
}

const MEETING_FIELDS = [
  'attendeeUserIds',
  'createdAt',
  'createdBy',
  'endsAt',
  'id',
  'leadId',
  'startsAt',
  'status',
  'title',
  'updatedAt',
];

/** Today in these tests: Tuesday 24 November 2026, 10:00 UTC. */
const NOW = new Date('2026-11-24T10:00:00.000Z');

describe('Calendar: meetings, working hours, free-times', () => {
  let t: TestApp;
  let a: Agency;
  let rival: Agency;
  let lead: LeadJson; // the member and the colleague are on it
  let adminsLead: LeadJson; // only the admin's
  let rivalLead: LeadJson;

  beforeAll(async () => {
    t = await TestApp.start();
    await t.resetRows();
    a = await t.seed.agency();
    rival = await t.seed.agency('Rival Agency');
    lead = await t.seed.lead(a.admin, { assigneeIds: [a.member.userId, a.colleague.userId] });
    adminsLead = await t.seed.lead(a.admin);
    rivalLead = await t.seed.lead(rival.admin);
  });
  afterAll(() => t.stop());
  beforeEach(async () => {
    t.clock.set(NOW);
    await sql(t, 'delete from meetings');
    await sql(t, 'delete from working_hours');
  });

  const post = (who: Person, body: Record<string, unknown>) =>
    asSession(t.http.post('/calendar/meetings'), who).send(body);
  const meeting = async (who: Person, body: Record<string, unknown>) => {
    const res = await post(who, { title: 'Valuation visit', ...body });
    if (res.status !== 201) throw new Error(`meeting not created: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { id: string } & Record<string, unknown>;
  };
  const patch = (who: Person, id: string, body: unknown) =>
    asSession(t.http.patch(`/calendar/meetings/${id}`), who).send(body as object);
  const calendar = async (who: Person, query: string): Promise<Item[]> => {
    const res = await api(t, who.key).get(`/v1/calendar${query}`);
    expect(res.status).toBe(200);
    return res.body.items as Item[];
  };
  const freeTimes = (who: Person, query: string) => api(t, who.key).get(`/v1/calendar/free-times${query}`);
  const slotsOf = async (who: Person, query: string): Promise<Slot[]> => {
    const res = await freeTimes(who, query);
    expect(res.status).toBe(200);
    return res.body.slots as Slot[];
  };
  const starts = (slots: Slot[]) => slots.map((slot) => slot.startsAt);
  const putHours = (who: Person, body: unknown) =>
    asSession(t.http.put('/calendar/working-hours'), who)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(body));

  describe('GET /v1/calendar', () => {
    it('takes 42 days but not 43, refuses to == from and an unknown zone', async () => {
      await calendar(a.member, '?from=2026-12-01&to=2027-01-12&tz=Europe/Madrid');
      const tooLong = await api(t, a.member.key).get('/v1/calendar?from=2026-12-01&to=2027-01-13&tz=UTC');
      expectValidation(tooLong, 'to');
      const empty = await api(t, a.member.key).get('/v1/calendar?from=2026-12-01&to=2026-12-01&tz=UTC');
      expectValidation(empty, 'to');
      const zone = await api(t, a.member.key).get(
        '/v1/calendar?from=2026-12-01&to=2026-12-02&tz=Europe/Atlantis',
      );
      expectValidation(zone, 'tz');
    });

    it('spans the 23-hour day clocks go forward in Europe/Madrid, all-day tasks on their date', async () => {
      // 29 March 2026 in Madrid: [28 March 23:00 UTC, 29 March 22:00 UTC)
      const task = (title: string, dueDate: string) =>
        t.seed.task(a.member, { leadId: lead.id, title, dueDate });
      await task('Saturday night', '2026-03-28T22:30:00Z'); // 23:30 on the 28th
      const lateSunday = await task('Sunday night', '2026-03-29T21:30:00Z'); // 23:30 CEST
      await task('Monday early', '2026-03-29T22:30:00Z'); // 00:30 on the 30th
      const allDay = await task('All day', '2026-03-29');
      const m = await meeting(a.member, {
        startsAt: '2026-03-29T23:00:00+02:00',
        endsAt: '2026-03-30T00:30:00+02:00',
      });

      const items = await calendar(a.member, '?from=2026-03-29&to=2026-03-30&tz=Europe/Madrid');
      expect(items.map((i) => [i.kind, i.eventId])).toEqual([
        ['task', allDay.id],
        ['meeting', m.id],
        ['task', lateSunday.id],
      ]);
      expect(items[0]).toMatchObject({
        allDay: true,
        startsAt: '2026-03-29T00:00:00.000Z',
        endsAt: '2026-03-30T00:00:00.000Z',
      });
      // the 25-hour day clocks go back (25 October): 23:30 CET is 22:30 UTC, still that day
      const late = await task('Long day', '2026-10-25T22:30:00Z');
      const october = await calendar(a.member, '?from=2026-10-25&to=2026-10-26&tz=Europe/Madrid');
      expect(october.map((i) => i.eventId)).toEqual([late.id]);
    });

    it('shows meetings to their creator and attendees, cancelled ones with their status', async () => {
      const m = await meeting(a.member, {
        title: 'Signing',
        startsAt: '2026-12-03T10:00:00+01:00',
        endsAt: '2026-12-03T11:30:00+01:00',
        leadId: lead.id,
        attendeeUserIds: [a.colleague.userId, a.member.userId],
      });
      const cancelled = await meeting(a.colleague, {
        title: 'Called off',
        startsAt: '2026-12-03T15:00:00Z',
        endsAt: '2026-12-03T16:00:00Z',
        attendeeUserIds: [a.member.userId],
      });
      await patch(a.colleague, cancelled.id, { status: 'cancelled' }).expect(200);
      await meeting(rival.member, { startsAt: '2026-12-03T10:00:00Z', endsAt: '2026-12-03T11:00:00Z' });

      const query = '?from=2026-12-03&to=2026-12-04&tz=Europe/Madrid';
      const items = await calendar(a.member, query);
      expect(Object.keys(items[0]).sort()).toEqual(CALENDAR_ITEM_FIELDS);
      expect(items).toEqual([
        {
          kind: 'meeting',
          title: 'Signing',
          startsAt: '2026-12-03T09:00:00.000Z',
          endsAt: '2026-12-03T10:30:00.000Z',
          allDay: false,
          status: 'scheduled',
          leadId: lead.id,
          eventId: m.id,
          attendeeCount: 2,
          done: false,
          overdue: false,
        },
        expect.objectContaining({ eventId: cancelled.id, status: 'cancelled', attendeeCount: 2 }),
      ]);
      expect((await calendar(a.colleague, query)).map((i) => i.eventId)).toEqual([m.id, cancelled.id]);
      // an admin's calendar is their own: no meeting they neither created nor attend
      expect(await calendar(a.admin, query)).toEqual([]);
      expect((await calendar(rival.member, query)).map((i) => i.title)).toEqual(['Valuation visit']);
    });
  });

  describe('item kinds', () => {
    it('documents exactly the kinds the app produces: each has a source, none is only promised', async () => {
      const produced = t
        .get(CalendarSources)
        .all()
        .flatMap((source) => [...source.kinds])
        .sort();
      expect(produced).toEqual(['deal_close', 'meeting', 'open_house', 'task', 'viewing']);
      const document = (await t.http.get('/v1/openapi.json').expect(200)).body;
      const kind = document.components.schemas.CalendarItemView.properties.kind;
      expect([...kind.enum].sort()).toEqual(produced);
      expect(JSON.stringify(document)).not.toContain('appointment');
    });
  });

  describe('meetings (session routes)', () => {
    const times = { startsAt: '2026-12-01T10:00:00Z', endsAt: '2026-12-01T11:00:00Z' };

    it('creates a meeting with 201: the fields sent, status scheduled, the creator', async () => {
      const res = await post(a.member, {
        title: 'Valuation visit',
        startsAt: '2026-12-01T10:00:00+01:00',
        endsAt: '2026-12-02T10:00:00+01:00', // exactly 24 h
        leadId: lead.id,
        attendeeUserIds: [a.colleague.userId, a.colleague.userId],
      });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body).sort()).toEqual(MEETING_FIELDS);
      expect(res.body).toEqual({
        id: expect.any(String),
        title: 'Valuation visit',
        startsAt: '2026-12-01T09:00:00.000Z',
        endsAt: '2026-12-02T09:00:00.000Z',
        leadId: lead.id,
        attendeeUserIds: [a.colleague.userId],
        status: 'scheduled',
        createdBy: a.member.userId,
        createdAt: NOW.toISOString(),
        updatedAt: NOW.toISOString(),
      });
      const bare = await meeting(a.member, times);
      expect(bare).toMatchObject({ leadId: null, attendeeUserIds: [] });
    });

    it('refuses bad input with 400 VALIDATION_FAILED naming the field', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ ...times, title: '' }, 'title'],
        [{ ...times, title: 'x'.repeat(201) }, 'title'],
        [{ ...times, title: undefined }, 'title'],
        [{ ...times, title: 'T', startsAt: '2026-12-01' }, 'startsAt'],
        [{ ...times, title: 'T', endsAt: '2026-12-01T10:00:00Z' }, 'endsAt'],
        [{ ...times, title: 'T', endsAt: '2026-12-01T09:00:00Z' }, 'endsAt'],
        [{ ...times, title: 'T', endsAt: '2026-12-02T10:00:01Z' }, 'endsAt'],
        [{ ...times, title: 'T', leadId: 'one' }, 'leadId'],
        [{ ...times, title: 'T', attendeeUserIds: ['nope'] }, 'attendeeUserIds'],
        [{ ...times, title: 'T', attendeeUserIds: [rival.member.userId] }, 'attendeeUserIds.0'],
      ];
      for (const [body, field] of cases) expectValidation(await post(a.member, body), field);
      expect(await sql(t, 'select id from meetings')).toEqual([]);
    });

    it("answers 404 Lead not found. for a lead the person does not reach or another agency's", async () => {
      expectNotFound(await post(a.member, { ...times, title: 'T', leadId: adminsLead.id }), 'Lead');
      expectNotFound(await post(a.admin, { ...times, title: 'T', leadId: rivalLead.id }), 'Lead');
      const ok = await post(a.admin, { ...times, title: 'T', leadId: adminsLead.id });
      expect(ok.status).toBe(201);
      // the session routes take a session, not an API key
      const res = await api(t, a.member.key)
        .post('/calendar/meetings')
        .send({ ...times, title: 'T' });
      expectError(res, 401, 'UNAUTHENTICATED');
    });

    it('lets the creator or an admin change, cancel and delete; an attendee 403, others 404', async () => {
      const m = await meeting(a.member, { ...times, attendeeUserIds: [a.colleague.userId] });
      const other = await t.seed.withKey(await t.seed.member(a.admin, 'member', 'Otto'));

      const changed = await patch(a.member, m.id, {
        title: 'Second visit',
        endsAt: '2026-12-01T12:00:00Z',
        leadId: lead.id,
        attendeeUserIds: [],
      });
      expect(changed.status).toBe(200);
      expect(changed.body).toMatchObject({
        id: m.id,
        title: 'Second visit',
        startsAt: times.startsAt.replace('Z', '.000Z'),
        endsAt: '2026-12-01T12:00:00.000Z',
        leadId: lead.id,
        attendeeUserIds: [],
        status: 'scheduled',
      });
      await patch(a.member, m.id, { attendeeUserIds: [a.colleague.userId], leadId: null }).expect(200);

      expectError(await patch(a.colleague, m.id, { title: 'Mine now' }), 403, 'FORBIDDEN');
      expectNotFound(await patch(other, m.id, { title: 'Mine now' }), 'Meeting');
      expectNotFound(await patch(rival.admin, m.id, { title: 'Mine now' }), 'Meeting');
      expectError(
        await asSession(t.http.delete(`/calendar/meetings/${m.id}`), a.colleague),
        403,
        'FORBIDDEN',
      );
      expectNotFound(await asSession(t.http.delete(`/calendar/meetings/${m.id}`), rival.admin), 'Meeting');

      for (const [body, field] of [
        [{ status: 'done' }, 'status'],
        [{ title: null }, 'title'],
        [{ endsAt: '2026-12-02T10:30:00Z' }, 'endsAt'], // 24.5 h after the start it keeps
        [{ startsAt: '2026-12-01T13:00:00Z' }, 'endsAt'], // after the end it keeps
      ] as const) {
        expectValidation(await patch(a.member, m.id, body), field);
      }
      expectNotFound(await patch(a.member, m.id, { leadId: adminsLead.id }), 'Lead');
      expectValidation(await patch(a.member, 'not-a-uuid', { title: 'x' }), 'meetingId');

      const cancelled = await patch(a.admin, m.id, { status: 'cancelled' });
      expect(cancelled.status).toBe(200);
      expect(cancelled.body).toMatchObject({ status: 'cancelled', title: 'Second visit', leadId: null });

      const gone = await asSession(t.http.delete(`/calendar/meetings/${m.id}`), a.member);
      expect(gone.status).toBe(204);
      expectNotFound(await patch(a.member, m.id, { title: 'x' }), 'Meeting');
      const byAdmin = await meeting(a.member, times);
      await asSession(t.http.delete(`/calendar/meetings/${byAdmin.id}`), a.admin).expect(204);
      expect(await sql(t, 'select id from meetings')).toEqual([]);
    });
  });

  describe('working hours (session routes)', () => {
    const get = (who: Person) => asSession(t.http.get('/calendar/working-hours'), who);
    const expectNull = (res: Response) => {
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.text).toBe('null');
    };

    it('answers null until set, the hours once set, and null again after PUT null', async () => {
      expectNull(await get(a.member));
      const hours = {
        zone: 'Europe/Madrid',
        days: [
          { day: 2, from: '15:00', to: '19:00' },
          { day: 1, from: '09:00', to: '13:00' },
          { day: 2, from: '09:00', to: '14:00' },
          { day: 6, from: '10:00', to: '24:00' },
        ],
      };
      const put = await putHours(a.member, hours);
      expect(put.status).toBe(200);
      const sorted = {
        zone: 'Europe/Madrid',
        days: [hours.days[1], hours.days[2], hours.days[0], hours.days[3]],
      };
      expect(put.body).toEqual(sorted);
      expect((await get(a.member)).body).toEqual(sorted);
      expectNull(await get(a.colleague)); // each person's own

      const replaced = await putHours(a.member, { zone: 'Asia/Kolkata', days: [] });
      expect(replaced.body).toEqual({ zone: 'Asia/Kolkata', days: [] });
      expectNull(await putHours(a.member, null));
      expectNull(await get(a.member));
      expectNull(await putHours(a.member, null)); // already the default
    });

    it('refuses bad hours with 400 VALIDATION_FAILED and keeps the old ones', async () => {
      const good = { zone: 'Europe/Madrid', days: [{ day: 1, from: '09:00', to: '17:00' }] };
      await putHours(a.member, good).expect(200);
      const day = (entry: Record<string, unknown>) => ({ zone: 'UTC', days: [entry] });
      const cases: [unknown, string][] = [
        [{ ...good, zone: 'Mars/Base' }, 'zone'],
        [{ ...good, zone: '' }, 'zone'],
        [{ days: good.days }, 'zone'],
        [{ zone: 'UTC' }, 'days'],
        [day({ day: 0, from: '09:00', to: '17:00' }), 'days.0.day'],
        [day({ day: 8, from: '09:00', to: '17:00' }), 'days.0.day'],
        [day({ day: 1, from: '9:00', to: '17:00' }), 'days.0.from'],
        [day({ day: 1, from: '09:00', to: '24:30' }), 'days.0.to'],
        [day({ day: 1, from: '17:00', to: '09:00' }), 'days.0.to'],
        [day({ day: 1, from: '09:00', to: '09:00' }), 'days.0.to'],
        [
          {
            zone: 'UTC',
            days: Array.from({ length: 15 }, (_, i) => ({
              day: (i % 7) + 1,
              from: `0${i % 2}:00`,
              to: `0${i % 2}:30`,
            })),
          },
          'days',
        ],
        [
          {
            zone: 'UTC',
            days: [
              { day: 3, from: '09:00', to: '13:00' },
              { day: 3, from: '12:00', to: '18:00' },
            ],
          },
          'days.1',
        ],
        [[good], ''],
      ];
      for (const [body, field] of cases) expectValidation(await putHours(a.member, body), field);
      expectError(await putHours(a.member, 'nine to five'), 400, 'BAD_REQUEST');
      expect((await get(a.member)).body).toEqual(good);
      // 14 entries are fine
      const fourteen = Array.from({ length: 14 }, (_, i) => ({
        day: (i % 7) + 1,
        from: i < 7 ? '08:00' : '14:00',
        to: i < 7 ? '12:00' : '18:00',
      }));
      expect((await putHours(a.member, { zone: 'UTC', days: fourteen })).status).toBe(200);
    });
  });

  describe('GET /v1/calendar/free-times', () => {
    // Tuesday 1 December 2026 in Kolkata (+05:30): 09:00-18:00 there is 03:30-12:30 UTC
    const kolkata = '?from=2026-12-01&to=2026-12-02&tz=Asia/Kolkata&durationMinutes=60';
    const halfHours = (from: string, to: string) => {
      const out: string[] = [];
      for (let at = Date.parse(from); at <= Date.parse(to); at += 30 * 60_000)
        out.push(new Date(at).toISOString());
      return out;
    };

    it('gives half-hour aligned slots inside 09:00-18:00 of tz by default, in UTC, earliest first', async () => {
      const res = await freeTimes(a.member, kolkata);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['durationMinutes', 'slots', 'timeZone']);
      expect(res.body.timeZone).toBe('Asia/Kolkata');
      expect(res.body.durationMinutes).toBe(60);
      expect(starts(res.body.slots)).toEqual(halfHours('2026-12-01T03:30:00Z', '2026-12-01T11:30:00Z'));
      expect(res.body.slots[0]).toEqual({
        startsAt: '2026-12-01T03:30:00.000Z',
        endsAt: '2026-12-01T04:30:00.000Z',
      });
      // 45 minutes: still on :00/:30 of Kolkata, the last ending by 18:00 there
      const slots = await slotsOf(a.member, kolkata.replace('=60', '=45'));
      expect(starts(slots)).toEqual(halfHours('2026-12-01T03:30:00Z', '2026-12-01T11:30:00Z'));
      // a weekend in tz has no default hours: Saturday and Sunday 5-6 December
      expect(
        await slotsOf(a.member, '?from=2026-12-05&to=2026-12-07&tz=Asia/Kolkata&durationMinutes=30'),
      ).toEqual([]);
    });

    it('starts only after now', async () => {
      t.clock.set(new Date('2026-12-01T05:10:00.000Z'));
      const slots = await slotsOf(a.member, kolkata);
      expect(slots[0].startsAt).toBe('2026-12-01T05:30:00.000Z');
      t.clock.set(new Date('2026-12-01T05:30:00.000Z'));
      expect((await slotsOf(a.member, kolkata))[0].startsAt).toBe('2026-12-01T06:00:00.000Z');
    });

    it('leaves out the times of their scheduled meetings, not cancelled ones, tasks or other people’s', async () => {
      await meeting(a.member, { startsAt: '2026-12-01T05:00:00Z', endsAt: '2026-12-01T06:00:00Z' });
      await meeting(a.colleague, {
        startsAt: '2026-12-01T08:00:00Z',
        endsAt: '2026-12-01T08:15:00Z',
        attendeeUserIds: [a.member.userId],
      });
      const cancelled = await meeting(a.member, {
        startsAt: '2026-12-01T10:00:00Z',
        endsAt: '2026-12-01T11:00:00Z',
      });
      await patch(a.member, cancelled.id, { status: 'cancelled' }).expect(200);
      await meeting(a.colleague, { startsAt: '2026-12-01T03:30:00Z', endsAt: '2026-12-01T12:30:00Z' });
      await meeting(a.admin, { startsAt: '2026-12-01T03:30:00Z', endsAt: '2026-12-01T12:30:00Z' });
      await t.seed.task(a.member, { leadId: lead.id, dueDate: '2026-12-01T04:00:00Z' });
      await t.seed.task(a.member, { leadId: lead.id, dueDate: '2026-12-01' });

      const slots = starts(await slotsOf(a.member, kolkata));
      const blocked = ['04:30', '05:00', '05:30', '07:30', '08:00'].map((hm) => `2026-12-01T${hm}:00.000Z`);
      expect(slots).toEqual(
        halfHours('2026-12-01T03:30:00Z', '2026-12-01T11:30:00Z').filter((s) => !blocked.includes(s)),
      );
      // the colleague is busy all day, the admin too
      expect(await slotsOf(a.colleague, kolkata)).toEqual([]);
      expect(await slotsOf(a.admin, kolkata)).toEqual([]);
    });

    it('uses their own working hours, in their own zone', async () => {
      // Tuesdays 10:00-12:00 in Madrid (+1): 09:00-11:00 UTC, 14:30-16:30 in Kolkata
      await putHours(a.member, {
        zone: 'Europe/Madrid',
        days: [{ day: 2, from: '10:00', to: '12:00' }],
      }).expect(200);
      const slots = await slotsOf(
        a.member,
        '?from=2026-11-30&to=2026-12-07&tz=Asia/Kolkata&durationMinutes=60',
      );
      expect(slots).toEqual([
        { startsAt: '2026-12-01T09:00:00.000Z', endsAt: '2026-12-01T10:00:00.000Z' },
        { startsAt: '2026-12-01T09:30:00.000Z', endsAt: '2026-12-01T10:30:00.000Z' },
        { startsAt: '2026-12-01T10:00:00.000Z', endsAt: '2026-12-01T11:00:00.000Z' },
      ]);
      await putHours(a.member, null).expect(200);
      expect(await slotsOf(a.member, kolkata)).toHaveLength(17);
    });

    it('with leadId, leaves out that lead’s meetings too; 404 for a lead out of reach', async () => {
      await meeting(a.admin, {
        startsAt: '2026-12-01T04:00:00Z',
        endsAt: '2026-12-01T11:00:00Z',
        leadId: lead.id,
      });
      expect(await slotsOf(a.member, kolkata)).toHaveLength(17);
      const withLead = await slotsOf(a.member, `${kolkata}&leadId=${lead.id}`);
      expect(starts(withLead)).toEqual(['2026-12-01T11:00:00.000Z', '2026-12-01T11:30:00.000Z']);

      expectNotFound(await freeTimes(a.member, `${kolkata}&leadId=${adminsLead.id}`), 'Lead');
      expectNotFound(await freeTimes(a.admin, `${kolkata}&leadId=${rivalLead.id}`), 'Lead');
      expectValidation(await freeTimes(a.member, `${kolkata}&leadId=abc`), 'leadId');
    });

    it('takes 14 days but not 15, and 15-480 minutes', async () => {
      const q = (from: string, to: string, minutes: number | string, tz = 'Asia/Kolkata') =>
        freeTimes(a.member, `?from=${from}&to=${to}&tz=${tz}&durationMinutes=${minutes}`);
      const fourteen = await q('2026-12-01', '2026-12-15', 60);
      expect(fourteen.status).toBe(200);
      expect(fourteen.body.slots).toHaveLength(10 * 17);
      expectValidation(await q('2026-12-01', '2026-12-16', 60), 'to');
      expectValidation(await q('2026-12-01', '2026-12-01', 60), 'to');
      expectValidation(await q('2026-12-01', '2026-12-02', 60, 'Asia/Nowhere'), 'tz');
      expectValidation(await q('2026-12-01', '2026-12-02', 14), 'durationMinutes');
      expectValidation(await q('2026-12-01', '2026-12-02', 481), 'durationMinutes');
      expectValidation(await q('2026-12-01', '2026-12-02', '30.5'), 'durationMinutes');
      expectValidation(await freeTimes(a.member, '?from=2026-12-01&to=2026-12-02&tz=UTC'), 'durationMinutes');
      expect((await q('2026-12-01', '2026-12-02', 15)).body.slots).toHaveLength(18);
      const long = await q('2026-12-01', '2026-12-02', 480);
      expect(starts(long.body.slots)).toEqual([
        '2026-12-01T03:30:00.000Z',
        '2026-12-01T04:00:00.000Z',
        '2026-12-01T04:30:00.000Z',
      ]);
    });
  });
});
