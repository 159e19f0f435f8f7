import { ApiProperty } from '@nestjs/swagger';
import { VARIANT_TYPES, VARIANT_WIDTHS, type VariantMimeType } from '@app/platform';
import { type Media, MEDIA_TYPES, type MediaMimeType } from '../domain/media.entity';

/** One stored variant of a photo: its sides, its type and its public URL. */
export interface MediaVariantJson {
  width: number;
  height: number;
  mimeType: VariantMimeType;
  url: string;
}

export interface MediaJson {
  id: string;
  url: string;
  mimeType: MediaMimeType;
  sizeBytes: number;
  width: number;
  height: number;
  sha256: string;
  variants: MediaVariantJson[];
}

/** A photo's public URL: `{PUBLIC_BASE_URL}/media/<id>.<ext>`. */
export const mediaUrl = (publicBaseUrl: string, id: string, extension: string): string =>
  `${publicBaseUrl}/media/${id}.${extension}`;

/**
 * A photo's variants, narrowest first, WebP before JPEG, each at
 * `{PUBLIC_BASE_URL}/media/<id>/<width>.<webp|jpg>`; `[]` for a photo stored before the cleaning.
 */
export const mediaVariantsView = (media: Media, publicBaseUrl: string): MediaVariantJson[] =>
  (media.files?.variants ?? []).map((file) => ({
    width: file.width,
    height: file.height,
    mimeType: file.mimeType as VariantMimeType,
    url: `${publicBaseUrl}/media/${media.id}/${file.width}.${MEDIA_TYPES[file.mimeType]}`,
  }));

export const mediaView = (media: Media, publicBaseUrl: string): MediaJson => ({
  id: media.id,
  url: mediaUrl(publicBaseUrl, media.id, media.extension),
  mimeType: media.mimeType,
  sizeBytes: media.sizeBytes,
  width: media.width,
  height: media.height,
  sha256: media.sha256,
  variants: mediaVariantsView(media, publicBaseUrl),
});

export class MediaVariantView implements MediaVariantJson {
  @ApiProperty({
    minimum: 200,
    maximum: Math.max(...VARIANT_WIDTHS),
    example: 1024,
    description: `${VARIANT_WIDTHS.join(', ')}, or the photo’s own width where it is narrower (never upscaled).`,
  })
  width: number;
  @ApiProperty({ minimum: 1, example: 768, description: 'In proportion to the width.' }) height: number;
  @ApiProperty({ enum: VARIANT_TYPES }) mimeType: VariantMimeType;
  @ApiProperty({
    format: 'uri',
    example: 'https://api.agency.example/media/0190a0a0-0000-7000-8000-000000000001/1024.webp',
    description: 'Public by URL, immutable, like the photo’s `url`.',
  })
  url: string;
}

export class MediaView implements MediaJson {
  @ApiProperty({ format: 'uuid', description: 'Use it as `images[].mediaId` on a listing.' }) id: string;
  @ApiProperty({
    format: 'uri',
    example: 'https://api.agency.example/media/0190a0a0-0000-7000-8000-000000000001.jpg',
    description:
      'Public by URL (listing photos are shown on portals and brochures); immutable. The whole photo ' +
      're-encoded in its own type, oriented, sRGB, without EXIF, XMP, IPTC or ICC metadata: the uploaded ' +
      'bytes are not kept.',
  })
  url: string;
  @ApiProperty({ enum: Object.keys(MEDIA_TYPES), description: 'Told by the content, never the file name.' })
  mimeType: MediaMimeType;
  @ApiProperty({ minimum: 1, example: 245_760, description: 'The uploaded file’s size.' }) sizeBytes: number;
  @ApiProperty({
    minimum: 200,
    maximum: 12_000,
    example: 1600,
    description: 'As shown (orientation applied).',
  })
  width: number;
  @ApiProperty({
    minimum: 200,
    maximum: 12_000,
    example: 1200,
    description: 'As shown (orientation applied).',
  })
  height: number;
  @ApiProperty({
    pattern: '^[0-9a-f]{64}$',
    description: 'The uploaded file’s SHA-256, hex: the same bytes sent again answer the same photo.',
  })
  sha256: string;
  @ApiProperty({
    type: [MediaVariantView],
    description:
      'The stored variants for pages and clients, narrowest first, WebP then JPEG at each width: 320, ' +
      '1024 and 2048 px wide, stopping at the photo’s own width. `[]` for a photo stored before clean ' +
      're-encoding (its `url` then serves it as it was uploaded).',
  })
  variants: MediaVariantView[];
}

export class MediaListView {
  @ApiProperty({ type: [MediaView], description: 'One entry per uploaded file, in order.' })
  data: MediaView[];
}
