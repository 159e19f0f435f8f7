import { imageSize } from 'image-size';
import type { MediaMimeType } from './media.entity';

/** Each side of an uploaded photo, in pixels (INTERFACES.md "Listings": 200-12,000). */
export const MEDIA_SIDE_MIN = 200;
export const MEDIA_SIDE_MAX = 12_000;

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
export function sniffImageType(bytes: Uint8Array): MediaMimeType | null {
  if (startsWith(bytes, JPEG_SIGNATURE)) return 'image/jpeg';
  if (startsWith(bytes, PNG_SIGNATURE)) return 'image/png';
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP')
    return 'image/webp';
  return null;
}

/** Why an upload is refused: not a JPEG, PNG or WebP; or its size unreadable or out of range. */
export type ImageRefusal = { kind: 'type' } | { kind: 'size'; message: string };

export type CheckedImage = { mimeType: MediaMimeType; width: number; height: number };

/**
 * What a photo is, from its bytes: the type by `sniffImageType`, then its width and height as
 * shown (a JPEG's EXIF orientation 5-8 swaps them) by `image-size`, each 200-12,000 px.
 */
export function checkImage(bytes: Uint8Array): CheckedImage | ImageRefusal {
  const mimeType = sniffImageType(bytes);
  if (!mimeType) return { kind: 'type' };
  let size: ReturnType<typeof imageSize>;
  try {
    size = imageSize(bytes);
  } catch {
    return { kind: 'size', message: 'the image could not be read (its width and height are unknown)' };
  }
  const turned = size.orientation !== undefined && size.orientation >= 5 && size.orientation <= 8;
  const width = turned ? size.height : size.width;
  const height = turned ? size.width : size.height;
  const inRange = (side: number) =>
    Number.isInteger(side) && side >= MEDIA_SIDE_MIN && side <= MEDIA_SIDE_MAX;
  if (!inRange(width) || !inRange(height)) {
    return {
      kind: 'size',
      message: `each side must be ${MEDIA_SIDE_MIN} to ${MEDIA_SIDE_MAX.toLocaleString('en')} pixels (this image is ${width}x${height})`,
    };
  }
  return { mimeType, width, height };
}

export const isRefusal = (checked: CheckedImage | ImageRefusal): checked is ImageRefusal => 'kind' in checked;
