import { Entity, EntityRepositoryType, PrimaryKey, Property } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';
import { MediaRepository } from './media.repository';

export const MEDIA_TYPES = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
} as const;
export type MediaMimeType = keyof typeof MEDIA_TYPES;

/** The blob key of a photo's bytes: one blob per content, whichever agencies upload it. */
export const mediaBlobKey = (sha256: string): string => `media-${sha256}`;

/**
 * An uploaded listing photo of an agency. The bytes are kept once per content hash behind
 * `BlobStorage` (key `media-<sha256>`); this row is the agency's handle on them (one per agency
 * and content: uploading the same bytes again answers the same row).
 */
@Entity({ tableName: 'media', repository: () => MediaRepository })
export class Media {
  [EntityRepositoryType]?: MediaRepository;

  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  @Property({ type: 'uuid' })
  organizationId: string;

  @Property({ type: 'text' })
  sha256: string;

  @Property({ type: 'text' })
  mimeType: MediaMimeType;

  /** `jpg`, `png` or `webp`: the served path's extension. */
  @Property({ type: 'text' })
  extension: string;

  @Property({ type: 'integer' })
  sizeBytes: number;

  @Property({ type: 'integer' })
  width: number;

  @Property({ type: 'integer' })
  height: number;

  @Property({ type: 'uuid' })
  createdBy: string;

  @Property({ type: 'datetime' })
  createdAt: Date;

  constructor(
    props: {
      organizationId: string;
      sha256: string;
      mimeType: MediaMimeType;
      sizeBytes: number;
      width: number;
      height: number;
      createdBy: string;
    },
    now: Date,
  ) {
    this.organizationId = props.organizationId;
    this.sha256 = props.sha256;
    this.mimeType = props.mimeType;
    this.extension = MEDIA_TYPES[props.mimeType];
    this.sizeBytes = props.sizeBytes;
    this.width = props.width;
    this.height = props.height;
    this.createdBy = props.createdBy;
    this.createdAt = now;
  }
}
