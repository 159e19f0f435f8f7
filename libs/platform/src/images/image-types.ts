/**
 * What an uploaded image is, told by its bytes only (pure: no decoder here). The pixel limit is the
 * one every image the server decodes is held to (docs/security/uploaded-images.md).
 */
export const IMAGE_EXTENSIONS = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
} as const;
export type ImageMimeType = keyof typeof IMAGE_EXTENSIONS;

/**
 * At most 64 megapixels decoded (a 61-MP camera's photo passes; a 12,000 × 12,000 one does not):
 * the bound on a decode's time and on the full-size re-encode's memory.
 */
export const IMAGE_PIXELS_MAX = 64_000_000;

/**
 * A multi-page TIFF (a scan) is decoded and written page by page, in about 15 MB: each page is held
 * to `IMAGE_PIXELS_MAX`, all of them together to this (58 A4 pages at 300 dpi; about 2.5 s).
 */
export const TIFF_PIXELS_MAX = 512_000_000;

/** What a document's image can be kept as once cleaned: the photo types, TIFF and GIF. */
export const DOCUMENT_IMAGE_TYPES = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/tiff',
  'image/gif',
  'image/avif',
] as const;
export type DocumentImageType = (typeof DOCUMENT_IMAGE_TYPES)[number];

/**
 * Images whose location cannot be removed here, so they are never kept: HEIC (HEIF coded in HEVC,
 * which the prebuilt libvips does not decode) and camera raw files in TIFF form (DNG, NEF, …),
 * whose first page is only a preview.
 */
export type UncleanableImage = 'heic' | 'camera-raw';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_SIGNATURE = [0xff, 0xd8, 0xff];
const ascii = (bytes: Uint8Array, from: number, to: number) =>
  String.fromCharCode(...bytes.subarray(from, to));
const startsWith = (bytes: Uint8Array, signature: number[]) =>
  bytes.length >= signature.length && signature.every((byte, i) => bytes[i] === byte);

/**
 * The image type told by the first bytes only (a file's name and declared content type are never
 * believed): JPEG `FF D8 FF`, PNG `89 50 4E 47 0D 0A 1A 0A`, WebP `RIFF....WEBP`; anything else null.
 */
export function sniffImageType(bytes: Uint8Array): ImageMimeType | null {
  if (startsWith(bytes, JPEG_SIGNATURE)) return 'image/jpeg';
  if (startsWith(bytes, PNG_SIGNATURE)) return 'image/png';
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP')
    return 'image/webp';
  return null;
}

const TIFF_SIGNATURES = [
  [0x49, 0x49, 0x2a, 0x00], // II*\0, little-endian
  [0x4d, 0x4d, 0x00, 0x2a], // MM\0*, big-endian
  [0x49, 0x49, 0x2b, 0x00], // BigTIFF
  [0x4d, 0x4d, 0x00, 0x2b],
];
const AVIF_BRANDS = new Set(['avif', 'avis']);
/** HEIF image brands (HEVC, or a generic HEIF whose codec is not AV1): not decodable here. */
const HEIF_BRANDS = new Set([
  'heic',
  'heix',
  'heim',
  'heis',
  'hevc',
  'hevx',
  'hevm',
  'hevs',
  'mif1',
  'msf1',
  'mif2',
]);

/**
 * A document's image type, told by its bytes only: the photo types (`sniffImageType`), TIFF
 * (`II*\0`, `MM\0*`, BigTIFF), GIF (`GIF8`), and in an ISO-BMFF `ftyp` box, AVIF (brand `avif` or
 * `avis`) or another HEIF image (`heic`, `heix`, `mif1`, …: `heic`). Null for anything else (PDF,
 * text, video, SVG: kept as sent).
 */
export function sniffDocumentImage(bytes: Uint8Array): DocumentImageType | UncleanableImage | null {
  const photo = sniffImageType(bytes);
  if (photo) return photo;
  if (TIFF_SIGNATURES.some((signature) => startsWith(bytes, signature)))
    return isCameraRaw(bytes) ? 'camera-raw' : 'image/tiff';
  if (bytes.length >= 6 && ascii(bytes, 0, 4) === 'GIF8') return 'image/gif';
  const brands = isoBrands(bytes);
  if (brands.some((brand) => AVIF_BRANDS.has(brand))) return 'image/avif';
  if (brands.some((brand) => HEIF_BRANDS.has(brand))) return 'heic';
  return null;
}

/** The major and compatible brands of a leading ISO-BMFF `ftyp` box; [] when there is none. */
function isoBrands(bytes: Uint8Array): string[] {
  if (bytes.length < 16 || ascii(bytes, 4, 8) !== 'ftyp') return [];
  const size = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0);
  const end = Math.min(size < 16 ? bytes.length : size, bytes.length, 16 + 4 * 64);
  const brands = [ascii(bytes, 8, 12)];
  for (let at = 16; at + 4 <= end; at += 4) brands.push(ascii(bytes, at, at + 4));
  return brands;
}

/**
 * A camera raw file in TIFF form: Canon's CR2 (`CR` after the header), or a first directory marked
 * as a reduced-size preview (NewSubfileType bit 0: DNG, NEF, ARW…) or carrying DNGVersion.
 */
function isCameraRaw(bytes: Uint8Array): boolean {
  if (bytes.length >= 10 && ascii(bytes, 8, 10) === 'CR') return true;
  if (bytes[2] === 0x2b || bytes[3] === 0x2b || bytes.length < 8) return false; // BigTIFF: not read here
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const little = bytes[0] === 0x49;
  const directory = view.getUint32(4, little);
  if (directory + 2 > bytes.length) return false;
  const entries = Math.min(view.getUint16(directory, little), 1000);
  for (let i = 0; i < entries; i++) {
    const at = directory + 2 + i * 12;
    if (at + 12 > bytes.length) return false;
    const tag = view.getUint16(at, little);
    if (tag === 0xc612) return true; // DNGVersion
    if (tag === 0xfe) {
      // NewSubfileType, a LONG (or a SHORT from some writers)
      const value =
        view.getUint16(at + 2, little) === 3
          ? view.getUint16(at + 8, little)
          : view.getUint32(at + 8, little);
      if (value & 1) return true;
    }
  }
  return false;
}
