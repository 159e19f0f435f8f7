import { randomUUID } from 'node:crypto';
import { RequestContext } from '@mikro-orm/core';
import { ApiKeyAuthenticator } from '@app/platform';
import { OrganizationsService } from '@app/identity';
import { childEnv, ownStderr, run } from '../child-process';
import { Agency, api, asKey, count, expectNotFound, sql, TestApp } from '../fixtures';
import { recentIndexBound } from '../../libs/search/src/domain/recent-indexes';

interface Chunk {
  lead_id: string;
  position: number;
  occurred_at: string;
  language: string;
  text: string;
  untrusted: boolean;
}

/** The real `npm run ops` script, as an operator types it, against the run's database. */
const ops = (args: string[]) =>
  run(
    'npm',
    ['run', 'ops', '--silent', '--', ...args],
    childEnv({ DATABASE_URL: process.env.DATABASE_URL, REDIS_URL: undefined }),
    60_000,
  );

/**
 * Issue 18 items 1-2 and 5: every searchable write leaves its passages in `search_chunk` in the
 * same transaction (notes and tasks on /v1, connector records on /integrations/v1), edits replace
 * them, deletes remove them; `search:reindex` rebuilds them; `search-rate` sets the agency's figure.
 */
describe('search index: incremental writes, reindex, search rate', () => {
  let t: TestApp;
  let a: Agency;
  let other: Agency;
  let connector: { id: string; key: string };
  let n = 0;
  const ext = (label: string) => `${label}-${++n}`;

  beforeAll(async () => {
    t = await TestApp.start();
    a = await t.seed.agency('Casa Search');
    other = await t.seed.agency('Other Search');
    connector = await t.seed.integrationKey(a.admin, 'aircall');
  });
  afterAll(() => t.stop());

  /** The passages of one record, in order, with dates as ISO strings. */
  const chunksOf = async (kind: string, sourceId: string, organizationId = a.admin.organizationId) => {
    const rows = await sql<Chunk>(
      t,
      `select lead_id, position, occurred_at, language, text, untrusted from search_chunk
        where organization_id = ? and source_kind = ? and source_id = ? order by position`,
      [organizationId, kind, sourceId],
    );
    return rows.map((r) => ({
      ...r,
      lead_id: Number(r.lead_id),
      occurred_at: new Date(r.occurred_at).toISOString(),
    }));
  };
  const put = (path: string, body: Record<string, unknown>) =>
    asKey(t.http.put(`/integrations/v1/${path}`), connector.key).send(body);
  const upsert = async (path: string, body: Record<string, unknown>) => {
    const res = await put(path, body);
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { id: string; leadId: number; created: boolean };
  };
  const call = (leadId: number, startedAt = '2026-11-20T10:00:00.000Z') => ({
    leadId,
    direction: 'outbound',
    status: 'completed',
    durationSeconds: 65,
    hasRecording: true,
    startedAt,
  });
  const message = (leadId: number, overrides: Record<string, unknown> = {}) => ({
    leadId,
    channel: 'whatsapp',
    kind: 'text',
    direction: 'inbound',
    status: 'received',
    at: '2026-11-19T08:30:00.000Z',
    body: 'Busco un piso con jardín',
    ...overrides,
  });
  const email = (leadId: number, overrides: Record<string, unknown> = {}) => ({
    leadId,
    source: 'captured',
    captureDirection: 'inbound',
    subject: 'About the flat',
    status: 'received',
    fromAddress: 'buyer@example.test',
    recipientEmail: 'agent@casa.test',
    bodyText: 'Is the terrace still available?',
    messageAt: '2026-11-18T07:00:00.000Z',
    ...overrides,
  });
  const analysis = {
    summary: 'Wants a second viewing.',
    sentiment: { overall: 'positive', score: 0.6 },
    objections: [{ topic: 'price', quote: 'A bit expensive', handled: true }],
    nextSteps: [{ text: 'Send the floor plan', owner: 'agent' }],
    coachingTips: [{ tip: 'Ask about financing earlier', category: 'discovery' }],
    signals: [],
    analyzedAt: '2026-11-20T10:05:00Z',
  };

  describe('notes', () => {
    it('a created note is indexed at once: its text, date, language (the lead’s), trusted', async () => {
      const lead = await t.seed.lead(a.admin, { language: 'es-ES' });
      const res = await api(t, a.admin.key)
        .post(`/v1/leads/${lead.id}/notes`)
        .send({ content: 'Quiere una vivienda con piscina' })
        .expect(201);
      expect(await chunksOf('note', res.body.id)).toEqual([
        {
          lead_id: lead.id,
          position: 0,
          occurred_at: new Date(res.body.createdAt).toISOString(),
          language: 'es-es',
          text: 'Quiere una vivienda con piscina',
          untrusted: false,
        },
      ]);
    });

    it('an edit replaces the passages and a delete removes them', async () => {
      const lead = await t.seed.lead(a.admin);
      const note = await t.seed.note(a.admin, lead.id, 'Wants a sea view');
      await api(t, a.admin.key)
        .patch(`/v1/notes/${note.id}`)
        .send({ content: 'Wants a garden now' })
        .expect(200);
      expect((await chunksOf('note', note.id)).map((c) => c.text)).toEqual(['Wants a garden now']);
      await api(t, a.admin.key).delete(`/v1/notes/${note.id}`).expect(204);
      expect(await chunksOf('note', note.id)).toEqual([]);
    });

    it('a note over 2,000 characters is split into several passages; an edit to a short one leaves one', async () => {
      const lead = await t.seed.lead(a.admin);
      const sentence = 'The buyer asked again about the terrace, the parking and the community fees. ';
      const content = sentence.repeat(60).trim(); // about 4,700 characters
      const res = await api(t, a.admin.key).post(`/v1/leads/${lead.id}/notes`).send({ content }).expect(201);
      const chunks = await chunksOf('note', res.body.id);
      expect(chunks.length).toBeGreaterThanOrEqual(3);
      expect(chunks.map((c) => c.position)).toEqual(chunks.map((_, i) => i));
      for (const chunk of chunks) expect(chunk.text.length).toBeLessThanOrEqual(2000);
      await api(t, a.admin.key).patch(`/v1/notes/${res.body.id}`).send({ content: 'Short now.' }).expect(200);
      expect((await chunksOf('note', res.body.id)).map((c) => c.text)).toEqual(['Short now.']);
    });

    it('a passage of 2,000 characters is stored whole in its row: nothing goes to the TOAST table', async () => {
      const lead = await t.seed.lead(a.admin);
      const content = Array.from(
        { length: 40 },
        (_, i) => `Visit ${i}: they liked room ${i * 7} and garden ${i * 13}.`,
      ).join(' ');
      const [{ toast }] = await sql<{ toast: string }>(
        t,
        `select reltoastrelid::regclass::text as toast from pg_class where oid = 'search_chunk'::regclass`,
      );
      const toasted = async () =>
        (await sql<{ n: number }>(t, `select count(*)::int as n from ${toast}`))[0].n;
      const before = await toasted();
      const res = await api(t, a.admin.key).post(`/v1/leads/${lead.id}/notes`).send({ content }).expect(201);
      const [row] = await sql<{ bytes: number }>(
        t,
        `select pg_column_size(text) + pg_column_size(tsv) as bytes from search_chunk
          where source_kind = 'note' and source_id = ?`,
        [res.body.id],
      );
      // past the 2 KB at which a row is toasted by default: its tsvector would have gone out of line
      expect(row.bytes).toBeGreaterThan(2100);
      expect(await toasted()).toBe(before);
    });

    it("a failed write leaves nothing: a note on another agency's lead is 404 and indexes nothing", async () => {
      const theirs = await t.seed.lead(other.admin);
      const canary = `canary-${randomUUID()}`;
      expectNotFound(
        await api(t, a.admin.key).post(`/v1/leads/${theirs.id}/notes`).send({ content: canary }),
        'Lead',
      );
      expect(
        await count(t, 'select count(*) as n from search_chunk where text like ?', [`%${canary}%`]),
      ).toBe(0);
    });
  });

  describe('tasks', () => {
    it('title and description are indexed on create, replaced on a text change, kept on a status change, removed on delete', async () => {
      const lead = await t.seed.lead(a.admin, { language: 'en-GB' });
      const created = await api(t, a.admin.key)
        .post('/v1/tasks')
        .send({ leadId: lead.id, title: 'Call back', description: 'About the garden flat' })
        .expect(201);
      const id = created.body.id as string;
      expect(await chunksOf('task', id)).toEqual([
        {
          lead_id: lead.id,
          position: 0,
          occurred_at: new Date(created.body.createdAt).toISOString(),
          language: 'en-gb',
          text: 'Call back\nAbout the garden flat',
          untrusted: false,
        },
      ]);
      await api(t, a.admin.key).patch(`/v1/tasks/${id}`).send({ description: null }).expect(200);
      expect((await chunksOf('task', id)).map((c) => c.text)).toEqual(['Call back']);
      await api(t, a.admin.key).patch(`/v1/tasks/${id}`).send({ title: 'Send the brochure' }).expect(200);
      expect((await chunksOf('task', id)).map((c) => c.text)).toEqual(['Send the brochure']);
      await api(t, a.admin.key).patch(`/v1/tasks/${id}`).send({ status: 'completed' }).expect(200);
      expect((await chunksOf('task', id)).map((c) => c.text)).toEqual(['Send the brochure']);
      await api(t, a.admin.key).delete(`/v1/tasks/${id}`).expect(204);
      expect(await chunksOf('task', id)).toEqual([]);
    });
  });

  describe('connector records', () => {
    it('messages: inbound untrusted, outbound not, dated `at`; a later write replaces; an empty body leaves none', async () => {
      const lead = await t.seed.lead(a.admin, { language: 'es' });
      const inbound = await upsert(`messages/${ext('m')}`, message(lead.id));
      expect(await chunksOf('message', inbound.id)).toEqual([
        {
          lead_id: lead.id,
          position: 0,
          occurred_at: '2026-11-19T08:30:00.000Z',
          language: 'es',
          text: 'Busco un piso con jardín',
          untrusted: true,
        },
      ]);
      const outId = ext('m');
      const outbound = await upsert(
        `messages/${outId}`,
        message(lead.id, { direction: 'outbound', status: 'sent', body: 'Le envío el plano' }),
      );
      expect(await chunksOf('message', outbound.id)).toMatchObject([
        { untrusted: false, text: 'Le envío el plano' },
      ]);
      await upsert(
        `messages/${outId}`,
        message(lead.id, { direction: 'outbound', status: 'read', body: 'Le envío el plano y fotos' }),
      );
      expect((await chunksOf('message', outbound.id)).map((c) => c.text)).toEqual([
        'Le envío el plano y fotos',
      ]);
      // the same message turned into a photo: no text, no passage
      await upsert(
        `messages/${outId}`,
        message(lead.id, { direction: 'outbound', status: 'read', kind: 'image', body: '' }),
      );
      expect(await chunksOf('message', outbound.id)).toEqual([]);
    });

    it('emails: subject and body; inbound captured untrusted, manual not; dated messageAt', async () => {
      const lead = await t.seed.lead(a.admin);
      const inbound = await upsert(`emails/${ext('e')}`, email(lead.id));
      expect(await chunksOf('email', inbound.id)).toEqual([
        {
          lead_id: lead.id,
          position: 0,
          occurred_at: '2026-11-18T07:00:00.000Z',
          language: 'simple',
          text: 'About the flat\n\nIs the terrace still available?',
          untrusted: true,
        },
      ]);
      const manual = await upsert(
        `emails/${ext('e')}`,
        email(lead.id, { source: 'manual', captureDirection: undefined, status: 'sent', subject: 'Viewing' }),
      );
      expect(await chunksOf('email', manual.id)).toMatchObject([
        { untrusted: false, text: expect.stringMatching(/^Viewing\n\n/) },
      ]);
    });

    it('a call has no text; its transcript arriving later is indexed in its detected language, dated the call', async () => {
      const lead = await t.seed.lead(a.admin, { language: 'es' });
      const id = ext('c');
      expectNotFound(
        await put(`calls/${id}/transcript`, { transcript: 'Troppo presto', detectedLanguage: 'it' }),
        'Call',
      );
      const created = await upsert(`calls/${id}`, call(lead.id, '2026-11-17T16:00:00.000Z'));
      expect(await count(t, 'select count(*) as n from search_chunk where source_id = ?', [created.id])).toBe(
        0,
      );
      await upsert(`calls/${id}/transcript`, {
        transcript: 'Cerco un appartamento con giardino',
        detectedLanguage: 'it-IT',
      });
      expect(await chunksOf('transcript', created.id)).toEqual([
        {
          lead_id: lead.id,
          position: 0,
          occurred_at: '2026-11-17T16:00:00.000Z',
          language: 'it-it',
          text: 'Cerco un appartamento con giardino',
          untrusted: true,
        },
      ]);
      await upsert(`calls/${id}/transcript`, { transcript: 'Quiero un ático', detectedLanguage: 'es' });
      expect(await chunksOf('transcript', created.id)).toMatchObject([
        { text: 'Quiero un ático', language: 'es' },
      ]);
    });

    it('an analysis is one text, one item per line, trusted, in the lead’s language, dated the call (as it moves)', async () => {
      const lead = await t.seed.lead(a.admin, { language: 'fr' });
      const id = ext('c');
      const created = await upsert(`calls/${id}`, call(lead.id));
      await upsert(`calls/${id}/analysis`, analysis);
      expect(await chunksOf('analysis', created.id)).toEqual([
        {
          lead_id: lead.id,
          position: 0,
          occurred_at: '2026-11-20T10:00:00.000Z',
          language: 'fr',
          text: 'Wants a second viewing.\nprice: A bit expensive\nSend the floor plan\nAsk about financing earlier',
          untrusted: false,
        },
      ]);
      // the connector corrects the call's start: the passages of its texts move with it
      await upsert(`calls/${id}/transcript`, { transcript: 'Bonjour', detectedLanguage: 'fr' });
      await upsert(`calls/${id}`, call(lead.id, '2026-11-19T09:00:00.000Z'));
      for (const kind of ['analysis', 'transcript'])
        expect((await chunksOf(kind, created.id)).map((c) => c.occurred_at)).toEqual([
          '2026-11-19T09:00:00.000Z',
        ]);
    });
  });

  describe('npm run ops', () => {
    it('search:reindex rebuilds every passage after they were deleted and removes orphans', async () => {
      const agency = await t.seed.organization({ name: 'Reindex Agency' });
      const adminKey = (await t.seed.withKey(agency)).key;
      const integration = await t.seed.integrationKey(agency, 'aircall');
      const lead = await t.seed.lead(agency, { language: 'de' });
      const plain = await t.seed.lead(agency);
      const sentence = 'Sie möchten eine Wohnung mit Balkon und Garten in ruhiger Lage. ';
      await api(t, adminKey)
        .post(`/v1/leads/${lead.id}/notes`)
        .send({ content: sentence.repeat(50) })
        .expect(201);
      await api(t, adminKey)
        .post('/v1/tasks')
        .send({ leadId: plain.id, title: 'Call', description: 'x' })
        .expect(201);
      const send = (path: string, body: Record<string, unknown>) =>
        asKey(t.http.put(`/integrations/v1/${path}`), integration.key)
          .send(body)
          .expect((r) => expect(r.status).toBeLessThan(300));
      await send('messages/r-m1', message(lead.id));
      await send('emails/r-e1', email(plain.id));
      await send('calls/r-c1', call(lead.id));
      await send('calls/r-c1/transcript', {
        transcript: 'Hallo, ich suche ein Haus',
        detectedLanguage: 'de',
      });
      await send('calls/r-c1/analysis', analysis);

      const snapshot = () =>
        sql(
          t,
          `select lead_id, source_kind, source_id, position, occurred_at, language, text, untrusted from search_chunk
            where organization_id = ? order by source_kind, source_id, position`,
          [agency.organizationId],
        );
      const before = await snapshot();
      expect(new Set(before.map((r) => r.source_kind))).toEqual(
        new Set(['note', 'task', 'message', 'email', 'transcript', 'analysis']),
      );
      const elsewhere = await count(t, 'select count(*) as n from search_chunk where organization_id <> ?', [
        agency.organizationId,
      ]);

      await sql(t, 'delete from search_chunk where organization_id = ?', [agency.organizationId]);
      const orphan = randomUUID();
      await sql(
        t,
        `insert into search_chunk (organization_id, lead_id, source_kind, source_id, position, occurred_at, language, text, untrusted)
         values (?, ?, 'note', ?, 0, now(), 'simple', 'a note deleted behind the index''s back', false)`,
        [agency.organizationId, lead.id, orphan],
      );

      const res = await ops(['search:reindex', '--org', agency.organizationId, '--json']);
      expect({ status: res.status, stderr: res.status === 0 ? '' : ownStderr(res.stderr) }).toEqual({
        status: 0,
        stderr: '',
      });
      const summary = JSON.parse(res.stdout);
      expect(summary).toEqual({
        organizationId: agency.organizationId,
        documents: 6,
        chunks: before.length,
        removed: 1,
        ms: expect.any(Number),
      });
      expect(await snapshot()).toEqual(before);
      expect(await count(t, 'select count(*) as n from search_chunk where source_id = ?', [orphan])).toBe(0);
      // another agency's passages are not touched
      expect(
        await count(t, 'select count(*) as n from search_chunk where organization_id <> ?', [
          agency.organizationId,
        ]),
      ).toBe(elsewhere);
    });

    it('search:recent-indexes builds a missing recent index concurrently, as the hourly job does', async () => {
      const since = recentIndexBound(new Date()).toISOString().slice(0, 10);
      const name = `search_chunk_tsv_since_${since.replace(/-/g, '')}`;
      const present = () =>
        sql<{ valid: boolean }>(
          t,
          `select i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid where c.relname = ?`,
          [name],
        );
      await sql(t, `drop index if exists ${name}`);
      expect(await present()).toEqual([]);
      const res = await ops(['search:recent-indexes', '--json']);
      expect({ status: res.status, stderr: res.status === 0 ? '' : ownStderr(res.stderr) }).toEqual({
        status: 0,
        stderr: '',
      });
      expect(JSON.parse(res.stdout)).toEqual({ since, created: [name], dropped: [] });
      expect(await present()).toEqual([{ valid: true }]);
    });

    it("search-rate sets the organization's figure, the key door carries it at once, --reset goes back to 30", async () => {
      const agency = await t.seed.organization({ name: 'Rate Agency' });
      const key = await t.seed.apiKey(agency, { scopes: ['crm:read'] });
      const door = () =>
        RequestContext.create(t.orm.em, () =>
          t.get(ApiKeyAuthenticator).authenticate(key.key, {
            family: 'v1',
            origin: undefined,
            ip: undefined,
            userAgent: undefined,
          }),
        );
      const rate = async () =>
        (
          await sql<{ search_rate_per_minute: number | null }>(
            t,
            'select search_rate_per_minute from organizations where id = ?',
            [agency.organizationId],
          )
        )[0].search_rate_per_minute;

      expect((await door()).searchRatePerMinute).toBeNull(); // and now cached

      const set = await ops(['search-rate', '--org', agency.organizationId, '--per-minute', '240', '--json']);
      expect(set.status).toBe(0);
      expect(JSON.parse(set.stdout)).toEqual({
        id: agency.organizationId,
        name: 'Rate Agency',
        searchRatePerMinute: 240,
        effectivePerMinute: 240,
      });
      expect(await rate()).toBe(240);

      const reset = await ops(['search-rate', '--org', agency.organizationId, '--reset']);
      expect(reset.status).toBe(0);
      expect(reset.stdout).toContain('search limit 30 a minute');
      expect(await rate()).toBeNull();

      // the operator's service in the API's own process drops the cached principal at once (the
      // key was just looked up again, well inside the cache's 5 seconds)
      expect((await door()).searchRatePerMinute).toBeNull();
      await RequestContext.create(t.orm.em, () =>
        t.get(OrganizationsService).setSearchRate(agency.organizationId, 90),
      );
      expect((await door()).searchRatePerMinute).toBe(90);
    });
  });
});
