import { AppConfig, HOUR, JobName, MINUTE, PeriodicJobRegistry } from '@app/platform';
import { documentListStatement } from '../../libs/documents/src/application/document-list.sql';
import {
  Agency,
  api,
  count,
  DOCUMENT_FIELDS,
  DOCUMENT_ROW_FIELDS,
  expectError,
  expectNotFound,
  expectValidation,
  sql,
  TestApp,
} from '../fixtures';
import {
  DocumentBody,
  documentsKey,
  insertAttachment,
  insertDocument,
  insertDocuments,
  insertFolder,
  insertPin,
  postDocument,
} from '../fixtures/documents';

/**
 * Documents through `/v1` (issue 15 items 1-3, INTERFACES.md "Documents"): create, read, change,
 * share and revoke with the access policy (member vs admin), the visibility table, expiry through
 * the clock and the sweep, the plan gate and scopes on every route, the list's filters, sorts,
 * search and exact total (and the indexes its plans use), and the folder list.
 */

const MISSING = '0190a0a0-0000-7000-8000-000000000001';
const FIELDS_ROW = DOCUMENT_ROW_FIELDS;
const FIELDS_FULL = DOCUMENT_FIELDS;

interface Keys {
  admin: string;
  member: string;
  colleague: string;
}

describe('Documents: /v1 routes', () => {
  let t: TestApp;
  let a: Agency;
  let k: Keys;
  let publicBaseUrl: string;

  const as = (key: string) => api(t, key);
  const read = async (key: string, id: string) =>
    (await as(key).get(`/v1/documents/${id}`).expect(200)).body as DocumentBody;
  const share = (key: string, id: string, body: Record<string, unknown> = {}) =>
    as(key).post(`/v1/documents/${id}/share`).send(body);
  const setVisibility = (id: string, visibility: string) =>
    sql(t, `update documents set visibility = ? where id = ?`, [visibility, id]);

  beforeAll(async () => {
    t = await TestApp.start();
    publicBaseUrl = t.get(AppConfig).publicBaseUrl;
    a = await t.seed.agency('Casa Agency');
    k = {
      admin: await documentsKey(t, a.admin),
      member: await documentsKey(t, a.member),
      colleague: await documentsKey(t, a.colleague),
    };
  });
  afterAll(() => t.stop());
  afterEach(() => t.clock.reset());

  describe('create and read', () => {
    it('creates a private Markdown document in no folder and reads it whole', async () => {
      const res = await as(k.member)
        .post('/v1/documents')
        .send({ title: 'Piso en Málaga', body: '# Terraza\n\nVistas al mar 🌊' })
        .expect(201);
      expect(Object.keys(res.body).sort()).toEqual(FIELDS_FULL);
      expect(res.body).toMatchObject({
        title: 'Piso en Málaga',
        kind: 'markdown',
        visibility: 'private',
        folderId: null,
        body: '# Terraza\n\nVistas al mar 🌊',
        truncated: false,
        sizeBytes: Buffer.byteLength('# Terraza\n\nVistas al mar 🌊', 'utf8'),
        createdBy: a.member.userId,
        assigneeIds: [],
        shareUrl: null,
        shareExpiresAt: null,
        shareRevokedAt: null,
        attachedLeadCount: 0,
        attachedLeadIds: [],
        attachedListingCount: 0,
        attachedListingIds: [],
      });
      expect(await read(k.member, res.body.id)).toEqual(res.body);
    });

    it('replays a create with the same Idempotency-Key', async () => {
      const key = `doc-${Date.now()}`;
      const first = await as(k.member)
        .post('/v1/documents')
        .set('Idempotency-Key', key)
        .send({ title: 'Once', body: '' })
        .expect(201);
      const again = await as(k.member)
        .post('/v1/documents')
        .set('Idempotency-Key', key)
        .send({ title: 'Once', body: '' })
        .expect(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body.id).toBe(first.body.id);
    });

    it('accepts a body of 1,000,000 four-byte characters (4 MB of UTF-8) and refuses 1,000,001', async () => {
      const max = '😀'.repeat(1_000_000);
      const created = await as(k.member).post('/v1/documents').send({ title: 'Big', body: max }).expect(201);
      expect(created.body.sizeBytes).toBe(4_000_000);
      const back = await read(k.member, created.body.id);
      expect(back.body.length).toBe(2_000_000);
      expect(back.body === max).toBe(true);
      expectValidation(
        await as(k.member)
          .post('/v1/documents')
          .send({ title: 'Too big', body: max + '😀' }),
        'body',
      );
      expectValidation(
        await as(k.member)
          .post('/v1/documents')
          .send({ title: 'Too big', body: 'a'.repeat(1_000_001) }),
        'body',
      );
    });

    it('refuses a bad title or body: 201 characters, empty, missing, not a string', async () => {
      const post = (body: Record<string, unknown>) => as(k.member).post('/v1/documents').send(body);
      expectValidation(await post({ title: 'x'.repeat(201), body: '' }), 'title');
      expectValidation(await post({ title: '', body: '' }), 'title');
      expectValidation(await post({ body: '' }), 'title');
      expectValidation(await post({ title: 'No body' }), 'body');
      expectValidation(await post({ title: 'x', body: 5 }), 'body');
      // 200 four-byte characters are 200 characters
      await post({ title: '😀'.repeat(200), body: '' }).expect(201);
    });

    it('a colleague’s private document: 404 for a member, 200 for an admin; another agency’s: 404', async () => {
      const doc = await postDocument(t, k.member);
      expectNotFound(await as(k.colleague).get(`/v1/documents/${doc.id}`), 'Document');
      expect((await read(k.admin, doc.id)).id).toBe(doc.id);
      const other = await t.seed.organization({ name: 'Other Agency' });
      const otherKey = await documentsKey(t, other);
      expectNotFound(await as(otherKey).get(`/v1/documents/${doc.id}`), 'Document');
      expectNotFound(await as(otherKey).patch(`/v1/documents/${doc.id}`).send({ title: 'x' }), 'Document');
      expectNotFound(await share(otherKey, doc.id), 'Document');
      expectNotFound(await as(otherKey).delete(`/v1/documents/${doc.id}/share`), 'Document');
      expectNotFound(await as(k.member).get(`/v1/documents/${MISSING}`), 'Document');
      expectValidation(await as(k.member).get('/v1/documents/not-a-uuid'), 'documentId');
    });

    it('reads a pdf as metadata only: body "" and file {fileName, mimeType}', async () => {
      const id = await insertDocument(t, {
        organizationId: a.admin.organizationId,
        createdBy: a.member.userId,
        kind: 'pdf',
        title: 'Floor plan',
        sizeBytes: 12345,
        file: { fileName: 'plan.pdf', mimeType: 'application/pdf', blobKey: 'secret/blob' },
      });
      const doc = await read(k.member, id);
      expect(doc).toMatchObject({
        kind: 'pdf',
        body: '',
        sizeBytes: 12345,
        file: { fileName: 'plan.pdf', mimeType: 'application/pdf' },
      });
      expect(JSON.stringify(doc)).not.toContain('secret/blob');
    });
  });

  describe('change', () => {
    it('changes the title and replaces the body; updatedAt and sizeBytes follow', async () => {
      const doc = await postDocument(t, k.member, { title: 'Draft', body: 'old' });
      t.clock.advance(MINUTE);
      const res = await as(k.member)
        .patch(`/v1/documents/${doc.id}`)
        .send({ title: 'Final', body: 'ñandú' })
        .expect(200);
      expect(res.body).toMatchObject({ title: 'Final', body: 'ñandú', sizeBytes: 7 });
      expect(new Date(res.body.updatedAt).getTime()).toBe(new Date(doc.updatedAt).getTime() + MINUTE);
      const titleOnly = await as(k.member)
        .patch(`/v1/documents/${doc.id}`)
        .send({ title: 'Again' })
        .expect(200);
      expect(titleOnly.body).toMatchObject({ title: 'Again', body: 'ñandú' });
      expectValidation(await as(k.member).patch(`/v1/documents/${doc.id}`).send({ title: null }), 'title');
      expectValidation(
        await as(k.member)
          .patch(`/v1/documents/${doc.id}`)
          .send({ body: 'a'.repeat(1_000_001) }),
        'body',
      );
    });

    it('a member edits an organization document of a colleague (200), not a private one (404)', async () => {
      const doc = await postDocument(t, k.colleague, { title: 'Team notes' });
      expectNotFound(await as(k.member).patch(`/v1/documents/${doc.id}`).send({ body: 'mine' }), 'Document');
      await setVisibility(doc.id, 'organization');
      const res = await as(k.member).patch(`/v1/documents/${doc.id}`).send({ body: 'mine' }).expect(200);
      expect(res.body).toMatchObject({ body: 'mine', createdBy: a.colleague.userId });
      // an admin edits a member's private document
      const secret = await postDocument(t, k.colleague, { title: 'Secret' });
      await as(k.admin).patch(`/v1/documents/${secret.id}`).send({ title: 'Seen by admin' }).expect(200);
    });

    it('refuses a body for a whiteboard, pdf or file document (DOCUMENT_KIND_READ_ONLY); its title changes', async () => {
      for (const kind of ['whiteboard', 'pdf', 'file'] as const) {
        const id = await insertDocument(t, {
          organizationId: a.admin.organizationId,
          createdBy: a.member.userId,
          kind,
          body: kind === 'whiteboard' ? '- Kitchen\n- Garden' : '',
        });
        expectError(
          await as(k.member).patch(`/v1/documents/${id}`).send({ body: 'replaced' }),
          400,
          'DOCUMENT_KIND_READ_ONLY',
        );
        const res = await as(k.member).patch(`/v1/documents/${id}`).send({ title: 'Renamed' }).expect(200);
        expect(res.body).toMatchObject({ title: 'Renamed', kind });
        if (kind === 'whiteboard') expect(res.body.body).toBe('- Kitchen\n- Garden');
      }
    });
  });

  describe('share and revoke (the visibility table)', () => {
    it('private → public with a 32-byte token; sharing again keeps the URL; a sent expiresAt replaces', async () => {
      const doc = await postDocument(t, k.member);
      const first = await share(k.member, doc.id).expect(200);
      expect(Object.keys(first.body).sort()).toEqual(FIELDS_FULL);
      expect(first.body).toMatchObject({ visibility: 'public', shareExpiresAt: null, shareRevokedAt: null });
      const url = first.body.shareUrl as string;
      expect(url).toMatch(new RegExp(`^${publicBaseUrl.replace(/[.:/]/g, '\\$&')}/d/[A-Za-z0-9_-]{43}$`));
      expect(Buffer.from(url.split('/d/')[1], 'base64url')).toHaveLength(32);

      const again = await share(k.member, doc.id).expect(200);
      expect(again.body.shareUrl).toBe(url);
      const expiresAt = new Date(t.clock.now().getTime() + 2 * HOUR);
      const withExpiry = await share(k.member, doc.id, { expiresAt: expiresAt.toISOString() }).expect(200);
      expect(withExpiry.body).toMatchObject({ shareUrl: url, shareExpiresAt: expiresAt.toISOString() });
      // an offset names the same instant
      const later = new Date(expiresAt.getTime() + HOUR);
      const offset = later.toISOString().replace('Z', '+00:00');
      const replaced = await share(k.member, doc.id, { expiresAt: offset }).expect(200);
      expect(replaced.body).toMatchObject({ shareUrl: url, shareExpiresAt: later.toISOString() });
      // none keeps it
      expect((await share(k.member, doc.id).expect(200)).body.shareExpiresAt).toBe(later.toISOString());
      // everyone in the agency sees a public document
      expect((await read(k.colleague, doc.id)).shareUrl).toBe(url);
    });

    it('revoke → 204, organization, shareRevokedAt now, no URL; again → 204 unchanged; share → a new URL', async () => {
      const doc = await postDocument(t, k.member);
      const url = (await share(k.member, doc.id).expect(200)).body.shareUrl as string;
      t.clock.advance(MINUTE);
      const revokedAt = t.clock.now().toISOString();
      await as(k.member).delete(`/v1/documents/${doc.id}/share`).expect(204);
      const revoked = await read(k.member, doc.id);
      expect(revoked).toMatchObject({
        visibility: 'organization',
        shareRevokedAt: revokedAt,
        shareUrl: null,
      });

      t.clock.advance(MINUTE);
      await as(k.member).delete(`/v1/documents/${doc.id}/share`).expect(204);
      expect(await read(k.member, doc.id)).toEqual(revoked);

      const shared = await share(k.member, doc.id).expect(200);
      expect(shared.body).toMatchObject({ visibility: 'public', shareRevokedAt: null });
      expect(shared.body.shareUrl).not.toBe(url);
      // the replaced link answers 410 from now on
      expect(
        await count(t, `select count(*) as n from document_gone_links where token = ?`, [
          url.split('/d/')[1],
        ]),
      ).toBe(1);
    });

    it('two shares at once agree on one URL', async () => {
      const doc = await postDocument(t, k.member);
      const [one, two] = await Promise.all([share(k.member, doc.id), share(k.member, doc.id)]);
      expect([one.status, two.status]).toEqual([200, 200]);
      expect(one.body.shareUrl).toBe(two.body.shareUrl);
      expect((await read(k.member, doc.id)).shareUrl).toBe(one.body.shareUrl);
    });

    it('revoking a document never shared: 204, nothing changes (it stays private)', async () => {
      const doc = await postDocument(t, k.member);
      await as(k.member).delete(`/v1/documents/${doc.id}/share`).expect(204);
      expect(await read(k.member, doc.id)).toMatchObject({ visibility: 'private', shareRevokedAt: null });
    });

    it('organization → public; a member may not share or revoke a colleague’s document (403); an admin may', async () => {
      const doc = await postDocument(t, k.colleague);
      expectNotFound(await share(k.member, doc.id), 'Document');
      await setVisibility(doc.id, 'organization');
      expectError(await share(k.member, doc.id), 403, 'FORBIDDEN');
      const shared = await share(k.admin, doc.id).expect(200);
      expect(shared.body.visibility).toBe('public');
      expectError(await as(k.member).delete(`/v1/documents/${doc.id}/share`), 403, 'FORBIDDEN');
      await as(k.admin).delete(`/v1/documents/${doc.id}/share`).expect(204);
      expect((await read(k.colleague, doc.id)).visibility).toBe('organization');
    });

    it('refuses an expiresAt in the past, now, without an offset, or not a time', async () => {
      const doc = await postDocument(t, k.member);
      const now = t.clock.now();
      for (const expiresAt of [
        new Date(now.getTime() - MINUTE).toISOString(),
        now.toISOString(),
        '2099-01-01T10:00:00',
        '2099-01-01',
        'tomorrow',
        '2099-13-01T10:00:00Z',
        12345,
        null,
      ]) {
        expectValidation(await share(k.member, doc.id, { expiresAt }), 'expiresAt');
      }
      expect((await read(k.member, doc.id)).visibility).toBe('private');
    });

    it('expiry through the clock: a read shows it revoked at expiresAt; the sweep writes the rest', async () => {
      const onRead = await postDocument(t, k.member, { title: 'Expires on read' });
      const swept = await postDocument(t, k.member, { title: 'Expires by the sweep' });
      const expiresAt = new Date(t.clock.now().getTime() + HOUR).toISOString();
      await share(k.member, onRead.id, { expiresAt }).expect(200);
      await share(k.member, swept.id, { expiresAt }).expect(200);
      t.clock.advance(HOUR - 1000);
      expect((await read(k.member, onRead.id)).visibility).toBe('public');

      t.clock.advance(2 * HOUR);
      const expired = await read(k.member, onRead.id);
      expect(expired).toMatchObject({
        visibility: 'organization',
        shareRevokedAt: expiresAt,
        shareExpiresAt: expiresAt,
        shareUrl: null,
      });
      // written, not only shown
      const [row] = await sql<{ visibility: string }>(t, `select visibility from documents where id = ?`, [
        onRead.id,
      ]);
      expect(row.visibility).toBe('organization');
      // the list shows the other one revoked before the sweep has run
      const listed = await as(k.member).get('/v1/documents').query({ q: 'sweep' }).expect(200);
      expect(listed.body.data.find((d: DocumentBody) => d.id === swept.id)).toMatchObject({
        visibility: 'organization',
        shareUrl: null,
      });

      const summary = await t
        .get(PeriodicJobRegistry)
        .byName(JobName.DocumentsExpireShares)
        .run(t.clock.now());
      expect(summary).toEqual({ expired: expect.any(Number) });
      const [sweptRow] = await sql<{ visibility: string; share_revoked_at: Date }>(
        t,
        `select visibility, share_revoked_at from documents where id = ?`,
        [swept.id],
      );
      expect(sweptRow.visibility).toBe('organization');
      expect(new Date(sweptRow.share_revoked_at).toISOString()).toBe(expiresAt);
      expect(t.get(PeriodicJobRegistry).byName(JobName.DocumentsExpireShares).everyMs).toBe(MINUTE);

      // a new share makes a new URL
      const reshared = await share(k.member, onRead.id).expect(200);
      expect(reshared.body).toMatchObject({
        visibility: 'public',
        shareExpiresAt: null,
        shareRevokedAt: null,
      });
    });
  });

  describe('plan and scopes', () => {
    it('every route answers 403 SUBSCRIPTION_REQUIRED without an active plan, reads included', async () => {
      const admin = await t.seed.organization({ name: 'Lapsed Agency' });
      const key = await documentsKey(t, admin);
      const doc = await postDocument(t, key);
      await t.seed.plan(admin, false);
      const routes = [
        as(key).get('/v1/documents'),
        as(key).get('/v1/document-folders'),
        as(key).get(`/v1/documents/${doc.id}`),
        as(key).post('/v1/documents').send({ title: 'x', body: '' }),
        as(key).patch(`/v1/documents/${doc.id}`).send({ title: 'x' }),
        share(key, doc.id),
        as(key).delete(`/v1/documents/${doc.id}/share`),
      ];
      for (const req of routes) expectError(await req, 403, 'SUBSCRIPTION_REQUIRED');
    });

    it('a key without documents scopes: 403 API_KEY_SCOPE_MISSING; documents:read cannot write', async () => {
      const doc = await postDocument(t, k.member);
      const crmOnly = a.member.key;
      const routes: [() => ReturnType<ReturnType<typeof as>['get']>, string][] = [
        [() => as(crmOnly).get('/v1/documents'), 'documents:read'],
        [() => as(crmOnly).get('/v1/document-folders'), 'documents:read'],
        [() => as(crmOnly).get(`/v1/documents/${doc.id}`), 'documents:read'],
        [() => as(crmOnly).post('/v1/documents').send({ title: 'x', body: '' }), 'documents:write'],
        [() => as(crmOnly).patch(`/v1/documents/${doc.id}`).send({ title: 'x' }), 'documents:write'],
        [() => share(crmOnly, doc.id), 'documents:write'],
        [() => as(crmOnly).delete(`/v1/documents/${doc.id}/share`), 'documents:write'],
      ];
      for (const [req, scope] of routes) {
        expectError(await req(), 403, 'API_KEY_SCOPE_MISSING', { missing: [scope] });
      }
      const readOnly = (await t.seed.apiKey(a.member, { name: 'reader', scopes: ['documents:read'] })).key;
      await as(readOnly).get(`/v1/documents/${doc.id}`).expect(200);
      expectError(
        await as(readOnly).post('/v1/documents').send({ title: 'x', body: '' }),
        403,
        'API_KEY_SCOPE_MISSING',
        { missing: ['documents:write'] },
      );
    });
  });

  describe('list', () => {
    let b: Agency;
    let bk: Keys;
    const ids: Record<string, string> = {};
    let folder: string;
    let leadId: number;
    const list = (key: string, query: Record<string, string | number> = {}) =>
      as(key).get('/v1/documents').query(query).expect(200);
    const titles = (res: { body: { data: DocumentBody[] } }) => res.body.data.map((d) => d.title);

    beforeAll(async () => {
      b = await t.seed.agency('List Agency');
      bk = {
        admin: await documentsKey(t, b.admin),
        member: await documentsKey(t, b.member),
        colleague: await documentsKey(t, b.colleague),
      };
      const org = b.admin.organizationId;
      folder = await insertFolder(t, { organizationId: org, createdBy: b.admin.userId, name: 'Contracts' });
      const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));
      const rows: [string, Parameters<typeof insertDocument>[1]][] = [
        [
          'malaga',
          {
            organizationId: org,
            createdBy: b.member.userId,
            title: 'Piso en Málaga',
            body: 'Luminoso',
            sizeBytes: 300,
            updatedAt: at(1),
          },
        ],
        [
          'terraza',
          {
            organizationId: org,
            createdBy: b.member.userId,
            title: 'apartment notes',
            body: 'Gran terraza con jardín',
            visibility: 'organization',
            sizeBytes: 100,
            updatedAt: at(2),
            folderId: folder,
          },
        ],
        [
          'colleaguePrivate',
          {
            organizationId: org,
            createdBy: b.colleague.userId,
            title: 'Zeta private',
            body: 'Confidencial',
            sizeBytes: 50,
            updatedAt: at(3),
          },
        ],
        [
          'colleagueOrg',
          {
            organizationId: org,
            createdBy: b.colleague.userId,
            title: 'Beta team',
            body: 'Shared notes',
            visibility: 'organization',
            sizeBytes: 300,
            updatedAt: at(4),
            folderId: folder,
          },
        ],
        [
          'board',
          {
            organizationId: org,
            createdBy: b.admin.userId,
            title: 'alpha board',
            kind: 'whiteboard',
            body: '- Kitchen',
            visibility: 'public',
            sizeBytes: 10,
            updatedAt: at(5),
          },
        ],
        [
          'percent',
          {
            organizationId: org,
            createdBy: b.member.userId,
            title: '100% done',
            body: 'Finished',
            sizeBytes: 20,
            updatedAt: at(0),
          },
        ],
      ];
      for (const [name, row] of rows) ids[name] = await insertDocument(t, row);
      await insertPin(t, { organizationId: org, userId: b.member.userId, documentId: ids.colleagueOrg });
      await insertPin(t, { organizationId: org, userId: b.colleague.userId, documentId: ids.malaga });
      leadId = (await t.seed.lead(b.admin)).id;
      await insertAttachment(t, {
        organizationId: org,
        documentId: ids.terraza,
        leadId,
        attachedBy: b.admin.userId,
      });
    });

    it('most recently changed first, rows without a body, exact total, offset paging', async () => {
      const all = await list(bk.member);
      expect(titles(all)).toEqual([
        'alpha board',
        'Beta team',
        'apartment notes',
        'Piso en Málaga',
        '100% done',
      ]);
      expect(all.body).toMatchObject({ hasMore: false, nextOffset: null, total: 5 });
      expect(Object.keys(all.body.data[0]).sort()).toEqual(FIELDS_ROW);
      expect(all.body.data.find((d: DocumentBody) => d.id === ids.terraza)).toMatchObject({
        attachedLeadCount: 1,
        folderId: folder,
      });
      // a row is the full document's row fields, the same values
      const full = await read(bk.member, ids.terraza);
      const row = all.body.data.find((d: DocumentBody) => d.id === ids.terraza);
      expect(row).toEqual(Object.fromEntries(FIELDS_ROW.map((field) => [field, full[field]])));
      expect(row).toMatchObject({
        assigneeIds: [],
        attachedListingCount: 0,
        updatedAt: '2026-01-01T00:02:00.000Z',
      });
      const first = await list(bk.member, { limit: 2 });
      expect(first.body).toMatchObject({ hasMore: true, nextOffset: 2, total: 5 });
      const second = await list(bk.member, { limit: 2, offset: 2 });
      expect(titles(second)).toEqual(['apartment notes', 'Piso en Málaga']);
      const last = await list(bk.member, { limit: 2, offset: 4 });
      expect(last.body).toMatchObject({ hasMore: false, nextOffset: null, total: 5 });
      const past = await list(bk.member, { offset: 50 });
      expect(past.body).toEqual({ data: [], hasMore: false, nextOffset: null, total: 5 });
      // an admin sees the colleague's private one too
      expect((await list(bk.admin)).body.total).toBe(6);
      expect((await list(bk.colleague)).body.total).toBe(4);
    });

    it('sorts by title (case-insensitive) and size (largest first), ties by id', async () => {
      expect(titles(await list(bk.member, { sort: 'title' }))).toEqual([
        '100% done',
        'alpha board',
        'apartment notes',
        'Beta team',
        'Piso en Málaga',
      ]);
      const bySize = (await list(bk.member, { sort: 'size' })).body.data as DocumentBody[];
      expect(bySize.map((d) => d.sizeBytes)).toEqual([300, 300, 100, 20, 10]);
      const tied = [ids.malaga, ids.colleagueOrg].sort();
      expect(bySize.slice(0, 2).map((d) => d.id)).toEqual(tied);
    });

    it('filters by kind, visibility (only narrows), folder, scope and mine', async () => {
      expect(titles(await list(bk.member, { kind: 'whiteboard' }))).toEqual(['alpha board']);
      expect(titles(await list(bk.member, { visibility: 'private' }))).toEqual([
        'Piso en Málaga',
        '100% done',
      ]);
      expect((await list(bk.admin, { visibility: 'private' })).body.total).toBe(3);
      expect(titles(await list(bk.member, { folderId: folder }))).toEqual(['Beta team', 'apartment notes']);
      expect((await list(bk.member, { folderId: 'root' })).body.total).toBe(3);
      expect((await list(bk.member, { folderId: folder.toUpperCase() })).body.total).toBe(2);
      expect(titles(await list(bk.member, { scope: 'shared' }))).toEqual(['alpha board', 'Beta team']);
      expect(titles(await list(bk.member, { scope: 'pinned' }))).toEqual(['Beta team']);
      expect(titles(await list(bk.colleague, { scope: 'pinned' }))).toEqual([]);
      expect(titles(await list(bk.member, { mine: 'true' }))).toEqual([
        'apartment notes',
        'Piso en Málaga',
        '100% done',
      ]);
      expect(
        titles(await list(bk.member, { mine: 'true', visibility: 'organization', folderId: folder })),
      ).toEqual(['apartment notes']);
    });

    it('searches titles accent- and case-insensitively and bodies by words', async () => {
      const search = async (key: string, q: string) => {
        const res = await list(key, { q });
        expect(res.body.total).toBe(res.body.data.length);
        return titles(res);
      };
      expect(await search(bk.member, 'malaga')).toEqual(['Piso en Málaga']);
      expect(await search(bk.member, 'MÁLAGA')).toEqual(['Piso en Málaga']);
      expect(await search(bk.member, 'en mál')).toEqual(['Piso en Málaga']);
      expect(await search(bk.member, 'terraza')).toEqual(['apartment notes']);
      expect(await search(bk.member, 'jardin')).toEqual(['apartment notes']);
      expect(await search(bk.member, 'gran jardín')).toEqual(['apartment notes']);
      expect(await search(bk.member, '"jardín gran"')).toEqual([]);
      expect(await search(bk.member, 'luminoso or shared')).toEqual(['Beta team', 'Piso en Málaga']);
      expect(await search(bk.member, 'confidencial')).toEqual([]);
      expect(await search(bk.admin, 'confidencial')).toEqual(['Zeta private']);
      // % and _ are literal
      expect(await search(bk.member, '100%')).toEqual(['100% done']);
      expect(await search(bk.member, '%')).toEqual(['100% done']);
      expect(await search(bk.member, '_')).toEqual([]);
      expect(await search(bk.member, 'no such words anywhere')).toEqual([]);
      // combined with a filter and a sort, paged
      const paged = await list(bk.member, { q: 'a', sort: 'title', limit: 1 });
      expect(paged.body).toMatchObject({ hasMore: true, nextOffset: 1 });
      expect(paged.body.total).toBeGreaterThan(1);
    });

    it.each([
      ['limit', '51'],
      ['limit', '0'],
      ['offset', '-1'],
      ['q', 'x'.repeat(129)],
      ['kind', 'video'],
      ['visibility', 'secret'],
      ['folderId', 'nowhere'],
      ['scope', 'mine'],
      ['mine', 'false'],
      ['mine', 'yes'],
      ['sort', 'created'],
    ])('refuses %s=%p with 400 VALIDATION_FAILED', async (name, value) => {
      expectValidation(
        await as(bk.member)
          .get('/v1/documents')
          .query({ [name]: value }),
        name,
      );
    });

    it('accepts q of 128 characters and limit 50', async () => {
      await list(bk.member, { q: 'x'.repeat(128), limit: 50 });
    });

    it('lists the folders by name with the documents the caller sees', async () => {
      const org = b.admin.organizationId;
      const empty = await insertFolder(t, {
        organizationId: org,
        createdBy: b.admin.userId,
        name: 'archive',
      });
      const child = await insertFolder(t, {
        organizationId: org,
        createdBy: b.member.userId,
        name: 'Leases',
        parentId: folder,
      });
      await insertDocument(t, { organizationId: org, createdBy: b.colleague.userId, folderId: child });
      const member = await as(bk.member).get('/v1/document-folders').expect(200);
      expect(member.body).toEqual({
        data: [
          { id: empty, name: 'archive', parentId: null, documentCount: 0 },
          { id: folder, name: 'Contracts', parentId: null, documentCount: 2 },
          { id: child, name: 'Leases', parentId: folder, documentCount: 0 },
        ],
        hasMore: false,
      });
      const admin = await as(bk.admin).get('/v1/document-folders').expect(200);
      expect(admin.body.data.map((f: { documentCount: number }) => f.documentCount)).toEqual([0, 2, 1]);
      // another agency sees none of them
      expect((await as(k.member).get('/v1/document-folders').expect(200)).body.data).toEqual([]);
    });

    it('uses the indexes: trigram title, body tsvector, and the (organization, updated) order', async () => {
      const org = b.admin.organizationId;
      await insertDocuments(t, { organizationId: org, createdBy: b.admin.userId }, 5000);
      await sql(t, 'analyze documents');
      const viewer = { userId: b.member.userId, isAdmin: false };
      const plan = async (filters: Parameters<typeof documentListStatement>[2]) => {
        const statement = documentListStatement(org, viewer, filters, 0, 20);
        const rows = await sql<{ 'QUERY PLAN': string }>(t, `explain ${statement.sql}`, statement.params);
        return rows.map((row) => row['QUERY PLAN']).join('\n');
      };
      const search = await plan({ q: 'malaga' });
      expect(search).toContain('documents_title_trgm_idx');
      expect(search).toContain('documents_body_tsv_idx');
      expect(await plan({})).toContain('documents_org_updated_idx');
      const res = await list(bk.member, { q: 'word2500' });
      expect(res.body.total).toBe(0); // bulk document 2500 is private to the admin
      expect((await list(bk.admin, { q: 'word2500' })).body.total).toBe(1);
      expect((await list(bk.member, { limit: 1 })).body.total).toBe(5 + Math.floor(5000 / 3));
    });
  });
});
