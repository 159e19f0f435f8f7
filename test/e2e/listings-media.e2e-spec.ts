import { createHash } from 'node:crypto';
import type { Response } from 'supertest';
import { BlobStorage } from '@app/platform';
import { Agency, api, asSession, count, expectError, SignedIn, sql, TestApp, codeOf } from '../fixtures';
import { jpegBytes, photoBytes, pngBytes } from '../fixtures/images';

/**
 * Listing photos through HTTP (issue 16 item 4, INTERFACES.md "Listings"): `POST
 * /properties/media/upload` (type by content only, sides 200-12,000 px, 15 MB / 100 MB / 20 files,
 * all checked before any is stored, kept once per content, appended to an own listing with a
 * history row) and the public `GET /media/{id}.{ext}` (immutable, nosniff, ETag). What is kept of
 * an upload (clean re-encodes, variants) is tested in uploaded-images.e2e-spec.ts.
 */

/** The error code in the legacy shape (`{code}`) or the envelope (`{error: {code}}`). */
const expectCode = (res: Response, status: number, code: string) =>
  expect({ status: res.status, code: codeOf(res) }).toEqual({ status, code });

const MB = 1024 * 1024;
const MISSING = '0190a0a0-0000-7000-8000-000000000001';
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('Listings: media', () => {
  let t: TestApp;
  let a: Agency;
  let other: Agency;
  /** a's admin key with media:write (and `keyId` for history), other's likewise. */
  let adminKey: { id: string; key: string };
  let otherKey: string;

  const upload = (key: string, files: { bytes: Buffer; name: string; type?: string }[], fields = {}) => {
    let req = api(t, key).post('/properties/media/upload');
    for (const [name, value] of Object.entries(fields)) req = req.field(name, value as string);
    for (const file of files) {
      req = req.attach('files', file.bytes, {
        filename: file.name,
        contentType: file.type ?? 'application/octet-stream',
      });
    }
    return req;
  };
  const mediaCount = (organizationId: string) =>
    count(t, 'select count(*) as n from media where organization_id = ?', [organizationId]);
  const pathOf = (url: string) => new URL(url).pathname;
  /** The blob keys of one upload's clean files: the whole photo, then each variant width in both types. */
  const keysOf = (bytes: Buffer, ext: string, widths: number[]) => [
    `media-${sha(bytes)}-full.${ext}`,
    ...widths.flatMap((w) => [`media-${sha(bytes)}-${w}.webp`, `media-${sha(bytes)}-${w}.jpg`]),
  ];

  /** An own listing row of `owner`'s agency (the listing routes are another helper's). */
  const insertListing = async (
    owner: SignedIn,
    extra: { images?: unknown[]; source?: string; deleted?: boolean } = {},
  ): Promise<string> => {
    const [row] = await sql<{ id: string }>(
      t,
      `insert into listings (id, organization_id, source, external_id, title, operation, property_type, status,
                             price, currency, country_code, city, images, created_at, updated_at, deleted_at)
       values (gen_random_uuid(), ?, ?, ?, 'Sea view flat', 'sale', 'apartment', 'ACTIVE', 250000, 'EUR', 'ES',
               'Málaga', ?::jsonb, ?, ?, ?)
       returning id`,
      [
        owner.organizationId,
        extra.source ?? 'internal',
        extra.source && extra.source !== 'internal' ? `ext-${Math.random()}` : null,
        JSON.stringify(extra.images ?? []),
        new Date('2026-11-01T10:00:00Z'),
        new Date('2026-11-01T10:00:00Z'),
        extra.deleted ? new Date('2026-11-02T10:00:00Z') : null,
      ],
    );
    return row.id;
  };

  beforeAll(async () => {
    t = await TestApp.start();
    a = await t.seed.agency('Casa Agency');
    other = await t.seed.agency('Other Agency');
    adminKey = await t.seed.apiKey(a.admin, ['properties:read', 'properties:write', 'media:write']);
    otherKey = (await t.seed.apiKey(other.admin, ['media:write'])).key;
  });
  afterAll(() => t.stop());

  describe('upload', () => {
    it('a PNG named .jpg and sent as image/jpeg is taken as image/png; 201 with its public URL', async () => {
      const bytes = await photoBytes('png', 1024, 768);
      const res = await upload(adminKey.key, [{ bytes, name: 'photo.jpg', type: 'image/jpeg' }]).expect(201);
      const variant = (width: number, height: number, ext: string) => ({
        width,
        height,
        mimeType: ext === 'jpg' ? 'image/jpeg' : 'image/webp',
        url: `http://localhost:3000/media/${res.body.data[0].id}/${width}.${ext}`,
      });
      expect(res.body).toEqual({
        data: [
          {
            id: expect.stringMatching(/^[0-9a-f-]{36}$/),
            url: expect.stringMatching(/^http:\/\/localhost:3000\/media\/[0-9a-f-]{36}\.png$/),
            mimeType: 'image/png',
            sizeBytes: bytes.length,
            width: 1024,
            height: 768,
            sha256: sha(bytes),
            variants: [
              variant(320, 240, 'webp'),
              variant(320, 240, 'jpg'),
              variant(1024, 768, 'webp'),
              variant(1024, 768, 'jpg'),
            ],
          },
        ],
      });
      expect(res.body.data[0].url).toBe(`http://localhost:3000/media/${res.body.data[0].id}.png`);
      const [row] = await sql(t, 'select * from media where id = ?', [res.body.data[0].id]);
      expect(row).toMatchObject({
        organization_id: a.admin.organizationId,
        sha256: sha(bytes),
        mime_type: 'image/png',
        extension: 'png',
        size_bytes: bytes.length,
        width: 1024,
        height: 768,
        created_by: a.admin.userId,
      });
    });

    it('takes JPEG, PNG and WebP together, answered in the order sent', async () => {
      const files = [
        { bytes: await photoBytes('jpeg', 1600, 1200), name: 'a.png' },
        { bytes: await photoBytes('webp', 800, 12_000), name: 'b' },
        { bytes: await photoBytes('png', 200, 200), name: 'c.webp' },
      ];
      const res = await upload(adminKey.key, files).expect(201);
      expect(
        res.body.data.map((m: { mimeType: string; width: number; height: number; url: string }) => [
          m.mimeType,
          m.width,
          m.height,
          m.url.split('.').pop(),
        ]),
      ).toEqual([
        ['image/jpeg', 1600, 1200, 'jpg'],
        ['image/webp', 800, 12_000, 'webp'],
        ['image/png', 200, 200, 'png'],
      ]);
    });

    it('text named .png → 400 MEDIA_TYPE_NOT_ALLOWED; with good files beside it nothing is stored', async () => {
      const before = await mediaCount(a.admin.organizationId);
      const text = Buffer.from('just some text, not an image at all');
      expectCode(
        await upload(adminKey.key, [{ bytes: text, name: 'house.png', type: 'image/png' }]),
        400,
        'MEDIA_TYPE_NOT_ALLOWED',
      );
      const good = pngBytes(640, 480);
      const mixed = await upload(adminKey.key, [
        { bytes: good, name: 'good.png' },
        { bytes: Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'), name: 'anim.gif' },
      ]);
      expectCode(mixed, 400, 'MEDIA_TYPE_NOT_ALLOWED');
      expect(JSON.stringify(mixed.body)).toContain('files[1]');
      expect(await mediaCount(a.admin.organizationId)).toBe(before);
      expect(await t.get(BlobStorage).has(`media-${sha(good)}-full.png`)).toBe(false);
    });

    it('a side under 200 or over 12,000 px → 400 VALIDATION_FAILED naming files[i]; nothing stored', async () => {
      const before = await mediaCount(a.admin.organizationId);
      const good = pngBytes(640, 480);
      const small = await upload(adminKey.key, [
        { bytes: good, name: 'good.png' },
        { bytes: pngBytes(100, 100), name: 'icon.png' },
      ]);
      expectCode(small, 400, 'VALIDATION_FAILED');
      expect(JSON.stringify(small.body)).toContain('files[1]');
      expectCode(
        await upload(adminKey.key, [{ bytes: jpegBytes(12_001, 300), name: 'pano.jpg' }]),
        400,
        'VALIDATION_FAILED',
      );
      expect(await mediaCount(a.admin.organizationId)).toBe(before);
      expect(await t.get(BlobStorage).has(`media-${sha(good)}-full.png`)).toBe(false);
    });

    it('a file over 15 MB → 413; exactly 15 MB is fine', async () => {
      const big = await upload(adminKey.key, [
        { bytes: pngBytes(800, 600, { padding: 16 * MB }), name: 'big.png' },
      ]);
      expectCode(big, 413, 'PAYLOAD_TOO_LARGE');
      const exact = await photoBytes('png', 800, 600);
      const padded = Buffer.concat([exact, Buffer.alloc(15 * MB - exact.length, 1)]);
      const res = await upload(adminKey.key, [{ bytes: padded, name: 'exact.png' }]).expect(201);
      expect(res.body.data[0].sizeBytes).toBe(15 * MB);
    });

    it('all files over 100 MB together → 413, nothing stored', async () => {
      const before = await mediaCount(a.admin.organizationId);
      const files = Array.from({ length: 7 }, (_, i) => ({
        bytes: pngBytes(800, 600, { padding: 15 * MB - 100 }),
        name: `p${i}.png`,
      }));
      expectCode(await upload(adminKey.key, files), 413, 'PAYLOAD_TOO_LARGE');
      expect(await mediaCount(a.admin.organizationId)).toBe(before);
    });

    it('21 files → 400 VALIDATION_FAILED (20 at most); 20 are fine', async () => {
      const files = (n: number) =>
        Array.from({ length: n }, (_, i) => ({ bytes: pngBytes(300, 300), name: `${i}.png` }));
      const photos = async (n: number) =>
        Promise.all(
          Array.from({ length: n }, async (_, i) => ({
            bytes: await photoBytes('png', 300, 300),
            name: `${i}.png`,
          })),
        );
      const many = await upload(adminKey.key, files(21));
      expectCode(many, 400, 'VALIDATION_FAILED');
      expect(JSON.stringify(many.body)).toContain('files');
      expect((await upload(adminKey.key, await photos(20)).expect(201)).body.data).toHaveLength(20);
    });

    it('JSON → 415; no file → 400; files in another field → 400; a bad propertyId → 400', async () => {
      expectCode(
        await api(t, adminKey.key).post('/properties/media/upload').send({ files: [] }),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      );
      const none = await api(t, adminKey.key).post('/properties/media/upload').field('propertyId', MISSING);
      expectCode(none, 400, 'VALIDATION_FAILED');
      const wrongField = await api(t, adminKey.key)
        .post('/properties/media/upload')
        .attach('file', pngBytes(300, 300), 'a.png');
      expectCode(wrongField, 400, 'VALIDATION_FAILED');
      expectCode(
        await upload(adminKey.key, [{ bytes: pngBytes(300, 300), name: 'a.png' }], { propertyId: 'nope' }),
        400,
        'VALIDATION_FAILED',
      );
    });

    it('the same bytes twice: one set of blobs, the agency’s one row again; another agency gets its own row', async () => {
      const bytes = await photoBytes('png', 900, 600);
      const blobs = t.get(BlobStorage);
      const put = jest.spyOn(blobs, 'put');
      try {
        const first = (await upload(adminKey.key, [{ bytes, name: 'one.png' }]).expect(201)).body.data[0];
        const again = (
          await upload(adminKey.key, [
            { bytes, name: 'two.png' },
            { bytes, name: 'three.png' },
          ]).expect(201)
        ).body.data;
        expect(again.map((m: { id: string }) => m.id)).toEqual([first.id, first.id]);
        const theirs = (await upload(otherKey, [{ bytes, name: 'mine.png' }]).expect(201)).body.data[0];
        expect(theirs.id).not.toBe(first.id);
        expect(theirs.sha256).toBe(first.sha256);
        expect(put.mock.calls.map(([key]) => key)).toEqual(keysOf(bytes, 'png', [320, 900]));
        expect(await count(t, 'select count(*) as n from media where sha256 = ?', [sha(bytes)])).toBe(2);
        expect(theirs.variants.map((v: { width: number }) => v.width)).toEqual([320, 320, 900, 900]);
        // each agency's URL serves the one clean blob
        const clean = await blobs.get(`media-${sha(bytes)}-full.png`);
        for (const url of [first.url, theirs.url]) {
          expect((await t.http.get(pathOf(url)).expect(200)).body).toEqual(clean);
        }
      } finally {
        put.mockRestore();
      }
    });
  });

  describe('appending to a listing', () => {
    it('appends the photos to an own listing: images, version + 1, updated now, a history row', async () => {
      const existing = { mediaId: MISSING, extension: 'jpg', url: null, caption: 'Front' };
      const listingId = await insertListing(a.admin, { images: [existing] });
      const now = t.clock.now();
      const res = await upload(
        adminKey.key,
        [
          { bytes: await photoBytes('jpeg', 1200, 800), name: 'x.jpg' },
          { bytes: await photoBytes('png', 1200, 800), name: 'y.png' },
        ],
        { propertyId: listingId },
      ).expect(201);
      const [jpg, png] = res.body.data;
      const [listing] = await sql<{ images: unknown[]; version: number; updated_at: Date }>(
        t,
        'select images, version, updated_at from listings where id = ?',
        [listingId],
      );
      expect(listing.images).toEqual([
        existing,
        { mediaId: jpg.id, extension: 'jpg', url: null, caption: null },
        { mediaId: png.id, extension: 'png', url: null, caption: null },
      ]);
      expect(listing.version).toBe(2);
      expect(new Date(listing.updated_at).getTime()).toBe(now.getTime());
      expect(await sql(t, 'select * from listing_history where listing_id = ?', [listingId])).toEqual([
        expect.objectContaining({
          organization_id: a.admin.organizationId,
          source: `apikey:${adminKey.id}`,
          changed_by: a.admin.userId,
          changed_fields: ['images'],
        }),
      ]);
    });

    it('more than 100 images in all → 400 VALIDATION_FAILED, the listing and media untouched', async () => {
      const images = Array.from({ length: 99 }, () => ({
        mediaId: MISSING,
        extension: 'jpg',
        url: null,
        caption: null,
      }));
      const listingId = await insertListing(a.admin, { images });
      const before = await mediaCount(a.admin.organizationId);
      const two = [
        { bytes: await photoBytes('png', 400, 400), name: 'a.png' },
        { bytes: await photoBytes('png', 400, 400), name: 'b.png' },
      ];
      expectCode(await upload(adminKey.key, two, { propertyId: listingId }), 400, 'VALIDATION_FAILED');
      expect(await mediaCount(a.admin.organizationId)).toBe(before);
      const [listing] = await sql<{ n: number; version: number }>(
        t,
        'select jsonb_array_length(images) as n, version from listings where id = ?',
        [listingId],
      );
      expect(listing).toEqual({ n: 99, version: 1 });
      await upload(adminKey.key, two.slice(0, 1), { propertyId: listingId }).expect(201);
      expect(
        await count(t, 'select jsonb_array_length(images) as n from listings where id = ?', [listingId]),
      ).toBe(100);
    });

    it('another agency’s, a deleted, a feed’s or an unknown listing → 404 Listing not found., nothing stored', async () => {
      const theirs = await insertListing(other.admin);
      const deleted = await insertListing(a.admin, { deleted: true });
      const feed = await insertListing(a.admin, { source: 'kyero' });
      const before = await mediaCount(a.admin.organizationId);
      for (const propertyId of [theirs, deleted, feed, MISSING]) {
        const res = await upload(adminKey.key, [{ bytes: pngBytes(500, 500), name: 'a.png' }], {
          propertyId,
        });
        expectCode(res, 404, 'NOT_FOUND');
        expect(res.body.message ?? res.body.error?.message).toBe('Listing not found.');
      }
      expect(await mediaCount(a.admin.organizationId)).toBe(before);
      expect(await count(t, 'select count(*) as n from listing_history where listing_id = ?', [theirs])).toBe(
        0,
      );
    });
  });

  describe('who may upload', () => {
    const one = async () => [{ bytes: await photoBytes('png', 300, 300), name: 'a.png' }];

    it('a member’s key with media:write → 403 ORG_ADMIN_REQUIRED; the admin’s goes through', async () => {
      const changeRole = (person: SignedIn, role: 'admin' | 'member') =>
        asSession(t.http.patch(`/organization/members/${person.userId}`), a.admin)
          .send({ role })
          .expect(200);
      // only an admin can grant media:write: the member makes the key while promoted
      await changeRole(a.colleague, 'admin');
      const key = (await t.seed.apiKey(a.colleague, ['media:write'])).key;
      await changeRole(a.colleague, 'member');
      expectCode(await upload(key, await one()), 403, 'ORG_ADMIN_REQUIRED');
      await upload(adminKey.key, await one()).expect(201);
    });

    it('a key without media:write → 403 API_KEY_SCOPE_MISSING; a session → 401', async () => {
      const readOnly = (await t.seed.apiKey(a.admin, ['properties:read'])).key;
      expectCode(await upload(readOnly, await one()), 403, 'API_KEY_SCOPE_MISSING');
      const session = await asSession(t.http.post('/properties/media/upload'), a.admin).attach(
        'files',
        pngBytes(300, 300),
        'a.png',
      );
      expectCode(session, 401, 'UNAUTHENTICATED');
    });
  });

  describe('GET /media/{id}.{ext}', () => {
    it('serves the clean bytes, public, immutable, nosniff, ETag their sha256; If-None-Match → 304', async () => {
      const bytes = await photoBytes('webp', 640, 480);
      const media = (await upload(adminKey.key, [{ bytes, name: 'p.webp' }]).expect(201)).body.data[0];
      const clean = (await t.get(BlobStorage).get(`media-${sha(bytes)}-full.webp`)) as Buffer;
      const res = await t.http.get(pathOf(media.url)).buffer(true).expect(200);
      expect(res.headers['content-type']).toBe('image/webp');
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers.etag).toBe(`"${sha(clean)}"`);
      expect(Buffer.compare(res.body as Buffer, clean)).toBe(0);
      await t.http
        .get(pathOf(media.url))
        .set('If-None-Match', `"${sha(clean)}"`)
        .expect(304);
      // an API key or session changes nothing: the route is public
      await api(t, otherKey).get(pathOf(media.url)).expect(200);
    });

    it('an unknown id, another extension or a malformed name → 404 in the envelope', async () => {
      const media = (
        await upload(adminKey.key, [{ bytes: await photoBytes('png', 300, 300), name: 'p.png' }]).expect(201)
      ).body.data[0];
      for (const path of [
        `/media/${MISSING}.png`,
        `/media/${media.id}.jpg`,
        `/media/${media.id}.gif`,
        '/media/not-an-id.png',
      ]) {
        const res = await t.http.get(path);
        expectError(res, 404, 'NOT_FOUND');
        expect(res.body.error.message).toBe('Media not found.');
      }
    });
  });
});
