import { imageSize } from 'image-size';
import { IMAGE_PIXELS_MAX, sniffImageType } from '@app/platform/core';
import type { MediaMimeType } from './media.entity';

export { sniffImageType };

/** Each side of an uploaded photo, in pixels (INTERFACES.md "Listings": 200-12,000). */
export const MEDIA_SIDE_MIN = 200;
export const MEDIA_SIDE_MAX = 12_000;

/** Why an upload is refused: not a JPEG, PNG or WebP; or its size unreadable or out of range. */
export type ImageRefusal = { kind: 'type' } | { kind: 'size'; message: string };

export type CheckedImage = { mimeType: MediaMimeType; width: number; height: number };

/**
 * What a photo is, from its bytes: the type by `sniffImageType`, then its width and height as
 * shown (a JPEG's EXIF orientation 5-8 swaps them) by `image-size`, by `photoSidesRefusal`. A
 * cheap first look at the header; the decoder reads it again before anything is decoded.
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
  const refused = photoSidesRefusal(width, height);
  return refused ? { kind: 'size', message: refused } : { mimeType, width, height };
}

/**
 * The photo rule on sides as shown: each 200-12,000 px and at most the platform's pixel limit
 * (64 megapixels) in all. Applied to `image-size`'s reading and again to the decoder's own header.
 */
export function photoSidesRefusal(width: number, height: number): string | null {
  const inRange = (side: number) =>
    Number.isInteger(side) && side >= MEDIA_SIDE_MIN && side <= MEDIA_SIDE_MAX;
  if (!inRange(width) || !inRange(height)) {
    return `each side must be ${MEDIA_SIDE_MIN} to ${MEDIA_SIDE_MAX.toLocaleString('en')} pixels (this image is ${width}x${height})`;
  }
  if (width * height > IMAGE_PIXELS_MAX) {
    return `an image may have at most ${IMAGE_PIXELS_MAX / 1_000_000} megapixels (this image is ${width}x${height})`;
  }
  return null;
}

export const isRefusal = (checked: CheckedImage | ImageRefusal): checked is ImageRefusal => 'kind' in checked;
