import { createHash } from 'node:crypto';
import type { Metadata, Sharp, SharpOptions } from 'sharp';
import {
  type DocumentImageType,
  IMAGE_PIXELS_MAX,
  type ImageMimeType,
  sniffImageType,
  TIFF_PIXELS_MAX,
} from './image-types';

type SharpFactory = (typeof import('sharp'))['default'];
let loading: Promise<SharpFactory> | undefined;

/**
 * sharp, loaded at the first image (about 20 MB and 50 ms that the worker and the CLI never pay).
 * One libvips thread per image and no operation cache (every upload is new bytes; a cache would
 * only hold memory); `ImageGate` lets two images through at once: both cores, never the whole
 * libuv pool (argon2, fs and dns share it). docs/security/uploaded-images.md
 */
const vips = (): Promise<SharpFactory> =>
  (loading ??= import('sharp').then((module) => {
    const sharp = module.default;
    sharp.concurrency(1);
    sharp.cache(false);
    return sharp;
  }));
const IMAGES_AT_ONCE = 2;

/** The widths kept for pages and clients; an image narrower than one stops at its own width. */
export const VARIANT_WIDTHS = [320, 1024, 2048] as const;
export const VARIANT_TYPES = ['image/webp', 'image/jpeg'] as const;
export type VariantMimeType = (typeof VARIANT_TYPES)[number];

/** An image's type and its sides as shown (EXIF orientation applied), read by the decoder itself. */
export interface ImageHeader<T extends DocumentImageType = ImageMimeType> {
  mimeType: T;
  width: number;
  height: number;
}

/** A document's image: every page or frame is kept (`pages`; `height` is one page's). */
export interface DocumentImageHeader extends ImageHeader<DocumentImageType> {
  pages: number;
  /** Greyscale (a scan): a TIFF stays one channel rather than tripled to sRGB. */
  grey: boolean;
  hasAlpha: boolean;
}

/** Why an image is refused before or while it is decoded. */
export type ImageRefusal =
  | { kind: 'unreadable'; message: string }
  | { kind: 'pixels'; message: string; width: number; height: number };

/** Bytes kept for an image: clean (no EXIF, XMP, IPTC or ICC; sRGB; oriented) and their hash. */
export interface CleanImageFile<T extends DocumentImageType = ImageMimeType> {
  mimeType: T;
  width: number;
  height: number;
  bytes: Buffer;
  sha256: string;
}

export interface ProcessedImage {
  /** The whole image re-encoded in its own type (the original bytes are never kept). */
  full: CleanImageFile;
  /** Each width of `variantWidths(full.width)`, WebP then JPEG, narrowest first. */
  variants: (CleanImageFile & { mimeType: VariantMimeType })[];
}

/** Thrown when libvips cannot decode an image it read the header of (truncated, corrupt). */
export class UnreadableImageError extends Error {
  constructor() {
    super('the image could not be decoded');
  }
}

/** libvips' format names; `heif` is AVIF only when its compression is AV1 (`typeOf`). */
const FORMATS: Record<string, DocumentImageType> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  tiff: 'image/tiff',
  gif: 'image/gif',
  heif: 'image/avif',
};
/** Types whose every page or frame a document keeps (read with `pages: -1`). */
const PAGED: readonly DocumentImageType[] = ['image/tiff', 'image/gif', 'image/webp'];

/** The decoder's options for untrusted bytes: the pixel limit again at load, stop on a decode error. */
const INPUT: SharpOptions = { limitInputPixels: IMAGE_PIXELS_MAX, failOn: 'error', sequentialRead: true };

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * The widths an image `width` px wide is kept at: each of 320, 1024 and 2048, or its own width
 * when narrower (never upscaled), once each: 800 → [320, 800]; 300 → [300].
 */
export const variantWidths = (width: number): number[] => [
  ...new Set(VARIANT_WIDTHS.map((target) => Math.min(target, width))),
];

/**
 * The header only (nothing decoded, no pixel buffer): the type libvips sees, the sides as shown,
 * and the pixel limit. A 30,000 × 30,000 PNG header is refused here in about a millisecond.
 */
export async function readImageHeader(bytes: Buffer): Promise<ImageHeader | ImageRefusal> {
  const read = await readHeader(bytes, sniffImageType(bytes), false);
  return isImageRefusal(read)
    ? read
    : { mimeType: read.mimeType as ImageMimeType, width: read.width, height: read.height };
}

/**
 * A document's image header, `sniffed` its type by its bytes (`sniffDocumentImage`): as
 * `readImageHeader`, with every page or frame of a TIFF, GIF or WebP counted (a TIFF's pages must
 * have one size, each page ≤ 64 MP, all ≤ 512 MP; other types ≤ 64 MP in all).
 */
export function readDocumentImageHeader(
  bytes: Buffer,
  sniffed: DocumentImageType,
): Promise<DocumentImageHeader | ImageRefusal> {
  return readHeader(bytes, sniffed, PAGED.includes(sniffed));
}

async function readHeader(
  bytes: Buffer,
  sniffed: DocumentImageType | null,
  paged: boolean,
): Promise<DocumentImageHeader | ImageRefusal> {
  const sharp = await vips();
  let metadata: Metadata;
  try {
    // no limit for the header read itself: the limit is checked below, with the sides in the message
    metadata = await sharp(bytes, { limitInputPixels: false, ...(paged ? { pages: -1 } : {}) }).metadata();
  } catch (err) {
    if (err instanceof Error && /page \d+ differs from page/.test(err.message)) {
      return {
        kind: 'unreadable',
        message: 'the pages of this TIFF differ in size, so it cannot be cleaned; send it as a PDF',
      };
    }
    return { kind: 'unreadable', message: 'the image could not be read (its header is damaged)' };
  }
  const mimeType = FORMATS[metadata.format];
  if (!mimeType || mimeType !== sniffed || (mimeType === 'image/avif' && metadata.compression !== 'av1')) {
    return {
      kind: 'unreadable',
      message: 'the image could not be read (its content is not what it starts as)',
    };
  }
  const pages = paged ? (metadata.pages ?? 1) : 1;
  // pages of one size are one tall image to libvips; it cannot turn them, so they keep their sides
  const { width, height } =
    pages > 1
      ? { width: metadata.width, height: metadata.pageHeight ?? metadata.height / pages }
      : metadata.autoOrient;
  if (!(width > 0 && height > 0)) {
    return { kind: 'unreadable', message: 'the image could not be read (its width and height are unknown)' };
  }
  const sides = pages > 1 ? `${width}x${height}, ${pages} pages` : `${width}x${height}`;
  const total = width * height * pages;
  if (width * height > IMAGE_PIXELS_MAX || total > pixelsMax(mimeType)) {
    return {
      kind: 'pixels',
      width,
      height,
      message:
        mimeType === 'image/tiff' && pages > 1
          ? `a TIFF page may have at most ${IMAGE_PIXELS_MAX / 1_000_000} megapixels, all pages ${TIFF_PIXELS_MAX / 1_000_000} (this one is ${sides})`
          : `an image may have at most ${IMAGE_PIXELS_MAX / 1_000_000} megapixels (this one is ${sides})`,
    };
  }
  return {
    mimeType,
    width,
    height,
    pages,
    grey: metadata.space === 'b-w' || metadata.space === 'grey16',
    hasAlpha: metadata.hasAlpha,
  };
}

/** All pages together: a TIFF is decoded and written page by page; anything else is held whole. */
const pixelsMax = (mimeType: DocumentImageType) =>
  mimeType === 'image/tiff' ? TIFF_PIXELS_MAX : IMAGE_PIXELS_MAX;

export const isImageRefusal = <T extends ImageHeader<DocumentImageType>>(
  value: T | ImageRefusal,
): value is ImageRefusal => 'kind' in value;

/**
 * The full-size clean re-encode in the image's own type, then its variants. Two decodes: the full
 * size (streamed), and one at the widest variant into a raw sRGB buffer (at most 2048 px wide),
 * from which every variant is cut (`clone()`), one at a time to keep memory flat.
 */
export function processImage(bytes: Buffer, header: ImageHeader): Promise<ProcessedImage> {
  return gate.run(async () => {
    const sharp = await vips();
    const full = await fullSize(sharp, bytes, header);
    const widths = variantWidths(full.width);
    const base = await decoded(() =>
      oriented(sharp, bytes)
        .resize({ width: Math.max(...widths) })
        .raw()
        .toBuffer({ resolveWithObject: true }),
    );
    const source = sharp(base.data, {
      raw: { width: base.info.width, height: base.info.height, channels: base.info.channels },
    });
    const variants: ProcessedImage['variants'] = [];
    for (const width of widths) {
      const sized = () => source.clone().resize({ width });
      variants.push(await encoded(sized().webp({ quality: 80 }), 'image/webp'));
      variants.push(
        await encoded(
          sized().flatten({ background: '#ffffff' }).jpeg({ quality: 82, progressive: true }),
          'image/jpeg',
        ),
      );
    }
    return { full, variants };
  });
}

/**
 * A document's image, cleaned (docs/decisions/0006, 0020): JPEG, PNG and WebP as a photo's full
 * size (an animated WebP keeps its frames); a TIFF as a lossless TIFF with every page, greyscale
 * kept; a GIF with every frame and its timing; an AVIF as JPEG q90, or PNG when it has alpha
 * (an AV1 encode of 12 MP takes about 20 s here).
 */
export function cleanImage(
  bytes: Buffer,
  header: DocumentImageHeader,
): Promise<CleanImageFile<DocumentImageType>> {
  return gate.run(async () => {
    const sharp = await vips();
    const paged = PAGED.includes(header.mimeType);
    if (!paged && header.mimeType !== 'image/avif') return fullSize(sharp, bytes, header as ImageHeader);
    let image = sharp(bytes, {
      ...INPUT,
      limitInputPixels: pixelsMax(header.mimeType),
      ...(paged ? { pages: -1 } : {}),
    });
    // libvips cannot turn a multi-page image: its pages keep their sides
    if (header.pages === 1) image = image.rotate();
    image = image.toColourspace(header.grey && header.mimeType === 'image/tiff' ? 'b-w' : 'srgb');
    switch (header.mimeType) {
      case 'image/tiff':
        return encoded(image.tiff({ compression: 'deflate', predictor: 'horizontal' }), 'image/tiff');
      case 'image/gif':
        return encoded(image.gif(), 'image/gif');
      case 'image/webp':
        return encoded(image.webp({ quality: 90, effort: 2 }), 'image/webp');
      default:
        return header.hasAlpha
          ? encoded(image.png({ compressionLevel: 6 }), 'image/png')
          : encoded(image.jpeg({ quality: 90, optimiseCoding: false }), 'image/jpeg');
    }
  });
}

/** Orientation applied, then sRGB (the embedded ICC profile, if any, converts the colours). */
const oriented = (sharp: SharpFactory, bytes: Buffer): Sharp =>
  sharp(bytes, INPUT).rotate().toColourspace('srgb');

function fullSize(sharp: SharpFactory, bytes: Buffer, header: ImageHeader): Promise<CleanImageFile> {
  const image = oriented(sharp, bytes);
  const typed =
    header.mimeType === 'image/jpeg'
      ? // no Huffman optimisation: it holds every coefficient of the image (~190 MB at 64 MP)
        image.jpeg({ quality: 90, optimiseCoding: false })
      : header.mimeType === 'image/png'
        ? image.png({ compressionLevel: 6 })
        : // effort 2: a 64-MP WebP in about 9 s instead of 32 s (effort 4), 3 % larger
          image.webp({ quality: 90, effort: 2 });
  return encoded(typed, header.mimeType);
}

async function encoded<T extends DocumentImageType>(image: Sharp, mimeType: T): Promise<CleanImageFile<T>> {
  const { data, info } = await decoded(() => image.toBuffer({ resolveWithObject: true }));
  return { mimeType, width: info.width, height: info.height, bytes: data, sha256: sha256(data) };
}

/** A libvips failure on bytes whose header read well: the image is damaged. */
async function decoded<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch {
    throw new UnreadableImageError();
  }
}

/** At most `size` images in libvips at once in this process; the others wait their turn. */
class ImageGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly size: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running += 1;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}

const gate = new ImageGate(IMAGES_AT_ONCE);
