import { createHash } from 'node:crypto';
import exifr from 'exifr';
import sharp from 'sharp';
import { EntityManager } from '@mikro-orm/postgresql';
import { MediaCleaner } from '@app/listings';
import { BlobStorage, JobName, MINUTE, PeriodicJobRegistry } from '@app/platform';
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
import {
  gifHeaderBytes,
  gifWithMetadata,
  isoBmffBytes,
  photoBytes,
  pngHeaderBytes,
  tiffBytes,
} from '../fixtures/images';

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

  describe('a document’s other images', () => {
    const uploadDocument = (bytes: Buffer, filename: string, contentType = 'application/octet-stream') =>
      asSession(t.http.post('/documents/files'), a.member).attach('file', bytes, { filename, contentType });
    const kept = async (res: { body: { id: string } }) =>
      (await t.get(BlobStorage).get(res.body.id)) as Buffer;
    const noTrace = (bytes: Buffer) =>
      ['SN-0042', 'GPS', 'Canon'].filter((text) => bytes.includes(Buffer.from(text)));

    it('a TIFF with GPS EXIF (sent as image/jpeg) is kept as a clean TIFF, every page', async () => {
      const bytes = tiffBytes(
        [
          { width: 400, height: 300 },
          { width: 400, height: 300 },
        ],
        { gps: true },
      );
      expect(await exifr.gps(bytes)).toBeDefined();
      const res = await uploadDocument(bytes, 'scan.tif', 'image/jpeg').expect(201);
      const file = await kept(res);
      expect(noTrace(file)).toEqual([]);
      expect(await exifr.gps(file)).toBeUndefined();
      expect(await sharp(file).metadata()).toMatchObject({
        format: 'tiff',
        width: 400,
        height: 300,
        pages: 2,
      });
      expect(res.body).toMatchObject({
        kind: 'file',
        sizeBytes: file.length,
        file: { fileName: 'scan.tif', mimeType: 'image/tiff' },
      });
    });

    it('an animated GIF keeps its frames, not its comment or XMP; an AVIF with GPS is kept as a JPEG', async () => {
      const frames = await Promise.all(
        ['#ff0000', '#00ff00'].map((colour) =>
          sharp({ create: { width: 200, height: 150, channels: 3, background: colour } })
            .png()
            .toBuffer(),
        ),
      );
      const gif = gifWithMetadata(
        await sharp(frames, { join: { animated: true } })
          .gif({ delay: [200, 400] })
          .toBuffer(),
      );
      const sentGif = await uploadDocument(gif, 'tour.gif', 'image/gif').expect(201);
      const keptGif = await kept(sentGif);
      expect(noTrace(keptGif)).toEqual([]);
      expect(await sharp(keptGif).metadata()).toMatchObject({ format: 'gif', pages: 2, delay: [200, 400] });
      expect(sentGif.body.file.mimeType).toBe('image/gif');

      const avif = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#3366cc' } })
        .withExifMerge(GPS_EXIF)
        .avif()
        .toBuffer();
      const sentAvif = await uploadDocument(avif, 'garden.avif', 'image/avif').expect(201);
      const keptAvif = await kept(sentAvif);
      await expectClean(keptAvif);
      expect(await sharp(keptAvif).metadata()).toMatchObject({ format: 'jpeg', width: 640, height: 480 });
      expect(sentAvif.body.file).toEqual({ fileName: 'garden.avif', mimeType: 'image/jpeg' });
    });

    it('HEIC and camera raw files → 400 VALIDATION_FAILED naming file, nothing kept', async () => {
      const put = jest.spyOn(t.get(BlobStorage), 'put');
      try {
        for (const [bytes, name, message] of [
          [
            isoBmffBytes('heic', ['mif1', 'heic']),
            'IMG_0001.HEIC',
            'HEIC photos cannot be cleaned of their location; send JPEG or PNG',
          ],
          [
            isoBmffBytes('mif1', ['heic']),
            'photo.jpg',
            'HEIC photos cannot be cleaned of their location; send JPEG or PNG',
          ],
          [
            tiffBytes([{ width: 160, height: 120 }], { preview: true, gps: true }),
            'DSC_0001.NEF',
            'camera raw files cannot be cleaned of their location; send JPEG, PNG or TIFF',
          ],
        ] as const) {
          const res = await uploadDocument(bytes, name, 'image/jpeg');
          expectValidation(res, 'file');
          expect(res.body.error.details.issues).toEqual([{ path: 'file', message }]);
        }
        const bomb = await uploadDocument(gifHeaderBytes(4000, 4000, 5), 'bomb.gif');
        expectValidation(bomb, 'file');
        expect(bomb.body.error.details.issues[0].message).toContain('4000x4000, 5 pages');
        expect(put).not.toHaveBeenCalled();
      } finally {
        put.mockRestore();
      }
    });

    it('an SVG or a video is kept as sent (document files are never served)', async () => {
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
      const res = await uploadDocument(svg, 'plan.svg', 'image/svg+xml').expect(201);
      expect((await kept(res)).equals(svg)).toBe(true);
      expect(res.body.file).toEqual({ fileName: 'plan.svg', mimeType: 'image/svg+xml' });
      const video = isoBmffBytes('isom', ['mp42']);
      expect(
        (await kept(await uploadDocument(video, 'tour.mp4', 'video/mp4').expect(201))).equals(video),
      ).toBe(true);
    });
  });

  /** A photo stored the way uploads were before the cleaning: `files` null, the upload as sent. */
  const storedBefore = async (bytes: Buffer, width: number, height: number, agency = a) => {
    await t.get(BlobStorage).put(`media-${sha(bytes)}`, bytes);
    const [mimeType, extension] = bytes[0] === 0x89 ? ['image/png', 'png'] : ['image/jpeg', 'jpg'];
    const [row] = await sql<{ id: string }>(
      t,
      `insert into media (id, organization_id, sha256, mime_type, extension, size_bytes, width, height, created_by, created_at)
       values (gen_random_uuid(), ?, ?, ?, ?, ?, ?, ?, ?, now()) returning id`,
      [
        agency.admin.organizationId,
        sha(bytes),
        mimeType,
        extension,
        bytes.length,
        width,
        height,
        agency.admin.userId,
      ],
    );
    return row.id;
  };
  const filesOfRow = async (id: string) =>
    (await sql<{ files: unknown }>(t, 'select files from media where id = ?', [id]))[0].files;

  it('a photo stored before the cleaning, read over HTTP: served clean, its row cleaned, the upload deleted', async () => {
    const bytes = await photoBytes('jpeg', 1200, 900, { exif: GPS_EXIF });
    expect(await exifr.gps(bytes)).toBeDefined();
    const id = await storedBefore(bytes, 1200, 900);
    const res = await t.http.get(`/media/${id}.jpg`).buffer(true).expect(200);
    await expectClean(res.body as Buffer);
    expect(await sharp(res.body as Buffer).metadata()).toMatchObject({
      format: 'jpeg',
      width: 1200,
      height: 900,
    });
    expect(res.headers.etag).toBe(`"${sha(res.body as Buffer)}"`);
    expect(await filesOfRow(id)).toMatchObject({
      full: { mimeType: 'image/jpeg', width: 1200, height: 900 },
    });
    expect(await t.get(BlobStorage).has(`media-${sha(bytes)}`)).toBe(false);
    for (const width of [320, 1024, 1200]) {
      for (const ext of ['webp', 'jpg'])
        await expectClean(await getBytes(`http://x/media/${id}/${width}.${ext}`));
    }
  });

  it('its variant read first cleans it too; two first reads at once clean it once', async () => {
    const bytes = await photoBytes('jpeg', 900, 600, { exif: GPS_EXIF });
    const id = await storedBefore(bytes, 900, 600);
    const put = jest.spyOn(t.get(BlobStorage), 'put');
    try {
      const [full, variant] = await Promise.all([
        t.http.get(`/media/${id}.jpg`).buffer(true),
        t.http.get(`/media/${id}/320.webp`).buffer(true),
      ]);
      expect([full.status, variant.status]).toEqual([200, 200]);
      await expectClean(full.body as Buffer);
      await expectClean(variant.body as Buffer);
      expect(await sharp(variant.body as Buffer).metadata()).toMatchObject({ format: 'webp', width: 320 });
      // the full size and 320, 900 px in WebP and JPEG: stored once
      expect(put).toHaveBeenCalledTimes(5);
    } finally {
      put.mockRestore();
    }
    expect(await filesOfRow(id)).not.toBeNull();
  });

  it('two processes cleaning the same upload at once both end with the same clean files', async () => {
    const bytes = await photoBytes('jpeg', 800, 600, { exif: GPS_EXIF });
    const other = await t.seed.agency('Other Agency');
    const ids = [await storedBefore(bytes, 800, 600), await storedBefore(bytes, 800, 600, other)];
    const processes = [0, 1].map(() => new MediaCleaner(t.get(EntityManager), t.get(BlobStorage)));
    const [first, second] = await Promise.all(processes.map((cleaner) => cleaner.filesOf(sha(bytes))));
    expect(first).not.toBeNull();
    expect(second).toEqual(first);
    for (const id of ids) expect(await filesOfRow(id)).toEqual(first);
    expect(await t.get(BlobStorage).has(`media-${sha(bytes)}`)).toBe(false);
    await expectClean(await getBytes(`http://x/media/${ids[1]}.jpg`));
  });

  it('a stored photo that cannot be cleaned is never served as it was: 404, left in place', async () => {
    const bytes = pngHeaderBytes(640, 480); // its header reads, its pixels do not decode
    const id = await storedBefore(bytes, 640, 480);
    expectNotFound(await t.http.get(`/media/${id}.png`), 'Media');
    expectNotFound(await t.http.get(`/media/${id}/320.webp`), 'Media');
    expect(await filesOfRow(id)).toBeNull();
    expect(await t.get(BlobStorage).has(`media-${sha(bytes)}`)).toBe(true);
    // the sweep does not decode it again in this process
    expect(await t.get(MediaCleaner).sweep(t.clock.now())).toEqual({ cleaned: 0, rows: 0, skipped: 0 });
    await sql(t, 'delete from media where id = ? returning id', [id]);
  });

  it('the same bytes uploaded again clean every row of them and delete the stored upload', async () => {
    const bytes = await photoBytes('jpeg', 700, 500, { exif: GPS_EXIF });
    const other = await t.seed.agency('Third Agency');
    const theirs = await storedBefore(bytes, 700, 500, other);
    const ours = await storedBefore(bytes, 700, 500);
    const [media] = (await upload([{ bytes, name: 'again.jpg' }]).expect(201)).body.data;
    expect(media.id).toBe(ours);
    expect(await filesOfRow(theirs)).toEqual(await filesOfRow(ours));
    expect(await t.get(BlobStorage).has(`media-${sha(bytes)}`)).toBe(false);
  });

  it('the sweep every 5 minutes cleans stored photos ahead of their first read; media:clean all of them', async () => {
    const job = t.get(PeriodicJobRegistry).byName(JobName.MediaCleanStored);
    expect(job.everyMs).toBe(5 * MINUTE);
    const bytes = await photoBytes('jpeg', 1200, 900, { exif: GPS_EXIF });
    const id = await storedBefore(bytes, 1200, 900);
    expect(await job.run(t.clock.now())).toEqual({ cleaned: 1, rows: 1, skipped: 0 });
    expect(await t.get(BlobStorage).has(`media-${sha(bytes)}`)).toBe(false);
    expect(await filesOfRow(id)).not.toBeNull();
    const put = jest.spyOn(t.get(BlobStorage), 'put');
    try {
      await expectClean(await getBytes(`http://x/media/${id}.jpg`));
      expect(put).not.toHaveBeenCalled(); // the read decodes nothing
    } finally {
      put.mockRestore();
    }

    const later = await photoBytes('png', 640, 480);
    await storedBefore(later, 640, 480);
    const cleaner = new MediaCleaner(t.get(EntityManager), t.get(BlobStorage));
    expect(await cleaner.clean()).toEqual({ cleaned: 1, rows: 1, skipped: 0 });
    expect(await cleaner.clean()).toEqual({ cleaned: 0, rows: 0, skipped: 0 });
  });
});
