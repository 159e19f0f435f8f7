import { createHash } from 'node:crypto';
import exifr from 'exifr';
import sharp from 'sharp';
import { EntityManager } from '@mikro-orm/postgresql';
import { MediaCleaner } from '@app/listings';
import { BlobStorage } from '@app/platform';
import {
  Agency,
  agentOf,
  api,
  asSession,
  count,
  sql,
  createListing,
  expectNotFound,
  expectValidation,
  TestApp,
} from '../fixtures';
import { photoBytes, pngHeaderBytes } from '../fixtures/images';

/**
 * What is kept of an uploaded image (docs/security/uploaded-images.md): a listing photo with GPS
 * EXIF goes in through the real route and every stored file read back over HTTP (the whole photo
 * and each variant) has no EXIF, no GPS, no serial; the listing record lists the variants; the
 * variant route; a 30,000 × 30,000 header and a 64-megapixel-plus one are refused before any
 * decode, nothing stored; a document's image is kept clean too.
 */

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const GPS_EXIF = {
  IFD0: { Make: 'Canon', Model: 'EOS R5' },
  IFD2: { BodySerialNumber: 'SN-0042', DateTimeOriginal: '2026:05:01 10:11:12' },
  IFD3: {
    GPSLatitudeRef: 'N',
    GPSLatitude: '36/1 43/1 1234/100',
    GPSLongitudeRef: 'W',
    GPSLongitude: '4/1 25/1 0/1',
  },
};

interface VariantJson {
  width: number;
  height: number;
  mimeType: string;
  url: string;
}

/** Nothing a camera or an editor wrote is left in `bytes`. */
async function expectClean(bytes: Buffer): Promise<void> {
  const metadata = await sharp(bytes).metadata();
  expect({ exif: metadata.exif, xmp: metadata.xmp, iptc: metadata.iptc, icc: metadata.icc }).toEqual({
    exif: undefined,
    xmp: undefined,
    iptc: undefined,
    icc: undefined,
  });
  if (metadata.format !== 'webp') expect(await exifr.gps(bytes)).toBeUndefined();
  expect(bytes.includes(Buffer.from('SN-0042'))).toBe(false);
}

describe('Uploaded images: kept clean', () => {
  let t: TestApp;
  let a: Agency;
  let key: string;

  const upload = (files: { bytes: Buffer; name: string }[], fields: Record<string, string> = {}) => {
    let req = api(t, key).post('/properties/media/upload');
    for (const [name, value] of Object.entries(fields)) req = req.field(name, value);
    for (const file of files) req = req.attach('files', file.bytes, file.name);
    return req;
  };
  const pathOf = (url: string) => new URL(url).pathname;
  const getBytes = async (url: string) =>
    (await t.http.get(pathOf(url)).buffer(true).expect(200)).body as Buffer;
  const mediaCount = () =>
    count(t, 'select count(*) as n from media where organization_id = ?', [a.admin.organizationId]);

  beforeAll(async () => {
    t = await TestApp.start();
    a = await t.seed.agency('Casa Agency');
    key = (await t.seed.apiKey(a.admin, ['properties:read', 'properties:write', 'media:write'])).key;
  });
  afterAll(() => t.stop());

  it('a GPS-tagged JPEG on a listing that hides its location: no file served keeps EXIF or GPS', async () => {
    const listing = await createListing(t, key, {
      agentId: await agentOf(t, a.admin),
      coordinates: { lat: 36.7201, lon: -4.4167 },
      showExactLocation: false,
    });
    const bytes = await photoBytes('jpeg', 3000, 2000, { exif: GPS_EXIF });
    expect(await exifr.gps(bytes)).toEqual({
      latitude: expect.closeTo(36.72, 2),
      longitude: expect.closeTo(-4.42, 2),
    });
    const res = await upload([{ bytes, name: 'IMG_0001.JPG' }], { propertyId: listing.id }).expect(201);
    const [media] = res.body.data;
    expect(media).toMatchObject({ mimeType: 'image/jpeg', width: 3000, height: 2000, sha256: sha(bytes) });
    expect(media.variants.map((v: VariantJson) => [v.width, v.height, v.mimeType, pathOf(v.url)])).toEqual(
      [320, 1024, 2048].flatMap((width) => {
        const height = Math.round((width * 2000) / 3000);
        return [
          [width, height, 'image/webp', `/media/${media.id}/${width}.webp`],
          [width, height, 'image/jpeg', `/media/${media.id}/${width}.jpg`],
        ];
      }),
    );
    for (const url of [media.url, ...media.variants.map((v: VariantJson) => v.url)]) {
      await expectClean(await getBytes(url));
    }
    for (const variant of media.variants as VariantJson[]) {
      const served = await sharp(await getBytes(variant.url)).metadata();
      expect([served.format, served.width, served.height]).toEqual([
        variant.mimeType === 'image/webp' ? 'webp' : 'jpeg',
        variant.width,
        variant.height,
      ]);
    }
    // the upload itself is kept nowhere
    expect(await t.get(BlobStorage).has(`media-${sha(bytes)}`)).toBe(false);

    const record = (await api(t, key).get(`/properties/${listing.id}`).expect(200)).body;
    expect(record.images).toEqual([
      { mediaId: media.id, url: media.url, caption: null, variants: media.variants },
    ]);
  });

  it('a variant: immutable, nosniff, ETag its own hash, 304; a width or type it lacks → 404', async () => {
    const bytes = await photoBytes('png', 800, 600);
    const [media] = (await upload([{ bytes, name: 'plan.png' }]).expect(201)).body.data;
    expect(media.variants.map((v: VariantJson) => v.width)).toEqual([320, 320, 800, 800]);
    const path = `/media/${media.id}/800.webp`;
    const res = await t.http.get(path).buffer(true).expect(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers.etag).toBe(`"${sha(res.body as Buffer)}"`);
    await t.http.get(path).set('If-None-Match', res.headers.etag).expect(304);
    for (const missing of [
      `/media/${media.id}/1024.webp`,
      `/media/${media.id}/2048.jpg`,
      `/media/${media.id}/0800.webp`,
      `/media/${media.id}/800.png`,
      `/media/${media.id}/800.webp.jpg`,
      `/media/${media.id}/99999999999.webp`,
      '/media/not-an-id/320.webp',
      '/media/0190a0a0-0000-7000-8000-000000000001/320.webp',
    ]) {
      expectNotFound(await t.http.get(missing), 'Media');
    }
  });

  it('a 30,000 × 30,000 PNG header, or 8,001 × 8,000 (over 64 megapixels) → 400, nothing stored', async () => {
    const before = await mediaCount();
    const put = jest.spyOn(t.get(BlobStorage), 'put');
    try {
      for (const [width, height] of [
        [30_000, 30_000],
        [8_001, 8_000],
      ]) {
        const res = await upload([
          { bytes: await photoBytes('png', 400, 300), name: 'fine.png' },
          { bytes: pngHeaderBytes(width, height), name: 'bomb.png' },
        ]);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          statusCode: 400,
          code: 'VALIDATION_FAILED',
          message: expect.stringContaining('files[1]'),
          missingScopes: [],
          requiredScopes: ['media:write'],
        });
        expect(res.body.message).toContain(`${width}x${height}`);
      }
      expect(put).not.toHaveBeenCalled();
      expect(await mediaCount()).toBe(before);
    } finally {
      put.mockRestore();
    }
  });

  it('a good header over damaged pixels → 400 VALIDATION_FAILED naming files[0], no row', async () => {
    const before = await mediaCount();
    const res = await upload([{ bytes: pngHeaderBytes(640, 480), name: 'broken.png' }]);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: expect.stringContaining('files[0]'),
    });
    expect(await mediaCount()).toBe(before);
  });

  it('a document’s image is kept as its clean re-encode; an image past the limit → 400 naming file', async () => {
    const bytes = await photoBytes('jpeg', 1600, 1200, { exif: GPS_EXIF });
    const res = await asSession(t.http.post('/documents/files'), a.member)
      .attach('file', bytes, { filename: 'site-visit.jpg', contentType: 'application/octet-stream' })
      .expect(201);
    const kept = (await t.get(BlobStorage).get(res.body.id)) as Buffer;
    await expectClean(kept);
    expect(await sharp(kept).metadata()).toMatchObject({ format: 'jpeg', width: 1600, height: 1200 });
    expect(res.body).toMatchObject({
      kind: 'file',
      sizeBytes: kept.length,
      file: { fileName: 'site-visit.jpg', mimeType: 'image/jpeg' },
    });
    const bomb = await asSession(t.http.post('/documents/files'), a.member).attach(
      'file',
      pngHeaderBytes(30_000, 30_000),
      'bomb.png',
    );
    expectValidation(bomb, 'file');
  });

  it('media:clean re-encodes a photo stored before the cleaning and deletes the stored upload', async () => {
    const bytes = await photoBytes('jpeg', 1200, 900, { exif: GPS_EXIF });
    const blobs = t.get(BlobStorage);
    await blobs.put(`media-${sha(bytes)}`, bytes);
    const [row] = await sql<{ id: string }>(
      t,
      `insert into media (id, organization_id, sha256, mime_type, extension, size_bytes, width, height, created_by, created_at)
       values (gen_random_uuid(), ?, ?, 'image/jpeg', 'jpg', ?, 1200, 900, ?, now()) returning id`,
      [a.admin.organizationId, sha(bytes), bytes.length, a.admin.userId],
    );
    // before: the upload as it was sent, GPS and all
    expect(await exifr.gps(await getBytes(`http://x/media/${row.id}.jpg`))).toBeDefined();
    const cleaner = new MediaCleaner(t.get(EntityManager), blobs);
    expect(await cleaner.clean()).toEqual({ cleaned: 1, rows: 1, skipped: 0 });
    expect(await blobs.has(`media-${sha(bytes)}`)).toBe(false);
    await expectClean(await getBytes(`http://x/media/${row.id}.jpg`));
    for (const width of [320, 1024, 1200]) {
      for (const ext of ['webp', 'jpg'])
        await expectClean(await getBytes(`http://x/media/${row.id}/${width}.${ext}`));
    }
    expect(await cleaner.clean()).toEqual({ cleaned: 0, rows: 0, skipped: 0 });
  });
});
