import exifr from 'exifr';
import sharp from 'sharp';
import {
  gifHeaderBytes,
  gifWithMetadata,
  isoBmffBytes,
  photoBytes,
  pngHeaderBytes,
  tiffBytes,
} from '../../../../test/fixtures/images';
import {
  cleanImage,
  type DocumentImageHeader,
  type ImageHeader,
  isImageRefusal,
  processImage,
  readDocumentImageHeader,
  readImageHeader,
  variantWidths,
} from './image-processing';
import { type DocumentImageType, sniffDocumentImage } from './image-types';

/** Where the test photo was taken (Málaga), as EXIF rationals. */
const GPS_EXIF = {
  IFD0: { Make: 'Canon', Model: 'EOS R5', Software: 'camera 1.0' },
  IFD2: { BodySerialNumber: 'SN-0042', DateTimeOriginal: '2026:05:01 10:11:12' },
  IFD3: {
    GPSLatitudeRef: 'N',
    GPSLatitude: '36/1 43/1 1234/100',
    GPSLongitudeRef: 'W',
    GPSLongitude: '4/1 25/1 0/1',
  },
};

const header = async (bytes: Buffer): Promise<ImageHeader> => {
  const read = await readImageHeader(bytes);
  if (isImageRefusal(read)) throw new Error(read.message);
  return read;
};
const documentHeader = async (bytes: Buffer): Promise<DocumentImageHeader> => {
  const read = await readDocumentImageHeader(bytes, sniffDocumentImage(bytes) as DocumentImageType);
  if (isImageRefusal(read)) throw new Error(read.message);
  return read;
};
/** No serial, no GPS left anywhere in the bytes, nor in what exifr or sharp read of them. */
async function expectNoTrace(bytes: Buffer): Promise<void> {
  expect(bytes.includes(Buffer.from('SN-0042'))).toBe(false);
  expect(bytes.includes(Buffer.from('GPS'))).toBe(false);
  expect(bytes.includes(Buffer.from('Canon'))).toBe(false);
  const metadata = await sharp(bytes).metadata();
  expect([metadata.exif, metadata.xmp, metadata.iptc, metadata.icc]).toEqual([
    undefined,
    undefined,
    undefined,
    undefined,
  ]);
}

describe('image processing', () => {
  it('keeps no EXIF, GPS, XMP, IPTC or ICC in the full-size file or any variant', async () => {
    const bytes = await photoBytes('jpeg', 2400, 1600, { exif: GPS_EXIF });
    expect(await exifr.gps(bytes)).toEqual({
      latitude: expect.closeTo(36.72, 2),
      longitude: expect.closeTo(-4.42, 2),
    });
    const { full, variants } = await processImage(bytes, await header(bytes));
    expect(variants.map((v) => [v.mimeType, v.width, v.height])).toEqual([
      ['image/webp', 320, 213],
      ['image/jpeg', 320, 213],
      ['image/webp', 1024, 683],
      ['image/jpeg', 1024, 683],
      ['image/webp', 2048, 1365],
      ['image/jpeg', 2048, 1365],
    ]);
    for (const file of [full, ...variants]) {
      const metadata = await sharp(file.bytes).metadata();
      expect([metadata.exif, metadata.xmp, metadata.iptc, metadata.icc]).toEqual([
        undefined,
        undefined,
        undefined,
        undefined,
      ]);
      // exifr reads JPEG and PNG, not WebP (there sharp's metadata above is the reader)
      if (file.mimeType !== 'image/webp') expect(await exifr.parse(file.bytes, true)).toBeUndefined();
      expect(file.bytes.includes(Buffer.from('SN-0042'))).toBe(false);
    }
    expect([full.mimeType, full.width, full.height]).toEqual(['image/jpeg', 2400, 1600]);
  });

  it('applies the EXIF orientation: a 1600 × 1200 photo turned 90° is kept 1200 × 1600, untagged', async () => {
    const bytes = await photoBytes('jpeg', 1600, 1200, { orientation: 6 });
    const read = await header(bytes);
    expect(read).toEqual({ mimeType: 'image/jpeg', width: 1200, height: 1600 });
    const { full, variants } = await processImage(bytes, read);
    expect([full.width, full.height]).toEqual([1200, 1600]);
    expect(variants.map((v) => v.width)).toEqual([320, 320, 1024, 1024, 1200, 1200]);
    expect((await sharp(full.bytes).metadata()).orientation).toBeUndefined();
  });

  it('converts an ICC-tagged photo to sRGB rather than dropping the profile', async () => {
    // sRGB (200, 100, 50) stored as Display P3 numbers (187, 105, 62) with the P3 profile
    const p3 = await sharp({
      create: { width: 300, height: 300, channels: 3, background: { r: 200, g: 100, b: 50 } },
    })
      .png()
      .withIccProfile('p3')
      .toBuffer();
    const stored = await sharp(p3, { ignoreIcc: true }).raw().toBuffer();
    expect([...stored.subarray(0, 3)]).toEqual([187, 105, 62]);
    const clean = await cleanImage(p3, await documentHeader(p3));
    expect((await sharp(clean.bytes).metadata()).icc).toBeUndefined();
    const pixel = await sharp(clean.bytes).raw().toBuffer();
    expect([...pixel.subarray(0, 3)].map((v, i) => Math.abs(v - [200, 100, 50][i]) <= 2)).toEqual([
      true,
      true,
      true,
    ]);
  });

  it('keeps a PNG’s transparency in the full size and WebP, flattens it on white in JPEG', async () => {
    const png = await sharp({
      create: { width: 400, height: 300, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer();
    const { full, variants } = await processImage(png, await header(png));
    expect((await sharp(full.bytes).metadata()).hasAlpha).toBe(true);
    expect((await sharp(variants[0].bytes).metadata()).hasAlpha).toBe(true);
    const jpeg = await sharp(variants[1].bytes).raw().toBuffer();
    expect([...jpeg.subarray(0, 3)]).toEqual([255, 255, 255]);
  });

  it('variant widths stop at the photo’s own width and are never upscaled', () => {
    expect(variantWidths(5000)).toEqual([320, 1024, 2048]);
    expect(variantWidths(2048)).toEqual([320, 1024, 2048]);
    expect(variantWidths(1500)).toEqual([320, 1024, 1500]);
    expect(variantWidths(800)).toEqual([320, 800]);
    expect(variantWidths(320)).toEqual([320]);
    expect(variantWidths(200)).toEqual([200]);
  });

  it('refuses a 30,000 × 30,000 PNG header from the header alone; 8,000 × 8,001 too', async () => {
    expect(await readImageHeader(pngHeaderBytes(30_000, 30_000))).toEqual({
      kind: 'pixels',
      width: 30_000,
      height: 30_000,
      message: 'an image may have at most 64 megapixels (this one is 30000x30000)',
    });
    expect(await readImageHeader(pngHeaderBytes(8_000, 8_001))).toMatchObject({ kind: 'pixels' });
    expect(await readImageHeader(pngHeaderBytes(8_000, 8_000))).toEqual({
      mimeType: 'image/png',
      width: 8_000,
      height: 8_000,
    });
  });

  it('a damaged header, or a good header over damaged pixels, is refused, never thrown raw', async () => {
    const cut = Buffer.concat([pngHeaderBytes(640, 480).subarray(0, 20), Buffer.alloc(30)]);
    expect(await readImageHeader(cut)).toMatchObject({ kind: 'unreadable' });
    const broken = pngHeaderBytes(640, 480); // its IDAT holds 64 zero bytes, not 480 rows
    await expect(processImage(broken, await header(broken))).rejects.toThrow(
      'the image could not be decoded',
    );
  });

  describe('documents’ other images', () => {
    it('tells TIFF, GIF, AVIF, HEIC and camera raw by their bytes, and nothing else', () => {
      expect(sniffDocumentImage(tiffBytes([{ width: 4, height: 4 }]))).toBe('image/tiff');
      expect(sniffDocumentImage(Buffer.from('MM\0*\0\0\0\x08', 'latin1'))).toBe('image/tiff');
      expect(sniffDocumentImage(tiffBytes([{ width: 4, height: 4 }], { preview: true }))).toBe('camera-raw');
      expect(sniffDocumentImage(Buffer.from('II*\0\x10\0\0\0CR\x02\0', 'latin1'))).toBe('camera-raw');
      expect(sniffDocumentImage(Buffer.from('GIF89a\x01\0\x01\0', 'latin1'))).toBe('image/gif');
      expect(sniffDocumentImage(isoBmffBytes('avif', ['mif1', 'miaf']))).toBe('image/avif');
      expect(sniffDocumentImage(isoBmffBytes('mif1', ['avif']))).toBe('image/avif');
      for (const [major, compatible] of [
        ['heic', ['mif1', 'heic']],
        ['mif1', ['heic']],
        ['heix', []],
        ['msf1', ['hevc']],
      ] as const) {
        expect(sniffDocumentImage(isoBmffBytes(major, [...compatible]))).toBe('heic');
      }
      for (const other of [
        isoBmffBytes('isom', ['mp42']), // a video
        isoBmffBytes('qt  ', []),
        Buffer.from('%PDF-1.7'),
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
        Buffer.from('GIF'),
        Buffer.from('II*'),
        Buffer.alloc(0),
      ]) {
        expect(sniffDocumentImage(other)).toBeNull();
      }
    });

    it('a TIFF with EXIF GPS and a serial: kept as a TIFF, greyscale, with neither', async () => {
      const bytes = tiffBytes([{ width: 300, height: 200 }], { gps: true });
      expect(await exifr.gps(bytes)).toEqual({
        latitude: expect.closeTo(36.72, 2),
        longitude: expect.closeTo(-4.42, 2),
      });
      const read = await documentHeader(bytes);
      expect(read).toEqual({
        mimeType: 'image/tiff',
        width: 300,
        height: 200,
        pages: 1,
        grey: true,
        hasAlpha: false,
      });
      const clean = await cleanImage(bytes, read);
      expect(clean.mimeType).toBe('image/tiff');
      await expectNoTrace(clean.bytes);
      expect(await exifr.gps(clean.bytes)).toBeUndefined();
      expect(await sharp(clean.bytes).metadata()).toMatchObject({
        format: 'tiff',
        width: 300,
        height: 200,
        channels: 1,
      });
      // the pixels are the same (lossless)
      const raw = (image: Buffer) => sharp(image).raw().toBuffer();
      expect((await raw(clean.bytes)).equals(await raw(bytes))).toBe(true);
    });

    it('a multi-page TIFF keeps every page; pages of different sizes, or too many pixels, are refused', async () => {
      const scan = tiffBytes(
        [
          { width: 300, height: 400 },
          { width: 300, height: 400 },
          { width: 300, height: 400 },
        ],
        { gps: true },
      );
      const read = await documentHeader(scan);
      expect(read).toMatchObject({ width: 300, height: 400, pages: 3 });
      const clean = await cleanImage(scan, read);
      await expectNoTrace(clean.bytes);
      expect(await sharp(clean.bytes).metadata()).toMatchObject({ pages: 3, width: 300, height: 400 });

      expect(
        await readDocumentImageHeader(
          tiffBytes([
            { width: 300, height: 200 },
            { width: 200, height: 100 },
          ]),
          'image/tiff',
        ),
      ).toEqual({
        kind: 'unreadable',
        message: 'the pages of this TIFF differ in size, so it cannot be cleaned; send it as a PDF',
      });
    });

    it('an animated GIF keeps its frames and timing, loses its comment and XMP', async () => {
      const frames = await Promise.all(
        ['#ff0000', '#00ff00', '#0000ff'].map((colour) =>
          sharp({ create: { width: 120, height: 80, channels: 3, background: colour } })
            .png()
            .toBuffer(),
        ),
      );
      const gif = gifWithMetadata(
        await sharp(frames, { join: { animated: true } })
          .gif({ delay: [100, 200, 300], loop: 0 })
          .toBuffer(),
      );
      expect(gif.includes(Buffer.from('SN-0042'))).toBe(true);
      const read = await documentHeader(gif);
      expect(read).toMatchObject({ mimeType: 'image/gif', width: 120, height: 80, pages: 3 });
      const clean = await cleanImage(gif, read);
      await expectNoTrace(clean.bytes);
      expect(await sharp(clean.bytes).metadata()).toMatchObject({
        format: 'gif',
        width: 120,
        height: 80,
        pages: 3,
        delay: [100, 200, 300],
        loop: 0,
      });
    });

    it('an animated WebP keeps its frames (a photo upload keeps only the first)', async () => {
      const frames = await Promise.all(
        ['#ff0000', '#0000ff'].map((colour) =>
          sharp({ create: { width: 240, height: 200, channels: 3, background: colour } })
            .png()
            .toBuffer(),
        ),
      );
      const webp = await sharp(frames, { join: { animated: true } })
        .webp({ delay: [500, 500] })
        .withExifMerge(GPS_EXIF)
        .toBuffer();
      const clean = await cleanImage(webp, await documentHeader(webp));
      await expectNoTrace(clean.bytes);
      expect(await sharp(clean.bytes).metadata()).toMatchObject({
        format: 'webp',
        pages: 2,
        delay: [500, 500],
      });
      expect((await processImage(webp, await header(webp))).full.height).toBe(200);
    });

    it('an AVIF with EXIF GPS is kept as a JPEG (PNG with alpha), without it', async () => {
      const avif = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#3366cc' } })
        .withExifMerge(GPS_EXIF)
        .avif()
        .toBuffer();
      expect(avif.includes(Buffer.from('SN-0042'))).toBe(true);
      expect((await sharp(avif).metadata()).exif).toBeDefined();
      const clean = await cleanImage(avif, await documentHeader(avif));
      expect(clean).toMatchObject({ mimeType: 'image/jpeg', width: 320, height: 240 });
      await expectNoTrace(clean.bytes);
      expect(await exifr.gps(clean.bytes)).toBeUndefined();

      const clear = await sharp({ create: { width: 64, height: 64, channels: 4, background: '#0000' } })
        .avif()
        .toBuffer();
      const kept = await cleanImage(clear, await documentHeader(clear));
      expect(kept.mimeType).toBe('image/png');
      expect((await sharp(kept.bytes).metadata()).hasAlpha).toBe(true);
    });

    it('counts every frame against the limit: 5 frames of 4,000 × 4,000 in 300 bytes, refused from the header', async () => {
      const gif = gifHeaderBytes(4000, 4000, 5);
      expect(gif.length).toBeLessThan(300);
      expect(await readDocumentImageHeader(gif, 'image/gif')).toEqual({
        kind: 'pixels',
        width: 4000,
        height: 4000,
        message: 'an image may have at most 64 megapixels (this one is 4000x4000, 5 pages)',
      });
      expect(await readDocumentImageHeader(gifHeaderBytes(4000, 4000, 4), 'image/gif')).toMatchObject({
        pages: 4,
      });
    });
  });
});
