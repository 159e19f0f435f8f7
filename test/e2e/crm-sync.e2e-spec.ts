import { Client } from 'pg';
import { LeadFactsService } from '@app/crm';
import {
  Agency,
  api,
  expectNotFound,
  expectValidation,
  LEAD_SYNC_ITEM_FIELDS,
  type LeadJson,
  NOTE_FIELDS,
  type NoteJson,
  postLead,
  REMOVED_ENTRY_FIELDS,
  sql,
  SYNC_PAGE_FIELDS,
  TASK_FIELDS,
  TestApp,
} from '../fixtures';

/**
 * Sync by cursor (INTERFACES.md "Reads and sync") on `GET /v1/leads`, `GET /v1/tasks` and
 * `GET /v1/leads/{leadId}/notes`: the parameters and their refusals, the answer, the
 * (updatedAt, id) order across pages, removed entries, and that no change is ever skipped, not even
 * one committed by a transaction that started before the reader passed its time.
 */

type Entry = Record<string, unknown> & { id: number | string; updatedAt: string; removed?: true };

interface SyncPage {
  data: Entry[];
  hasMore: boolean;
  nextCursor: string;
}

const EPOCH = '1970-01-01T00:00:00Z';
const LEADS = '/v1/leads';
const TASKS = '/v1/tasks';
const notesOf = (leadId: number) => `/v1/leads/${leadId}/notes`;

describe('Sync by cursor', () => {
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

  /** One sync call that must answer 200 `{data, hasMore, nextCursor}`. */
  async function syncPage(key: string, path: string, query: Record<string, unknown>): Promise<SyncPage> {
    const res = await api(t, key).get(path).query(query);
    if (res.status !== 200) throw new Error(`sync answered ${res.status}: ${JSON.stringify(res.body)}`);
    expect(Object.keys(res.body).sort()).toEqual(SYNC_PAGE_FIELDS);
    expect(res.body.nextCursor).toEqual(expect.any(String));
    return res.body as SyncPage;
  }

  /**
   * Pages while `hasMore`, then calls once more and goes on until a call brings nothing: a
   * transaction of the app's own (a usage flush) in progress during a call holds back what was
   * written after it began, until the next call. An empty page gives back the cursor it was sent.
   */
  async function drain(
    key: string,
    path: string,
    start: { updatedSince?: string; cursor?: string },
    limit = 25,
  ): Promise<{ entries: Entry[]; cursor: string; pages: SyncPage[] }> {
    const entries: Entry[] = [];
    const pages: SyncPage[] = [];
    let query: Record<string, unknown> = { ...start, limit };
    for (;;) {
      const page = await syncPage(key, path, query);
      pages.push(page);
      entries.push(...page.data);
      if (page.data.length === 0) {
        if (query.cursor !== undefined) expect(page.nextCursor).toBe(query.cursor);
        expect(page.hasMore).toBe(false);
        return { entries, cursor: page.nextCursor, pages };
      }
      query = { cursor: page.nextCursor, limit };
    }
  }

  /** Entries come in (updatedAt, id) order; `updatedAt` is answered to the millisecond. */
  const expectSyncOrder = (entries: Entry[]) => {
    const times = entries.map((entry) => entry.updatedAt);
    expect(times).toEqual([...times].sort());
  };

  /**
   * When the database recorded each row's last change (`changed_at`, the sync's `updatedAt`), to
   * the millisecond, by id.
   */
  const changedAt = async (table: 'leads' | 'tasks' | 'notes', organizationId: string) =>
    new Map(
      (
        await sql<{ id: string; changed_at: Date }>(
          t,
          `select id, changed_at from ${table} where organization_id = ?`,
          [organizationId],
        )
      ).map((row): [number | string, string] => [
        table === 'leads' ? Number(row.id) : row.id,
        new Date(row.changed_at).toISOString(),
      ]),
    );
  const leadTimes = (organizationId: string) => changedAt('leads', organizationId);

  /** Every lead of the agency as the page-mode list answers it, by id. */
  async function listItems(key: string): Promise<Map<number, Record<string, unknown>>> {
    const items = new Map<number, Record<string, unknown>>();
    for (let page = 1; ; page++) {
      const res = await api(t, key).get(LEADS).query({ page, limit: 100 }).expect(200);
      for (const item of res.body.data) items.set(item.id, item);
      if (!res.body.hasMore) return items;
    }
  }

  const ids = (entries: Entry[]) => entries.map((entry) => entry.id);
  const withoutUpdatedAt = ({ updatedAt: _updatedAt, ...rest }: Entry) => rest;

  describe('refusals (400 VALIDATION_FAILED)', () => {
    it('refuses page, search, crmStatus and assigneeIds with updatedSince or cursor', async () => {
      const { cursor } = await drain(a.admin.key, LEADS, { updatedSince: EPOCH });
      const filters = {
        page: 1,
        search: 'ana',
        crmStatus: 'lead',
        assigneeIds: a.member.userId,
      };
      for (const [name, value] of Object.entries(filters)) {
        for (const sync of [{ updatedSince: EPOCH }, { cursor }, { updatedSince: EPOCH, cursor }]) {
          const res = await api(t, a.admin.key)
            .get(LEADS)
            .query({ ...sync, [name]: value });
          expectValidation(res, name);
        }
      }
      // a member's assigneeIds in sync mode is the combination, not the admin rule
      expectValidation(
        await api(t, a.member.key).get(LEADS).query({ updatedSince: EPOCH, assigneeIds: a.member.userId }),
        'assigneeIds',
      );
      // limit combines, within 1-100
      for (const limit of ['0', '101', 'x', '1.5']) {
        expectValidation(await api(t, a.admin.key).get(LEADS).query({ updatedSince: EPOCH, limit }), 'limit');
        expectValidation(await api(t, a.admin.key).get(LEADS).query({ cursor, limit }), 'limit');
      }
      await api(t, a.admin.key).get(LEADS).query({ updatedSince: EPOCH, limit: 100 }).expect(200);
      await api(t, a.admin.key).get(LEADS).query({ updatedSince: EPOCH, limit: 1 }).expect(200);
    });

    it('refuses an updatedSince that is not an ISO 8601 date-time with Z or an offset', async () => {
      const malformed = [
        '',
        '2026-11-24',
        '2026-11-24T09:30:00',
        '2026-11-24 09:30:00Z',
        '2026-11-24T09:30:00 01:00', // an unencoded + arrives as a space
        '2026-02-30T00:00:00Z',
        '2026-11-24T25:00:00Z',
        '2026-11-24T09:30:00+25:00',
        '1732440600',
        'yesterday',
        '0000-01-01T00:00:00Z',
      ];
      for (const updatedSince of malformed) {
        expectValidation(await api(t, a.admin.key).get(LEADS).query({ updatedSince }), 'updatedSince');
        expectValidation(await api(t, a.admin.key).get(TASKS).query({ updatedSince }), 'updatedSince');
      }
      expectValidation(
        await api(t, a.admin.key).get(`${LEADS}?updatedSince=${EPOCH}&updatedSince=${EPOCH}`),
        'updatedSince',
      );
      for (const updatedSince of [
        '2026-11-24T10:30:00+01:00',
        '2026-11-24T09:30Z',
        '2026-11-24T09:30:00.123456789Z',
      ])
        await api(t, a.admin.key).get(LEADS).query({ updatedSince }).expect(200);
    });

    it('refuses a cursor that was tampered with, made up, or given by another list or reach: never a 500', async () => {
      await t.seed.lead(a.admin, { assigneeIds: [a.member.userId] });
      const lead = await t.seed.lead(a.admin);
      const admin = (await syncPage(a.admin.key, LEADS, { updatedSince: EPOCH, limit: 1 })).nextCursor;
      const member = (await syncPage(a.member.key, LEADS, { updatedSince: EPOCH })).nextCursor;
      const tasks = (await syncPage(a.admin.key, TASKS, { updatedSince: EPOCH })).nextCursor;
      const notes = (await syncPage(a.admin.key, notesOf(lead.id), { updatedSince: EPOCH })).nextCursor;
      const body = JSON.parse(Buffer.from(admin, 'base64url').toString()) as Record<string, string>;
      // edited by hand: the checksum no longer matches
      const forged = (fields: Record<string, unknown>) =>
        Buffer.from(JSON.stringify({ ...body, ...fields })).toString('base64url');
      const flipped = (at: number) =>
        admin.slice(0, at) + (admin[at] === 'A' ? 'B' : 'A') + admin.slice(at + 1);
      const bad = [
        '',
        'not a cursor',
        'abc',
        `${admin}=`,
        admin.slice(0, -3),
        flipped(0),
        flipped(Math.floor(admin.length / 2)),
        flipped(admin.length - 1),
        'A'.repeat(600),
        forged({ i: '1 or 1=1' }),
        forged({ i: 5 }),
        forged({ i: '-5' }),
        forged({ t: '2026-13-40T00:00:00.000000Z' }),
        forged({ t: "2026-11-24T00:00:00.000000Z'; drop table leads; --" }),
        forged({ l: 'leads/everything' }),
        forged({ t: '2999-01-01T00:00:00.000000Z' }),
        forged({ extra: true }),
        forged({ c: undefined }),
        Buffer.from('[1,2,3]').toString('base64url'),
        Buffer.from('null').toString('base64url'),
        member, // a member's cursor, sent by an admin: another reach
        tasks,
        notes,
      ];
      for (const cursor of bad) {
        expectValidation(await api(t, a.admin.key).get(LEADS).query({ cursor }), 'cursor');
      }
      expectValidation(await api(t, a.member.key).get(LEADS).query({ cursor: admin }), 'cursor');
      expectValidation(await api(t, a.admin.key).get(TASKS).query({ cursor: admin }), 'cursor');
      expectValidation(await api(t, a.admin.key).get(notesOf(lead.id)).query({ cursor: tasks }), 'cursor');
      expectValidation(await api(t, a.admin.key).get(`${LEADS}?cursor=${admin}&cursor=${admin}`), 'cursor');
      const other = await t.seed.lead(a.admin);
      expectValidation(await api(t, a.admin.key).get(notesOf(other.id)).query({ cursor: notes }), 'cursor');
      // and the genuine one still works
      await api(t, a.admin.key).get(LEADS).query({ cursor: admin }).expect(200);
    });

    it('refuses leadId or status with a task sync; limit alone stays ignored outside sync mode', async () => {
      const lead = await t.seed.lead(a.admin);
      expectValidation(
        await api(t, a.admin.key).get(TASKS).query({ updatedSince: EPOCH, leadId: lead.id }),
        'leadId',
      );
      expectValidation(
        await api(t, a.admin.key).get(TASKS).query({ updatedSince: EPOCH, status: 'pending' }),
        'status',
      );
      const { cursor } = await drain(a.admin.key, TASKS, { updatedSince: EPOCH });
      expectValidation(await api(t, a.admin.key).get(TASKS).query({ cursor, leadId: lead.id }), 'leadId');
      expectValidation(
        await api(t, a.admin.key).get(TASKS).query({ updatedSince: EPOCH, limit: 0 }),
        'limit',
      );
      // the ordinary lists never had a limit: one sent there is ignored, as before
      const plain = await api(t, a.admin.key).get(TASKS).query({ limit: 1000 }).expect(200);
      expect(Object.keys(plain.body).sort()).toEqual(['data', 'hasMore']);
      const notes = await api(t, a.admin.key).get(notesOf(lead.id)).query({ limit: 'x' }).expect(200);
      expect(notes.body).toEqual({ data: [], hasMore: false });
    });
  });

  describe('leads', () => {
    it('answers list items plus updatedAt in (updatedAt, id) order, keyset-paged, nextCursor always present', async () => {
      const tag = await t.seed.tag(a.admin, 'Sea view');
      const leads: LeadJson[] = [];
      for (let i = 0; i < 7; i++) leads.push(await t.seed.lead(a.admin, { assigneeIds: [a.member.userId] }));
      await api(t, a.admin.key)
        .put(`${LEADS}/${leads[2].id}/tags`)
        .send({ tagIds: [tag.id] })
        .expect(200);
      await t.seed.task(a.admin, { leadId: leads[4].id, dueDate: '2031-01-01' });

      const { entries, pages } = await drain(a.admin.key, LEADS, { updatedSince: EPOCH }, 3);
      expect(pages.map((page) => [page.data.length, page.hasMore])).toEqual([
        [3, true],
        [3, true],
        [1, false],
        [0, false],
      ]);
      for (const entry of entries) expect(Object.keys(entry).sort()).toEqual(LEAD_SYNC_ITEM_FIELDS);
      expectSyncOrder(entries);
      // lead 3 was changed last (its tags), so it comes last; the others in creation order
      const order = [0, 1, 3, 4, 5, 6, 2].map((i) => leads[i].id);
      expect(ids(entries)).toEqual(order);
      const times = await leadTimes(a.admin.organizationId);
      for (const entry of entries) expect(entry.updatedAt).toBe(times.get(entry.id as number));
      // the same rows as the page-mode list, plus updatedAt
      const items = await listItems(a.admin.key);
      for (const entry of entries) expect(withoutUpdatedAt(entry)).toEqual(items.get(entry.id as number));
      expect(entries.find((entry) => entry.id === leads[2].id)?.tags).toEqual([
        { id: tag.id, name: 'Sea view', color: tag.color, leadCount: 1 },
      ]);
      expect(entries.find((entry) => entry.id === leads[4].id)).toMatchObject({
        pendingTasks: 1,
        nextTaskDueAt: '2031-01-01T00:00:00.000Z',
      });
      // an empty first page gives the position it started from, which continues like any cursor
      const future = await syncPage(a.admin.key, LEADS, { updatedSince: '2999-01-01T00:00:00Z' });
      expect(future).toEqual({ data: [], hasMore: false, nextCursor: expect.any(String) });
      const again = await syncPage(a.admin.key, LEADS, { cursor: future.nextCursor });
      expect(again).toEqual({ data: [], hasMore: false, nextCursor: future.nextCursor });
    });

    it('starts at updatedSince inclusive, and a cursor ignores updatedSince', async () => {
      for (let i = 0; i < 5; i++) await t.seed.lead(a.admin);
      const all = (await drain(a.admin.key, LEADS, { updatedSince: EPOCH })).entries;
      const since = all[2].updatedAt;
      const later = (await drain(a.admin.key, LEADS, { updatedSince: since })).entries;
      expect(ids(later)).toEqual(ids(all.filter((entry) => entry.updatedAt >= since)));
      expect(ids(later)).toContain(all[2].id);
      // the same moment with an offset
      const shifted = new Date(new Date(since).getTime() + 2 * 3_600_000)
        .toISOString()
        .replace('Z', '+02:00');
      expect(ids((await drain(a.admin.key, LEADS, { updatedSince: shifted })).entries)).toEqual(ids(later));
      const first = await syncPage(a.admin.key, LEADS, { updatedSince: EPOCH, limit: 2 });
      const next = await syncPage(a.admin.key, LEADS, {
        cursor: first.nextCursor,
        updatedSince: '2999-01-01T00:00:00Z',
        limit: 2,
      });
      expect(ids(next.data)).toEqual(ids(all.slice(2, 4)));
    });

    it('moves updatedAt on every change of a lead: fields, status, bulk status, tags, owners, counters', async () => {
      const tag = await t.seed.tag(a.admin, 'Hot');
      const leads: LeadJson[] = [];
      for (let i = 0; i < 8; i++) leads.push(await t.seed.lead(a.admin));
      const { cursor } = await drain(a.admin.key, LEADS, { updatedSince: EPOCH });
      const key = a.admin.key;
      await api(t, key).patch(`${LEADS}/${leads[0].id}`).send({ companyName: 'Acme' }).expect(200);
      await api(t, key).put(`${LEADS}/${leads[1].id}/status`).send({ crmStatus: 'client' }).expect(200);
      await api(t, key)
        .post(`${LEADS}/status`)
        .send({ leadIds: [leads[2].id, leads[3].id], crmStatus: 'potential' })
        .expect(200);
      await api(t, key)
        .put(`${LEADS}/${leads[4].id}/tags`)
        .send({ tagIds: [tag.id] })
        .expect(200);
      await api(t, key)
        .put(`${LEADS}/${leads[5].id}/assignees`)
        .send({ userIds: [a.member.userId] })
        .expect(200);
      await api(t, key)
        .post(`${LEADS}/${leads[6].id}/assignees`)
        .send({ userIds: [a.colleague.userId] })
        .expect(200);
      // a call a connector stored: the lead's facts (totalCalls, lastCallAt) move, and the lead with them
      await sql(
        t,
        `insert into calls (id, organization_id, lead_id, connector, external_id, direction, status,
                            duration_seconds, has_recording, started_at, actor, created_at, updated_at)
         values (gen_random_uuid(), ?, ?, 'aircall', 'sync-1', 'outbound', 'completed', 30, false, now(),
                 'integration:test', now(), now())`,
        [a.admin.organizationId, leads[7].id],
      );
      await t.get(LeadFactsService).refresh(a.admin.organizationId, leads[7].id);

      const changed = (await drain(a.admin.key, LEADS, { cursor })).entries;
      expect(ids(changed)).toEqual(leads.map((lead) => lead.id));
      expect(changed.map((entry) => entry.removed)).toEqual(leads.map(() => undefined));
      expect(changed[0].companyName).toBe('Acme');
      expect(changed[1].crmStatus).toBe('client');
      expect(changed[2].crmStatus).toBe('potential');
      expect(changed[4].tags).toEqual([expect.objectContaining({ id: tag.id })]);
      expect(changed[5].assigneeIds).toEqual([a.member.userId]);
      expect(changed[7].totalCalls).toBe(1);
    });

    it('waits for a transaction that began before the reader passed its time: its change still comes, in order', async () => {
      const [l1, l2] = [await t.seed.lead(a.admin), await t.seed.lead(a.admin)];
      const slow = new Client({ connectionString: process.env.DATABASE_URL });
      await slow.connect();
      try {
        // a writer whose transaction begins now and commits late (the API's own cannot stay open
        // long: their waits are bounded, so the late writer is a session of the test's own)
        await slow.query('begin');
        await slow.query(`update leads set first_name = 'Slow' where id = $1`, [l1.id]);
        const l3 = await t.seed.lead(a.admin); // committed while the writer is still open

        const before = await drain(a.admin.key, LEADS, { updatedSince: EPOCH });
        // nothing at or after the earliest open transaction: l3 waits, as the writer may still land before it
        expect(ids(before.entries)).toEqual([l1.id, l2.id]);
        expect(before.entries[0].firstName).toBe(l1.firstName);

        await slow.query('commit');
        const times = await leadTimes(a.admin.organizationId);
        // the late writer's change is stamped before l3, which committed first: a plain keyset would skip it
        expect(times.get(l1.id)! < times.get(l3.id)!).toBe(true);

        const after = await drain(a.admin.key, LEADS, { cursor: before.cursor });
        expect(ids(after.entries)).toEqual([l1.id, l3.id]);
        expect(after.entries[0]).toMatchObject({ firstName: 'Slow', updatedAt: times.get(l1.id) });
      } finally {
        await slow.end();
      }
    });

    it('covers every lead exactly once while leads are created and updated during the sync', async () => {
      const key = a.admin.key;
      const colleague = await t.seed.withKey(await t.seed.member(a.admin, 'admin', 'Ada'));
      const seeded: number[] = [];
      for (let i = 0; i < 300; i += 10) {
        const batch = await Promise.all(Array.from({ length: 10 }, () => t.seed.lead(a.admin)));
        seeded.push(...batch.map((lead) => lead.id));
      }
      const changed = new Set<number>();
      const pick = (n: number) => seeded[(n * 7919) % seeded.length];
      const created: number[] = [];
      let edits = 0;
      const churn = async (round: number) => {
        const writes: Promise<unknown>[] = [];
        for (let i = 0; i < 2; i++)
          writes.push(
            postLead(t, colleague.key).then((lead) => (created.push(lead.id), changed.add(lead.id))),
          );
        for (let i = 0; i < 3; i++) {
          const id = pick(round * 3 + i);
          changed.add(id);
          writes.push(
            api(t, colleague.key)
              .patch(`${LEADS}/${id}`)
              .send({ lastName: `Edit${++edits}` })
              .expect(200),
          );
        }
        await Promise.all(writes);
      };

      // a slow writer: a transaction that begins, writes the lead, and commits only once the reader
      // has caught up with everything it may read; a keyset without the horizon would by then be
      // past its time (the row is stamped with its transaction's start), and the change would land
      // behind the cursor. (The API's own transactions cannot stay open that long: their waits are
      // bounded, so the slow writer is a session of the test's own.)
      const slow = new Client({ connectionString: process.env.DATABASE_URL });
      await slow.connect();
      let slowWriterOpen = false;
      const slowId = pick(999);
      const entries: Entry[] = [];
      let query: Record<string, unknown> = { updatedSince: EPOCH, limit: 17 };
      let reads = 0;
      try {
        for (let round = 1; ; round++) {
          if (round === 3) {
            await slow.query('begin');
            await slow.query(`update leads set first_name = 'SlowWriter' where id = $1`, [slowId]);
            changed.add(slowId);
            slowWriterOpen = true;
          }
          const [page] = await Promise.all([
            syncPage(key, LEADS, query),
            round <= 12 ? churn(round) : Promise.resolve(),
          ]);
          reads++;
          entries.push(...page.data);
          query = { cursor: page.nextCursor, limit: 17 };
          if (slowWriterOpen && !page.hasMore) {
            await slow.query('commit');
            slowWriterOpen = false;
          } else if (round > 12 && !slowWriterOpen && page.data.length === 0) {
            break; // the writers are done and a call brings nothing more
          }
        }
      } finally {
        await slow.end();
      }
      expect(reads).toBeGreaterThan(300 / 17);
      expectSyncOrder(entries);

      const times = await leadTimes(a.admin.organizationId);
      const items = await listItems(key);
      expect(items.size).toBe(300 + created.length);
      const appearances = new Map<number, Entry[]>();
      for (const entry of entries)
        appearances.set(entry.id as number, [...(appearances.get(entry.id as number) ?? []), entry]);
      // every lead that exists appears; its last appearance is its latest version
      expect([...appearances.keys()].sort((x, y) => x - y)).toEqual([...items.keys()].sort((x, y) => x - y));
      for (const [id, seen] of appearances) {
        const last = seen[seen.length - 1];
        expect({ ...withoutUpdatedAt(last), at: last.updatedAt }).toEqual({
          ...items.get(id),
          at: times.get(id),
        });
      }
      // a lead not changed during the sync appears exactly once
      const unchanged = seeded.filter((id) => !changed.has(id));
      expect(unchanged.length).toBeGreaterThan(200);
      for (const id of unchanged) expect(appearances.get(id)).toHaveLength(1);
      expect(appearances.get(slowId)?.at(-1)?.firstName).toBe('SlowWriter');

      // then the final cursor gives only what changes after it
      const final = query.cursor as string;
      expect(await syncPage(key, LEADS, { cursor: final })).toEqual({
        data: [],
        hasMore: false,
        nextCursor: final,
      });
      await api(t, key).patch(`${LEADS}/${seeded[10]}`).send({ email: 'late@example.test' }).expect(200);
      await api(t, key).put(`${LEADS}/${seeded[20]}/status`).send({ crmStatus: 'client' }).expect(200);
      const late = (await drain(key, LEADS, { cursor: final })).entries;
      expect(ids(late)).toEqual([seeded[10], seeded[20]]);
      expect(late[0].email).toBe('late@example.test');
    }, 120_000);

    it('gives a member the leads they reach, and a lead they are taken off once as {id, updatedAt, removed}', async () => {
      const mine = await t.seed.lead(a.admin, { assigneeIds: [a.member.userId] });
      const shared = await t.seed.lead(a.admin, { assigneeIds: [a.member.userId, a.colleague.userId] });
      const theirs = await t.seed.lead(a.admin, { assigneeIds: [a.colleague.userId] });
      await t.seed.lead(a.admin, { unassigned: true });
      const other = await t.seed.agency('Other Agency');
      await t.seed.lead(other.admin, { assigneeIds: [other.member.userId] });

      const first = await drain(a.member.key, LEADS, { updatedSince: EPOCH });
      expect(ids(first.entries)).toEqual([mine.id, shared.id]);

      await api(t, a.admin.key)
        .put(`${LEADS}/${shared.id}/assignees`)
        .send({ userIds: [a.colleague.userId] })
        .expect(200);
      const left = (await leadTimes(a.admin.organizationId)).get(shared.id);
      const removal = await drain(a.member.key, LEADS, { cursor: first.cursor });
      expect(removal.entries).toEqual([{ id: shared.id, updatedAt: left, removed: true }]);
      expect(Object.keys(removal.entries[0]).sort()).toEqual(REMOVED_ENTRY_FIELDS);

      // a later change to a lead they no longer reach brings nothing; the colleague sees it as a lead
      await api(t, a.admin.key).put(`${LEADS}/${shared.id}/status`).send({ crmStatus: 'client' }).expect(200);
      await api(t, a.admin.key).put(`${LEADS}/${theirs.id}/status`).send({ crmStatus: 'client' }).expect(200);
      expect((await drain(a.member.key, LEADS, { cursor: removal.cursor })).entries).toEqual([]);
      const colleagueView = (await drain(a.colleague.key, LEADS, { updatedSince: EPOCH })).entries;
      expect(ids(colleagueView)).toEqual([shared.id, theirs.id]);
      expect(colleagueView.every((entry) => entry.removed === undefined)).toBe(true);
      // admins reach every lead: never a removed entry
      const adminView = (await drain(a.admin.key, LEADS, { updatedSince: EPOCH })).entries;
      expect(adminView).toHaveLength(4);
      expect(adminView.every((entry) => entry.removed === undefined)).toBe(true);

      // a fresh sync from before it left shows the removal once too
      const fresh = (await drain(a.member.key, LEADS, { updatedSince: EPOCH })).entries;
      expect(fresh).toEqual([
        expect.objectContaining({ id: mine.id, updatedAt: expect.any(String) }),
        { id: shared.id, updatedAt: left, removed: true },
      ]);
      expect(fresh[0]).not.toHaveProperty('removed');

      // put back on it: it comes again as a lead, later in the order, and the removal is gone
      await api(t, a.admin.key)
        .post(`${LEADS}/${shared.id}/assignees`)
        .send({ userIds: [a.member.userId] })
        .expect(200);
      const back = (await drain(a.member.key, LEADS, { cursor: removal.cursor })).entries;
      expect(ids(back)).toEqual([shared.id]);
      expect(back[0]).toMatchObject({ assigneeIds: [a.colleague.userId, a.member.userId] });
      expect(Object.keys(back[0]).sort()).toEqual(LEAD_SYNC_ITEM_FIELDS);
      expect(ids((await drain(a.member.key, LEADS, { updatedSince: EPOCH })).entries)).toEqual([
        mine.id,
        shared.id,
      ]);
    });
  });

  describe('tasks', () => {
    it('syncs the person’s own tasks (admins too), with deleted ones and ones they are taken off as removed', async () => {
      const lead = await t.seed.lead(a.admin, { assigneeIds: [a.member.userId] });
      const own = await t.seed.task(a.member, { leadId: lead.id, title: 'Own' });
      const given = await t.seed.task(a.admin, {
        leadId: lead.id,
        title: 'Given',
        assigneeIds: [a.member.userId],
      });
      const colleagues = await t.seed.task(a.admin, {
        leadId: lead.id,
        title: 'Cole',
        assigneeIds: [a.colleague.userId],
      });
      const admins = await t.seed.task(a.admin, { leadId: lead.id, title: 'Admin' });
      const other = await t.seed.agency('Other Agency');
      const otherLead = await t.seed.lead(other.admin);
      await t.seed.task(other.admin, { leadId: otherLead.id });

      const member = await drain(a.member.key, TASKS, { updatedSince: EPOCH }, 1);
      expect(ids(member.entries)).toEqual([own.id, given.id]);
      const admin = await drain(a.admin.key, TASKS, { updatedSince: EPOCH }, 2);
      expect(ids(admin.entries)).toEqual([given.id, colleagues.id, admins.id]);
      // the same task as the ordinary list answers it; updatedAt is when the database recorded it
      const listed = await api(t, a.member.key).get(TASKS).expect(200);
      const times = await changedAt('tasks', a.admin.organizationId);
      for (const entry of member.entries) {
        expect(Object.keys(entry).sort()).toEqual(TASK_FIELDS);
        expect(withoutUpdatedAt(entry)).toEqual(
          withoutUpdatedAt(listed.body.data.find((task: Entry) => task.id === entry.id)),
        );
        expect(entry.updatedAt).toBe(times.get(entry.id));
      }

      // taken off a task they did not create: removed for them, a change for the admin who did
      await api(t, a.admin.key)
        .patch(`${TASKS}/${given.id}`)
        .send({ assigneeIds: [a.colleague.userId] })
        .expect(200);
      const left = (await changedAt('tasks', a.admin.organizationId)).get(given.id);
      const removed = await drain(a.member.key, TASKS, { cursor: member.cursor });
      expect(removed.entries).toEqual([{ id: given.id, updatedAt: left, removed: true }]);
      const adminChanges = await drain(a.admin.key, TASKS, { cursor: admin.cursor });
      expect(adminChanges.entries).toEqual([
        expect.objectContaining({ id: given.id, assigneeIds: [a.colleague.userId] }),
      ]);

      // deleted: removed once for each person who saw it
      await api(t, a.member.key).delete(`${TASKS}/${own.id}`).expect(204);
      await api(t, a.admin.key).delete(`${TASKS}/${colleagues.id}`).expect(204);
      const memberAfter = await drain(a.member.key, TASKS, { cursor: removed.cursor });
      expect(memberAfter.entries).toEqual([{ id: own.id, updatedAt: expect.any(String), removed: true }]);
      const adminAfter = (await drain(a.admin.key, TASKS, { cursor: adminChanges.cursor })).entries;
      expect(adminAfter).toEqual([{ id: colleagues.id, updatedAt: expect.any(String), removed: true }]);
      const colleagueView = (await drain(a.colleague.key, TASKS, { updatedSince: EPOCH })).entries;
      expect(colleagueView).toEqual([
        expect.objectContaining({ id: given.id, title: 'Given' }),
        { id: colleagues.id, updatedAt: expect.any(String), removed: true },
      ]);
      expectSyncOrder(colleagueView);
      expect(Object.keys(colleagueView[1]).sort()).toEqual(REMOVED_ENTRY_FIELDS);

      // put back on it: a task again, and nothing more for the member after that
      await api(t, a.admin.key)
        .patch(`${TASKS}/${given.id}`)
        .send({ assigneeIds: [a.member.userId] })
        .expect(200);
      const back = await drain(a.member.key, TASKS, { cursor: memberAfter.cursor });
      expect(back.entries).toEqual([
        expect.objectContaining({ id: given.id, assigneeIds: [a.member.userId] }),
      ]);
      expect(ids((await drain(a.member.key, TASKS, { updatedSince: EPOCH })).entries)).toEqual([
        own.id,
        given.id,
      ]);
    });
  });

  describe('notes', () => {
    it('syncs a lead’s notes with deleted ones as removed; 404 on a lead out of reach', async () => {
      const lead = await t.seed.lead(a.admin, { assigneeIds: [a.member.userId] });
      const elsewhere = await t.seed.lead(a.admin, { assigneeIds: [a.colleague.userId] });
      const notes: NoteJson[] = [];
      for (const content of ['one', 'two', 'three'])
        notes.push(await t.seed.note(a.member, lead.id, content));
      await t.seed.note(a.colleague, elsewhere.id, 'not here');

      const first = await drain(a.member.key, notesOf(lead.id), { updatedSince: EPOCH }, 2);
      expect(ids(first.entries)).toEqual(notes.map((note) => note.id));
      const listed = await api(t, a.member.key).get(notesOf(lead.id)).expect(200);
      const times = await changedAt('notes', a.admin.organizationId);
      for (const entry of first.entries) {
        expect(Object.keys(entry).sort()).toEqual(NOTE_FIELDS);
        expect(withoutUpdatedAt(entry)).toEqual(
          withoutUpdatedAt(listed.body.data.find((note: Entry) => note.id === entry.id)),
        );
        expect(entry.updatedAt).toBe(times.get(entry.id));
      }

      await api(t, a.admin.key)
        .patch(`/v1/notes/${notes[0].id}`)
        .send({ content: 'one, edited' })
        .expect(200);
      await api(t, a.member.key).delete(`/v1/notes/${notes[1].id}`).expect(204);
      const changes = await drain(a.member.key, notesOf(lead.id), { cursor: first.cursor });
      expect(changes.entries).toEqual([
        expect.objectContaining({ id: notes[0].id, content: 'one, edited' }),
        { id: notes[1].id, updatedAt: expect.any(String), removed: true },
      ]);
      expectSyncOrder(changes.entries);
      expect((await drain(a.member.key, notesOf(lead.id), { cursor: changes.cursor })).entries).toEqual([]);
      const fresh = (await drain(a.admin.key, notesOf(lead.id), { updatedSince: EPOCH })).entries;
      expect(ids(fresh)).toEqual([notes[2].id, notes[0].id, notes[1].id]);

      expectNotFound(
        await api(t, a.member.key).get(notesOf(elsewhere.id)).query({ updatedSince: EPOCH }),
        'Lead',
      );
      const foreign = await t.seed.agency('Other Agency');
      expectNotFound(
        await api(t, foreign.admin.key).get(notesOf(lead.id)).query({ cursor: first.cursor }),
        'Lead',
      );
      expectNotFound(await api(t, a.admin.key).get(notesOf(999_999)).query({ updatedSince: EPOCH }), 'Lead');
    });
  });
});
