import { BlobStorage } from '@app/platform';
import {
  Agency,
  asSession,
  count,
  expectError,
  expectNotFound,
  expectValidation,
  SignedIn,
  sql,
  TestApp,
} from '../fixtures';
import { seedDocument } from '../fixtures/document-library';

/**
 * The library's session routes through HTTP (issue 15 item 4, INTERFACES.md "Documents", session
 * routes): folders with their conflicts, depth and cycles; move, pins, assignees, listings and
 * delete under the one access policy; file uploads (pdf detection, 413, 415) and whiteboards; the
 * plan gate on every route; another agency's folders and documents → 404.
 */

const MISSING = '0190a0a0-0000-7000-8000-000000000001';

describe('Documents: session routes', () => {
  let t: TestApp;
  let a: Agency;
  let other: Agency;

  const as = (who: SignedIn) => ({
    get: (path: string) => asSession(t.http.get(path), who),
    post: (path: string) => asSession(t.http.post(path), who),
    put: (path: string) => asSession(t.http.put(path), who),
    patch: (path: string) => asSession(t.http.patch(path), who),
    delete: (path: string) => asSession(t.http.delete(path), who),
  });
  const folder = async (who: SignedIn, name: string, parentId?: string): Promise<{ id: string }> => {
    const res = await as(who)
      .post('/document-folders')
      .send({ name, ...(parentId ? { parentId } : {}) });
    if (res.status !== 201) throw new Error(`folder not created: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };

  beforeAll(async () => {
    t = await TestApp.start();
    a = await t.seed.agency('Casa Agency');
    other = await t.seed.agency('Other Agency');
  });
  afterAll(() => t.stop());

  describe('folders', () => {
    it('creates at the root and below; a sibling of the same name (any case) → 409; five levels at most', async () => {
      const res = await as(a.member).post('/document-folders').send({ name: 'Contracts' }).expect(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        name: 'Contracts',
        parentId: null,
        documentCount: 0,
      });
      const root = res.body.id as string;

      const taken = await as(a.colleague).post('/document-folders').send({ name: 'CONTRACTS' });
      expectError(taken, 409, 'CONFLICT');
      expect(taken.body.error.message).toBe('A folder with this name already exists here.');
      // the same name elsewhere in the tree is fine
      const child = await folder(a.member, 'contracts', root);
      expect(child).toMatchObject({ name: 'contracts', parentId: root });
      // another agency has its own namespace
      await folder(other.member, 'Contracts');

      let parent = child.id;
      for (const level of [3, 4, 5]) parent = (await folder(a.member, `Level ${level}`, parent)).id;
      expectValidation(
        await as(a.member).post('/document-folders').send({ name: 'Level 6', parentId: parent }),
        'parentId',
      );
    });

    it('refuses bad input and folders of another agency', async () => {
      expectValidation(await as(a.member).post('/document-folders').send({ name: '' }), 'name');
      expectValidation(
        await as(a.member)
          .post('/document-folders')
          .send({ name: 'x'.repeat(101) }),
        'name',
      );
      expectValidation(
        await as(a.member).post('/document-folders').send({ name: 'A', parentId: 'nope' }),
        'parentId',
      );
      const theirs = await folder(other.admin, 'Theirs');
      expectNotFound(
        await as(a.admin).post('/document-folders').send({ name: 'Mine', parentId: theirs.id }),
        'Folder',
      );
      expectNotFound(await as(a.admin).patch(`/document-folders/${theirs.id}`).send({ name: 'X' }), 'Folder');
      expectNotFound(await as(a.admin).delete(`/document-folders/${theirs.id}`), 'Folder');
      expectNotFound(await as(a.admin).delete(`/document-folders/${MISSING}`), 'Folder');
    });

    it('renames and moves (creator or admin); a cycle → 400; a too deep subtree → 400', async () => {
      const top = await folder(a.member, 'Top');
      const middle = await folder(a.member, 'Middle', top.id);
      const bottom = await folder(a.member, 'Bottom', middle.id);
      await seedDocument(t, a.member, { folderId: top.id, visibility: 'organization' });
      await seedDocument(t, a.member, { folderId: top.id, visibility: 'private' });

      const renamed = await as(a.member)
        .patch(`/document-folders/${top.id}`)
        .send({ name: 'Top floor' })
        .expect(200);
      expect(renamed.body).toEqual({ id: top.id, name: 'Top floor', parentId: null, documentCount: 2 });
      // a colleague sees only the organization document in the count, and may not change it
      expectError(
        await as(a.colleague).patch(`/document-folders/${top.id}`).send({ name: 'Mine' }),
        403,
        'FORBIDDEN',
      );
      const byAdmin = await as(a.admin)
        .patch(`/document-folders/${top.id}`)
        .send({ name: 'Top' })
        .expect(200);
      expect(byAdmin.body.documentCount).toBe(2);

      for (const parentId of [top.id, middle.id, bottom.id]) {
        expectValidation(
          await as(a.member).patch(`/document-folders/${top.id}`).send({ parentId }),
          'parentId',
        );
      }
      // Top (3 levels) under a 3-level chain would make 6
      const x = await folder(a.member, 'X');
      const y = await folder(a.member, 'Y', x.id);
      const z = await folder(a.member, 'Z', y.id);
      expectValidation(
        await as(a.member).patch(`/document-folders/${top.id}`).send({ parentId: z.id }),
        'parentId',
      );
      const moved = await as(a.member)
        .patch(`/document-folders/${top.id}`)
        .send({ parentId: y.id })
        .expect(200);
      expect(moved.body.parentId).toBe(y.id);
      await as(a.member).patch(`/document-folders/${top.id}`).send({ parentId: null }).expect(200);
      // a rename onto a sibling's name (any case) → 409
      expectError(
        await as(a.member).patch(`/document-folders/${middle.id}`).send({ parentId: null, name: 'x' }),
        409,
        'CONFLICT',
      );
    });

    it('two crossing moves at once: one wins, the other is a cycle', async () => {
      const left = await folder(a.member, 'Left');
      const right = await folder(a.member, 'Right');
      const answers = await Promise.all([
        as(a.member).patch(`/document-folders/${left.id}`).send({ parentId: right.id }),
        as(a.member).patch(`/document-folders/${right.id}`).send({ parentId: left.id }),
      ]);
      expect(answers.map((res) => res.status).sort()).toEqual([200, 400]);
      const rows = await sql<{ id: string; parent_id: string | null }>(
        t,
        `select id, parent_id from document_folders where id in (?, ?)`,
        [left.id, right.id],
      );
      expect(rows.filter((row) => row.parent_id === null)).toHaveLength(1);
    });

    it('deletes only when empty (no subfolder, no document of anyone); creator or admin', async () => {
      const parent = await folder(a.member, 'Archive');
      const sub = await folder(a.member, 'Old', parent.id);
      const full = await as(a.member).delete(`/document-folders/${parent.id}`);
      expectError(full, 409, 'CONFLICT');
      expect(full.body.error.message).toMatch(/not empty/);
      expectError(await as(a.colleague).delete(`/document-folders/${sub.id}`), 403, 'FORBIDDEN');
      // a colleague's private document keeps it from being empty too
      await seedDocument(t, a.colleague, { folderId: sub.id, visibility: 'private' });
      expectError(await as(a.member).delete(`/document-folders/${sub.id}`), 409, 'CONFLICT');
      await sql(t, `delete from documents where folder_id = ?`, [sub.id]);
      await as(a.admin).delete(`/document-folders/${sub.id}`).expect(204);
      await as(a.member).delete(`/document-folders/${parent.id}`).expect(204);
      expect(
        await count(t, `select count(*) as n from document_folders where id in (?, ?)`, [parent.id, sub.id]),
      ).toBe(0);
    });
  });

  describe('documents', () => {
    it('moves to a folder and back (creator or admin); a colleague’s private → 404; other agency → 404', async () => {
      const target = await folder(a.member, 'Move here');
      const own = await seedDocument(t, a.member, { visibility: 'organization' });
      const res = await as(a.member)
        .put(`/documents/${own.id}/folder`)
        .send({ folderId: target.id })
        .expect(200);
      expect(res.body).toMatchObject({
        id: own.id,
        folderId: target.id,
        body: '# Checklist',
        truncated: false,
      });
      expect(res.body.updatedAt).toEqual(expect.any(String));
      // organization document of a colleague: seen, but not theirs to move
      expectError(
        await as(a.colleague).put(`/documents/${own.id}/folder`).send({ folderId: null }),
        403,
        'FORBIDDEN',
      );
      await as(a.admin).put(`/documents/${own.id}/folder`).send({ folderId: null }).expect(200);

      const secret = await seedDocument(t, a.colleague, { visibility: 'private' });
      expectNotFound(
        await as(a.member).put(`/documents/${secret.id}/folder`).send({ folderId: null }),
        'Document',
      );
      await as(a.admin).put(`/documents/${secret.id}/folder`).send({ folderId: target.id }).expect(200);

      const theirs = await folder(other.admin, 'Their folder');
      expectNotFound(
        await as(a.member).put(`/documents/${own.id}/folder`).send({ folderId: theirs.id }),
        'Folder',
      );
      expectNotFound(
        await as(other.admin).put(`/documents/${own.id}/folder`).send({ folderId: null }),
        'Document',
      );
      expectValidation(await as(a.member).put(`/documents/${own.id}/folder`).send({}), 'folderId');
    });

    it('pins are personal, repeatable, anyone who sees; at most 100 a person → 409', async () => {
      const shared = await seedDocument(t, a.colleague, { visibility: 'organization' });
      await as(a.member).put(`/documents/${shared.id}/pin`).expect(204);
      await as(a.member).put(`/documents/${shared.id}/pin`).expect(204);
      const pinsOf = (who: SignedIn) =>
        count(t, `select count(*) as n from document_pins where user_id = ? and document_id = ?`, [
          who.userId,
          shared.id,
        ]);
      expect([await pinsOf(a.member), await pinsOf(a.colleague)]).toEqual([1, 0]);
      await as(a.member).delete(`/documents/${shared.id}/pin`).expect(204);
      await as(a.member).delete(`/documents/${shared.id}/pin`).expect(204);
      expect(await pinsOf(a.member)).toBe(0);
      expectError(await as(a.member).put(`/documents/${shared.id}/pin`).send({}), 400, 'BAD_REQUEST');

      const secret = await seedDocument(t, a.colleague);
      expectNotFound(await as(a.member).put(`/documents/${secret.id}/pin`), 'Document');
      await as(a.admin).put(`/documents/${secret.id}/pin`).expect(204);
      expectNotFound(await as(other.admin).put(`/documents/${shared.id}/pin`), 'Document');

      const pinner = await t.seed.member(a.admin, 'member', 'Pia');
      for (let i = 0; i < 100; i += 1) {
        const doc = await seedDocument(t, pinner, { title: `Pin ${i}` });
        await sql(
          t,
          `insert into document_pins (organization_id, user_id, document_id, pinned_at) values (?, ?, ?, now())`,
          [pinner.organizationId, pinner.userId, doc.id],
        );
      }
      // the 100th and a 101st at once: exactly one is pinned
      await sql(
        t,
        `delete from document_pins where user_id = ? and document_id in (select document_id from document_pins where user_id = ? limit 1)`,
        [pinner.userId, pinner.userId],
      );
      const [first, second] = await Promise.all([
        seedDocument(t, a.admin, { visibility: 'organization' }),
        seedDocument(t, a.admin, { visibility: 'organization' }),
      ]);
      const race = await Promise.all([
        as(pinner).put(`/documents/${first.id}/pin`),
        as(pinner).put(`/documents/${second.id}/pin`),
      ]);
      expect(race.map((res) => res.status).sort()).toEqual([204, 409]);
      expect(
        await count(t, `select count(*) as n from document_pins where user_id = ?`, [pinner.userId]),
      ).toBe(100);
      const full = await as(pinner).put(`/documents/${shared.id}/pin`);
      expectError(full, 409, 'CONFLICT');
      expect(full.body.error.message).toBe('You can pin at most 100 documents; unpin one first.');
    });

    it('assignees: creator or admin, members only', async () => {
      const doc = await seedDocument(t, a.member, { visibility: 'organization' });
      const res = await as(a.member)
        .put(`/documents/${doc.id}/assignees`)
        .send({ userIds: [a.colleague.userId, a.member.userId, a.colleague.userId] })
        .expect(200);
      expect(res.body.assigneeIds).toEqual([a.colleague.userId, a.member.userId]);
      expectValidation(
        await as(a.member)
          .put(`/documents/${doc.id}/assignees`)
          .send({ userIds: [other.member.userId] }),
        'userIds.0',
      );
      expectValidation(
        await as(a.member)
          .put(`/documents/${doc.id}/assignees`)
          .send({ userIds: ['x'] }),
        'userIds',
      );
      expectError(
        await as(a.colleague).put(`/documents/${doc.id}/assignees`).send({ userIds: [] }),
        403,
        'FORBIDDEN',
      );
      // assignees widen nothing: a private document stays the creator's
      const secret = await seedDocument(t, a.member);
      await as(a.member)
        .put(`/documents/${secret.id}/assignees`)
        .send({ userIds: [a.colleague.userId] })
        .expect(200);
      expectNotFound(await as(a.colleague).put(`/documents/${secret.id}/pin`), 'Document');
      const byAdmin = await as(a.admin)
        .put(`/documents/${secret.id}/assignees`)
        .send({ userIds: [] })
        .expect(200);
      expect(byAdmin.body.assigneeIds).toEqual([]);
    });

    it('listings: whoever may edit; kept once as sent; detached', async () => {
      const doc = await seedDocument(t, a.member, { visibility: 'organization' });
      const one = await as(a.colleague).put(`/documents/${doc.id}/listings/LST-1`).expect(200);
      expect(one.body).toMatchObject({ attachedListingIds: ['LST-1'], attachedListingCount: 1 });
      await as(a.member).put(`/documents/${doc.id}/listings/LST-1`).expect(200);
      const two = await as(a.member)
        .put(`/documents/${doc.id}/listings/${encodeURIComponent('b 2')}`)
        .expect(200);
      expect(two.body).toMatchObject({ attachedListingIds: ['LST-1', 'b 2'], attachedListingCount: 2 });
      const back = await as(a.member).delete(`/documents/${doc.id}/listings/LST-1`).expect(200);
      expect(back.body).toMatchObject({ attachedListingIds: ['b 2'], attachedListingCount: 1 });
      await as(a.member).delete(`/documents/${doc.id}/listings/LST-1`).expect(200);
      expectValidation(
        await as(a.member).put(`/documents/${doc.id}/listings/${'x'.repeat(101)}`),
        'listingId',
      );
      const secret = await seedDocument(t, a.colleague);
      expectNotFound(await as(a.member).put(`/documents/${secret.id}/listings/LST-1`), 'Document');
    });

    it('delete: creator or admin; pins and lead attachments go; a shared link is remembered as gone', async () => {
      const doc = await seedDocument(t, a.member, { visibility: 'public', shareToken: `tok-${Date.now()}` });
      const lead = await t.seed.lead(a.member);
      await sql(
        t,
        `insert into document_lead_attachments (organization_id, document_id, lead_id, attached_by, attached_at)
         values (?, ?, ?, ?, now())`,
        [a.member.organizationId, doc.id, lead.id, a.member.userId],
      );
      await as(a.colleague).put(`/documents/${doc.id}/pin`).expect(204);
      expectError(await as(a.colleague).delete(`/documents/${doc.id}`), 403, 'FORBIDDEN');
      expectNotFound(await as(other.admin).delete(`/documents/${doc.id}`), 'Document');
      await as(a.member).delete(`/documents/${doc.id}`).expect(204);
      expectNotFound(await as(a.member).delete(`/documents/${doc.id}`), 'Document');
      expect(await count(t, `select count(*) as n from document_pins where document_id = ?`, [doc.id])).toBe(
        0,
      );
      expect(
        await count(t, `select count(*) as n from document_lead_attachments where document_id = ?`, [doc.id]),
      ).toBe(0);
      expect(
        await count(t, `select count(*) as n from document_gone_links where token = ?`, [doc.shareToken]),
      ).toBe(1);

      const secret = await seedDocument(t, a.colleague);
      expectNotFound(await as(a.member).delete(`/documents/${secret.id}`), 'Document');
      await as(a.admin).delete(`/documents/${secret.id}`).expect(204);
    });
  });

  describe('uploads', () => {
    const upload = (who: SignedIn, bytes: Buffer, fileName: string, fields: Record<string, string> = {}) => {
      let req = as(who).post('/documents/files').attach('file', bytes, fileName);
      for (const [name, value] of Object.entries(fields)) req = req.field(name, value);
      return req;
    };

    it('a pdf by its bytes, any other file as `file`; bytes kept, never returned; delete drops them', async () => {
      const target = await folder(a.member, 'Uploads');
      const pdfBytes = Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n', 'latin1');
      const pdf = await upload(a.member, pdfBytes, 'floor-plan.bin', { folderId: target.id }).expect(201);
      expect(pdf.body).toMatchObject({
        kind: 'pdf',
        title: 'floor-plan.bin',
        visibility: 'private',
        body: '',
        sizeBytes: pdfBytes.length,
        folderId: target.id,
        createdBy: a.member.userId,
        file: { fileName: 'floor-plan.bin', mimeType: 'application/pdf' },
      });
      expect(Object.keys(pdf.body.file).sort()).toEqual(['fileName', 'mimeType']);
      const blobs = t.get(BlobStorage);
      expect(await blobs.get(pdf.body.id)).toEqual(pdfBytes);

      const text = await upload(a.member, Buffer.from('not %PDF- at the start'), 'Notes über.pdf', {
        title: 'My notes',
      }).expect(201);
      expect(text.body).toMatchObject({
        kind: 'file',
        title: 'My notes',
        sizeBytes: 22,
        folderId: null,
        // named .pdf (so sent as application/pdf) but not PDF bytes
        file: { fileName: 'Notes über.pdf', mimeType: 'application/octet-stream' },
      });

      await as(a.member).delete(`/documents/${pdf.body.id}`).expect(204);
      expect(await blobs.get(pdf.body.id)).toBeNull();
      await as(a.member).delete(`/documents/${text.body.id}`).expect(204);
      const csv = await upload(a.member, Buffer.from('a,b\n1,2\n'), 'leads.csv').expect(201);
      expect(csv.body).toMatchObject({ kind: 'file', title: 'leads.csv', file: { mimeType: 'text/csv' } });
      await as(a.member).delete(`/documents/${csv.body.id}`).expect(204);
    });

    it('over 25 MB → 413; JSON → 415; no file or a bad folder → 400/404; multipart elsewhere → 400', async () => {
      const big = await upload(a.member, Buffer.alloc(25 * 1024 * 1024 + 1, 1), 'big.bin');
      expectError(big, 413, 'PAYLOAD_TOO_LARGE');
      expect(big.body.error.message).toBe('The file is larger than 25 MB.');
      const exactly = await upload(a.member, Buffer.alloc(25 * 1024 * 1024, 1), 'exactly.bin').expect(201);
      expect(exactly.body.sizeBytes).toBe(25 * 1024 * 1024);
      await as(a.member).delete(`/documents/${exactly.body.id}`).expect(204);

      expectError(
        await as(a.member).post('/documents/files').send({ title: 'x' }),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      );
      expectError(await as(a.member).post('/documents/files'), 415, 'UNSUPPORTED_MEDIA_TYPE');
      expectError(
        await as(a.member).post('/documents/files').set('Content-Type', 'text/plain').send('%PDF-1.7'),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      );
      expectValidation(await as(a.member).post('/documents/files').field('title', 'no file'), 'file');
      expectValidation(await upload(a.member, Buffer.from('x'), 'a.txt', { title: '' }), 'title');
      const theirs = await folder(other.admin, 'Their uploads');
      expectNotFound(await upload(a.member, Buffer.from('x'), 'a.txt', { folderId: theirs.id }), 'Folder');
      const wrongField = await as(a.member)
        .post('/documents/files')
        .attach('upload', Buffer.from('x'), 'a.txt');
      expectValidation(wrongField, 'upload');
      // the JSON-only rule holds on every other route
      expectError(await as(a.member).post('/document-folders').field('name', 'Form'), 400, 'BAD_REQUEST');
    });
  });

  describe('whiteboards', () => {
    it('the outline orders texts by y then x; the scene is kept', async () => {
      const elements = [
        { type: 'text', text: 'Kitchen', x: 300, y: 40 },
        { type: 'rectangle', x: 0, y: 0 },
        { type: 'sticky', text: 'Entrance', x: 10, y: 5 },
        { type: 'text', text: 'Bath', x: 20, y: 40 },
        { type: 'text', text: '', x: 0, y: 1 },
      ];
      const res = await as(a.member)
        .post('/documents/whiteboards')
        .send({ title: 'Plan', scene: { elements } })
        .expect(201);
      expect(res.body).toMatchObject({
        kind: 'whiteboard',
        title: 'Plan',
        visibility: 'private',
        body: '- Entrance\n- Bath\n- Kitchen',
        sizeBytes: Buffer.byteLength('- Entrance\n- Bath\n- Kitchen'),
        folderId: null,
      });
      expect(res.body.file).toBeUndefined();
      const [row] = await sql<{ scene: unknown }>(t, `select scene from documents where id = ?`, [
        res.body.id,
      ]);
      expect(row.scene).toEqual({ elements });
    });

    it('refuses more than 5,000 elements and malformed ones', async () => {
      const element = { type: 'text', text: 'a', x: 0, y: 0 };
      await as(a.member)
        .post('/documents/whiteboards')
        .send({ title: 'Max', scene: { elements: Array(5000).fill(element) } })
        .expect(201);
      expectValidation(
        await as(a.member)
          .post('/documents/whiteboards')
          .send({ title: 'Over', scene: { elements: Array(5001).fill(element) } }),
        'scene.elements',
      );
      expectValidation(
        await as(a.member)
          .post('/documents/whiteboards')
          .send({ title: 'Bad', scene: { elements: [{ type: 'text', x: 'a', y: 0 }] } }),
        'scene.elements.0.x',
      );
      expectValidation(
        await as(a.member).post('/documents/whiteboards').send({ title: 'No scene' }),
        'scene',
      );
      expectValidation(
        await as(a.member)
          .post('/documents/whiteboards')
          .send({ title: '', scene: { elements: [] } }),
        'title',
      );
    });
  });

  it('every session route needs an active plan (403 SUBSCRIPTION_REQUIRED)', async () => {
    const off = await t.seed.organization({ name: 'Lapsed Agency' });
    const f = await folder(off, 'Kept');
    const doc = await seedDocument(t, off, { visibility: 'organization' });
    await t.seed.plan(off, false);
    const calls = [
      as(off).post('/document-folders').send({ name: 'New' }),
      as(off).patch(`/document-folders/${f.id}`).send({ name: 'Renamed' }),
      as(off).delete(`/document-folders/${f.id}`),
      as(off).put(`/documents/${doc.id}/folder`).send({ folderId: null }),
      as(off).put(`/documents/${doc.id}/pin`),
      as(off).delete(`/documents/${doc.id}/pin`),
      as(off).put(`/documents/${doc.id}/assignees`).send({ userIds: [] }),
      as(off).put(`/documents/${doc.id}/listings/L1`),
      as(off).delete(`/documents/${doc.id}/listings/L1`),
      as(off).delete(`/documents/${doc.id}`),
      as(off).post('/documents/files').attach('file', Buffer.from('x'), 'a.txt'),
      as(off)
        .post('/documents/whiteboards')
        .send({ title: 'W', scene: { elements: [] } }),
    ];
    for (const res of await Promise.all(calls)) expectError(res, 403, 'SUBSCRIPTION_REQUIRED');
    expect(await count(t, `select count(*) as n from documents where id = ?`, [doc.id])).toBe(1);
  });
});
