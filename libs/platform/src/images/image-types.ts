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
