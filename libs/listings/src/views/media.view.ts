import { ApiProperty } from '@nestjs/swagger';
import { type Media, MEDIA_TYPES, type MediaMimeType } from '../domain/media.entity';

export interface MediaJson {
  id: string;
  url: string;
  mimeType: MediaMimeType;
  sizeBytes: number;
  width: number;
  height: number;
  sha256: string;
}

/** A photo's public URL: `{PUBLIC_BASE_URL}/media/<id>.<ext>`. */
export const mediaUrl = (publicBaseUrl: string, id: string, extension: string): string =>
  `${publicBaseUrl}/media/${id}.${extension}`;

export const mediaView = (media: Media, publicBaseUrl: string): MediaJson => ({
  id: media.id,
  url: mediaUrl(publicBaseUrl, media.id, media.extension),
  mimeType: media.mimeType,
  sizeBytes: media.sizeBytes,
  width: media.width,
  height: media.height,
  sha256: media.sha256,
});

export class MediaView implements MediaJson {
  @ApiProperty({ format: 'uuid', description: 'Use it as `images[].mediaId` on a listing.' }) id: string;
  @ApiProperty({
    format: 'uri',
    example: 'https://api.agency.example/media/0190a0a0-0000-7000-8000-000000000001.jpg',
    description: 'Public by URL (listing photos are shown on portals and brochures); immutable.',
  })
  url: string;
  @ApiProperty({ enum: Object.keys(MEDIA_TYPES), description: 'Told by the content, never the file name.' })
  mimeType: MediaMimeType;
  @ApiProperty({ minimum: 1, example: 245_760 }) sizeBytes: number;
  @ApiProperty({ minimum: 200, maximum: 12_000, example: 1600 }) width: number;
  @ApiProperty({ minimum: 200, maximum: 12_000, example: 1200 }) height: number;
  @ApiProperty({ pattern: '^[0-9a-f]{64}$', description: 'The content’s SHA-256, hex.' }) sha256: string;
}

export class MediaListView {
  @ApiProperty({ type: [MediaView], description: 'One entry per uploaded file, in order.' })
  data: MediaView[];
}
