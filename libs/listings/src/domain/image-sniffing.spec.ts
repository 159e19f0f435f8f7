import { checkImage, isRefusal, photoSidesRefusal, sniffImageType } from './image-sniffing';

const png = (width: number, height: number) => {
  const bytes = Buffer.alloc(33 + 16);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 0);
  bytes.writeUInt32BE(13, 8);
  bytes.write('IHDR', 12, 'ascii');
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  bytes.set([8, 2, 0, 0, 0], 24);
  return bytes;
};

const jpeg = (width: number, height: number) => {
  const bytes = Buffer.alloc(2 + 18 + 19 + 16);
  bytes.set([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10], 0);
  bytes.write('JFIF\0', 6, 'ascii');
  bytes.set([1, 1, 0, 0, 1, 0, 1, 0, 0], 11);
  bytes.set([0xff, 0xc0, 0x00, 0x11, 0x08], 20);
  bytes.writeUInt16BE(height, 25);
  bytes.writeUInt16BE(width, 27);
  bytes.set([3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1], 29);
  return bytes;
};

const webp = (width: number, height: number) => {
  const bytes = Buffer.alloc(30 + 16);
  bytes.write('RIFF', 0, 'ascii');
  bytes.writeUInt32LE(bytes.length - 8, 4);
  bytes.write('WEBPVP8X', 8, 'ascii');
  bytes.writeUInt32LE(10, 16);
  bytes.writeUIntLE(width - 1, 24, 3);
  bytes.writeUIntLE(height - 1, 27, 3);
  return bytes;
};

describe('image sniffing', () => {
  it('tells JPEG, PNG and WebP by their first bytes only', () => {
    expect(sniffImageType(jpeg(800, 600))).toBe('image/jpeg');
    expect(sniffImageType(png(800, 600))).toBe('image/png');
    expect(sniffImageType(webp(800, 600))).toBe('image/webp');
    expect(sniffImageType(Buffer.from([0xff, 0xd8, 0xff]))).toBe('image/jpeg');
  });

  it('refuses anything else: text, GIF, PDF, a RIFF that is not WebP, a cut signature, nothing', () => {
    for (const bytes of [
      Buffer.from('just some text, named photo.png'),
      Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'),
      Buffer.from('%PDF-1.7\n'),
      Buffer.from('RIFF\x10\x00\x00\x00WAVEfmt ', 'latin1'),
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a]),
      Buffer.from([0xff, 0xd8]),
      Buffer.alloc(0),
    ]) {
      expect(sniffImageType(bytes)).toBeNull();
      expect(checkImage(bytes)).toEqual({ kind: 'type' });
    }
  });

  it('reads the width and height of each type', () => {
    expect(checkImage(png(1024, 768))).toEqual({ mimeType: 'image/png', width: 1024, height: 768 });
    expect(checkImage(jpeg(640, 480))).toEqual({ mimeType: 'image/jpeg', width: 640, height: 480 });
    expect(checkImage(webp(300, 12_000))).toEqual({ mimeType: 'image/webp', width: 300, height: 12_000 });
  });

  it('takes sides of 200 to 12,000 pixels, and no others', () => {
    expect(isRefusal(checkImage(png(200, 200)))).toBe(false);
    expect(isRefusal(checkImage(png(12_000, 5_000)))).toBe(false);
    for (const [width, height] of [
      [199, 500],
      [500, 199],
      [100, 100],
      [12_001, 500],
      [500, 12_001],
    ]) {
      const checked = checkImage(png(width, height));
      expect(checked).toEqual({ kind: 'size', message: expect.stringContaining(`${width}x${height}`) });
    }
  });

  it('takes at most 64 megapixels in all, whatever the sides', () => {
    expect(isRefusal(checkImage(png(8_000, 8_000)))).toBe(false);
    for (const [width, height] of [
      [8_001, 8_000],
      [12_000, 12_000],
    ]) {
      expect(checkImage(png(width, height))).toEqual({
        kind: 'size',
        message: `an image may have at most 64 megapixels (this image is ${width}x${height})`,
      });
    }
    expect(photoSidesRefusal(8_000, 8_000)).toBeNull();
    expect(photoSidesRefusal(30_000, 30_000)).toContain('each side must be 200 to 12,000 pixels');
  });

  it('a right signature on bytes image-size cannot read → a size refusal, not a throw', () => {
    const cut = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0]);
    expect(checkImage(cut)).toEqual({ kind: 'size', message: expect.stringContaining('could not be read') });
  });
});
