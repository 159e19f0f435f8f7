import exifr from 'exifr';
import sharp from 'sharp';
import { photoBytes, pngHeaderBytes } from '../../../../test/fixtures/images';
import {
  cleanImage,
  type ImageHeader,
  isImageRefusal,
  processImage,
  readImageHeader,
  variantWidths,
} from './image-processing';

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
    const clean = await cleanImage(p3, await header(p3));
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
});
