import { Client } from 'pg';
import type { Response } from 'supertest';
import {
  Agency,
  api,
  count,
  CRM_SCOPES,
  expectError,
  expectValidation,
  HOUR,
  leadBody,
  MINUTE,
  sql,
  TestApp,
} from '../fixtures';

const REPLAYED = 'idempotent-replayed';

describe('Idempotency-Key on creating POSTs', () => {
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

  const leads = () => count(t, 'select count(*) as n from leads');
  const records = (key: string) =>
    count(t, 'select count(*) as n from idempotency_records where key = ?', [key]);

  /** `POST path` with exactly `raw` as the JSON body bytes. */
  const postRaw = (secret: string, path: string, idempotencyKey: string | undefined, raw: string) => {
    const req = api(t, secret).post(path).set('Content-Type', 'application/json');
    if (idempotencyKey !== undefined) req.set('Idempotency-Key', idempotencyKey);
    return req.send(raw);
  };
  const postLead = (secret: string, idempotencyKey: string | undefined, body: object) =>
    postRaw(secret, '/v1/leads', idempotencyKey, JSON.stringify(body));

  const expectFresh = (res: Response, status = 201) => {
    expect(res.status).toBe(status);
    expect(res.headers[REPLAYED]).toBeUndefined();
  };
  const expectReplay = (res: Response, first: Response) => {
    expect(res.status).toBe(first.status);
    expect(res.headers[REPLAYED]).toBe('true');
    expect(res.body).toEqual(first.body);
  };

  describe('rule 1: the same request again replays the stored answer', () => {
    it('replays POST /v1/leads with Idempotent-Replayed: true, the same status and body, and creates once', async () => {
      const body = leadBody({ firstName: 'Once' });
      const first = await postLead(a.admin.key, 'create-lead-1', body);
      expectFresh(first);
      const again = await postLead(a.admin.key, 'create-lead-1', body);
      expectReplay(again, first);
      expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
      expect(await leads()).toBe(1);
      expect(await count(t, 'select count(*) as n from lead_history')).toBe(2);

      // the stored answer, not a fresh read
      await api(t, a.admin.key)
        .patch(`/v1/leads/${first.body.lead.id}`)
        .send({ firstName: 'Changed' })
        .expect(200);
      const later = await postLead(a.admin.key, 'create-lead-1', body);
      expectReplay(later, first);
      expect(later.body.lead.firstName).toBe('Once');
    });

    it('replays POST /v1/leads/{leadId}/notes and POST /v1/tasks too', async () => {
      const lead = await t.seed.lead(a.member);
      const noteBody = JSON.stringify({ content: 'Only once' });
      const note = await postRaw(a.member.key, `/v1/leads/${lead.id}/notes`, 'note-1', noteBody);
      expectFresh(note);
      expectReplay(await postRaw(a.member.key, `/v1/leads/${lead.id}/notes`, 'note-1', noteBody), note);
      expect(await count(t, 'select count(*) as n from notes')).toBe(1);

      const taskBody = JSON.stringify({ leadId: lead.id, title: 'Only once', dueDate: '2031-01-01' });
      const task = await postRaw(a.member.key, '/v1/tasks', 'task-1', taskBody);
      expectFresh(task);
      expectReplay(await postRaw(a.member.key, '/v1/tasks', 'task-1', taskBody), task);
      expect(await count(t, 'select count(*) as n from tasks')).toBe(1);
    });

    it('does not compare the query string', async () => {
      const body = leadBody();
      const first = await postLead(a.admin.key, 'qs', body);
      expectFresh(first);
      const withQuery = await api(t, a.admin.key)
        .post('/v1/leads?source=retry&x=1')
        .set('Idempotency-Key', 'qs')
        .set('Content-Type', 'application/json')
        .send(JSON.stringify(body));
      expectReplay(withQuery, first);
      expect(await leads()).toBe(1);
    });
  });

  describe('rule 2: the same key for a different request is 409 IDEMPOTENCY_KEY_REUSED', () => {
    it('compares the body bytes exactly: other values, key order and white space all count', async () => {
      const first = await postRaw(
        a.admin.key,
        '/v1/leads',
        'reuse',
        '{"firstName":"A","lastName":"B","email":"a@b.test","phoneNumber":"1","crmStatus":"lead"}',
      );
      expectFresh(first);
      for (const raw of [
        '{"firstName":"Z","lastName":"B","email":"a@b.test","phoneNumber":"1","crmStatus":"lead"}',
        '{"lastName":"B","firstName":"A","email":"a@b.test","phoneNumber":"1","crmStatus":"lead"}',
        '{"firstName": "A","lastName":"B","email":"a@b.test","phoneNumber":"1","crmStatus":"lead"}',
        '{"firstName":"A","lastName":"B","email":"a@b.test","phoneNumber":"1","crmStatus":"lead"}\n',
      ]) {
        const res = await postRaw(a.admin.key, '/v1/leads', 'reuse', raw);
        expectError(res, 409, 'IDEMPOTENCY_KEY_REUSED');
        expect(res.headers[REPLAYED]).toBeUndefined();
      }
      expect(await leads()).toBe(1);
      // the stored answer is still there for the real retry
      expectReplay(
        await postRaw(
          a.admin.key,
          '/v1/leads',
          'reuse',
          '{"firstName":"A","lastName":"B","email":"a@b.test","phoneNumber":"1","crmStatus":"lead"}',
        ),
        first,
      );
    });

    it('compares the path', async () => {
      const lead = await t.seed.lead(a.admin);
      const raw = JSON.stringify({ content: 'hello' });
      expectFresh(await postRaw(a.admin.key, `/v1/leads/${lead.id}/notes`, 'path-key', raw));
      const otherLead = await t.seed.lead(a.admin);
      expectError(
        await postRaw(a.admin.key, `/v1/leads/${otherLead.id}/notes`, 'path-key', raw),
        409,
        'IDEMPOTENCY_KEY_REUSED',
      );
      expectError(await postLead(a.admin.key, 'path-key', leadBody()), 409, 'IDEMPOTENCY_KEY_REUSED');
      expect(await count(t, 'select count(*) as n from notes')).toBe(1);
      expect(await leads()).toBe(2);
    });
  });

  describe('rule 3: while the first request runs, 409 IDEMPOTENCY_KEY_IN_PROGRESS', () => {
    /** The first attempt's transaction, as the interceptor holds it: its record locked until it ends. */
    const runningAttempt = async (key: string) => {
      const session = new Client({ connectionString: process.env.DATABASE_URL });
      await session.connect();
      await session.query('begin');
      await session.query(`select 1 from idempotency_records where key = $1 for update`, [key]);
      return { end: async () => (await session.query('rollback'), await session.end()) };
    };
    const markInProgress = (key: string) =>
      sql(
        t,
        `update idempotency_records set state = 'in_progress', status_code = null, response_body = null, started_at = ?
          where key = ?`,
        [t.clock.now(), key],
      );

    it('answers IN_PROGRESS while the first attempt runs, however long; once it ended without an answer, the same request takes over', async () => {
      const body = leadBody();
      const first = await postLead(a.admin.key, 'running', body);
      expectFresh(first);
      // as if the first request were still running (its answer not yet stored)
      await markInProgress('running');
      const attempt = await runningAttempt('running');
      try {
        expectError(await postLead(a.admin.key, 'running', body), 409, 'IDEMPOTENCY_KEY_IN_PROGRESS');
        expectError(await postLead(a.admin.key, 'running', leadBody()), 409, 'IDEMPOTENCY_KEY_REUSED');
        t.clock.advance(4 * MINUTE);
        expectError(await postLead(a.admin.key, 'running', body), 409, 'IDEMPOTENCY_KEY_IN_PROGRESS');
        expect(await leads()).toBe(1);
      } finally {
        await attempt.end(); // it ended without committing an answer
      }
      const takeover = await postLead(a.admin.key, 'running', body);
      expectFresh(takeover);
      expect(takeover.body.lead.id).not.toBe(first.body.lead.id);
      expect(await leads()).toBe(2);
      expectReplay(await postLead(a.admin.key, 'running', body), takeover);
    });

    it('gives a new attempt 3 seconds to lock its record before a retry may take an unlocked one over', async () => {
      const body = leadBody();
      expectFresh(await postLead(a.admin.key, 'starting', body));
      await markInProgress('starting'); // claimed, not yet locked: its transaction is about to begin
      expectError(await postLead(a.admin.key, 'starting', body), 409, 'IDEMPOTENCY_KEY_IN_PROGRESS');
      t.clock.advance(2_900);
      expectError(await postLead(a.admin.key, 'starting', body), 409, 'IDEMPOTENCY_KEY_IN_PROGRESS');
      t.clock.advance(200);
      expectFresh(await postLead(a.admin.key, 'starting', body));
      expect(await leads()).toBe(2);
    });

    it('lets 20 parallel identical requests create exactly one lead', async () => {
      const raw = JSON.stringify(leadBody({ firstName: 'Parallel' }));
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => postRaw(a.admin.key, '/v1/leads', 'parallel-20', raw)),
      );
      expect(await count(t, `select count(*) as n from leads where first_name = 'Parallel'`)).toBe(1);
      const fresh = answers.filter((r) => r.status === 201 && r.headers[REPLAYED] === undefined);
      const replayed = answers.filter((r) => r.status === 201 && r.headers[REPLAYED] === 'true');
      const inProgress = answers.filter((r) => r.status === 409);
      expect(fresh).toHaveLength(1);
      expect(fresh.length + replayed.length + inProgress.length).toBe(20);
      for (const r of replayed) expect(r.body).toEqual(fresh[0].body);
      for (const r of inProgress) expectError(r, 409, 'IDEMPOTENCY_KEY_IN_PROGRESS');
      // after the dust settles, a retry replays
      expectReplay(await postRaw(a.admin.key, '/v1/leads', 'parallel-20', raw), fresh[0]);
    });
  });

  describe('rule 4: 4xx answers are not stored and free the key', () => {
    it('after a 400 the same key carries the corrected request', async () => {
      const broken = await postLead(a.admin.key, 'fix-me', { firstName: 'Only' });
      expectValidation(broken, 'lastName');
      expect(await records('fix-me')).toBe(0);
      const fixed = await postLead(a.admin.key, 'fix-me', leadBody({ firstName: 'Only' }));
      expectFresh(fixed);
      expect(await leads()).toBe(1);
    });

    it('after a 403 or 404 the key is free again', async () => {
      const forbidden = await postLead(
        a.member.key,
        'member-key',
        leadBody({ assigneeIds: [a.colleague.userId] }),
      );
      expectError(forbidden, 403, 'FORBIDDEN');
      expect(await records('member-key')).toBe(0);
      expectFresh(await postLead(a.member.key, 'member-key', leadBody()));

      const raw = JSON.stringify({ content: 'x' });
      const notFound = await postRaw(a.member.key, '/v1/leads/987654321/notes', 'note-key', raw);
      expectError(notFound, 404, 'NOT_FOUND');
      const lead = await t.seed.lead(a.member);
      expectFresh(await postRaw(a.member.key, `/v1/leads/${lead.id}/notes`, 'note-key', raw));

      const badTask = await postRaw(
        a.member.key,
        '/v1/tasks',
        'task-key',
        JSON.stringify({ leadId: lead.id, title: 'x', dueDate: 'soon' }),
      );
      expectValidation(badTask, 'dueDate');
      expectFresh(
        await postRaw(a.member.key, '/v1/tasks', 'task-key', JSON.stringify({ leadId: lead.id, title: 'x' })),
      );
      expect(await count(t, 'select count(*) as n from tasks')).toBe(1);
    });
  });

  describe('rule 5: kept 24 hours, per API key', () => {
    it('forgets the key after 24 hours', async () => {
      const body = leadBody();
      expectFresh(await postLead(a.admin.key, 'day-old', body));
      t.clock.advance(23 * HOUR);
      expectError(await postLead(a.admin.key, 'day-old', leadBody()), 409, 'IDEMPOTENCY_KEY_REUSED');
      t.clock.advance(2 * HOUR);
      expectFresh(await postLead(a.admin.key, 'day-old', leadBody()));
      expect(await leads()).toBe(2);
      t.clock.advance(25 * HOUR);
      expectFresh(await postLead(a.admin.key, 'day-old', body));
      expect(await leads()).toBe(3);
    });

    it('scopes keys to the API key that sent them', async () => {
      const secondKey = (await t.seed.apiKey(a.admin, CRM_SCOPES)).key;
      const body = leadBody();
      const one = await postLead(a.admin.key, 'shared-key', body);
      const two = await postLead(secondKey, 'shared-key', body);
      const three = await postLead(a.member.key, 'shared-key', leadBody());
      expectFresh(one);
      expectFresh(two);
      expectFresh(three);
      expect(two.body.lead.id).not.toBe(one.body.lead.id);
      expect(await leads()).toBe(3);
      expectReplay(await postLead(secondKey, 'shared-key', body), two);
    });
  });

  describe('rule 7 and the header itself', () => {
    it('creates again on a retry without the header', async () => {
      const body = leadBody();
      expectFresh(await postLead(a.admin.key, undefined, body));
      expectFresh(await postLead(a.admin.key, undefined, body));
      expect(await leads()).toBe(2);
      expect(await count(t, 'select count(*) as n from idempotency_records')).toBe(0);
    });

    it('takes 1-255 visible ASCII characters; anything else is 400 VALIDATION_FAILED', async () => {
      for (const bad of ['k'.repeat(256), 'with space', 'tab\there', 'clé', '']) {
        const res = await postLead(a.admin.key, bad, leadBody());
        expectValidation(res, 'Idempotency-Key');
      }
      expect(await leads()).toBe(0);
      expect(await count(t, 'select count(*) as n from idempotency_records')).toBe(0);
      expectFresh(await postLead(a.admin.key, 'k'.repeat(255), leadBody()));
      expectFresh(await postLead(a.admin.key, '!~{}"\'/\\', leadBody()));
      expect(await leads()).toBe(2);
    });

    it('is ignored on routes that do not accept it', async () => {
      const lead = await t.seed.lead(a.admin);
      for (const name of ['One', 'Two']) {
        await api(t, a.admin.key)
          .patch(`/v1/leads/${lead.id}`)
          .set('Idempotency-Key', 'patch-key')
          .send({ firstName: name })
          .expect(200);
      }
      expect(await count(t, 'select count(*) as n from idempotency_records')).toBe(0);
      const [row] = await sql<{ first_name: string }>(t, 'select first_name from leads where id = ?', [
        lead.id,
      ]);
      expect(row.first_name).toBe('Two');
    });
  });
});
