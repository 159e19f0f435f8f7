import { Entity, EntityRepositoryType, PrimaryKey, Property } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';
import { MediaRepository } from './media.repository';

export const MEDIA_TYPES = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
} as const;
export type MediaMimeType = keyof typeof MEDIA_TYPES;

/** The blob key of a photo stored before uploads were cleaned: the bytes as they were sent. */
export const mediaBlobKey = (sha256: string): string => `media-${sha256}`;

/** One kept file of a photo: clean (no metadata, sRGB, oriented), its sides, type, size and hash. */
export interface MediaFile {
  width: number;
  height: number;
  mimeType: MediaMimeType;
  sizeBytes: number;
  sha256: string;
}

/** What is kept of an upload: the full-size clean re-encode in its own type, and the variants. */
export interface MediaFiles {
  full: MediaFile;
  variants: MediaFile[];
}

/**
 * The blob key of a kept file, named by the upload's hash (the same upload makes the same files,
 * whichever agency sends it): `media-<sha256>-full.<ext>`, `media-<sha256>-<width>.<webp|jpg>`.
 */
export const mediaFileKey = (uploadSha256: string, file: MediaFile, full: boolean): string =>
  `media-${uploadSha256}-${full ? 'full' : file.width}.${MEDIA_TYPES[file.mimeType]}`;

/**
 * An uploaded listing photo of an agency. `sha256` and `sizeBytes` are the upload's (the same
 * bytes again answer the same row); the upload itself is not kept: `files` are its clean
 * re-encodes behind `BlobStorage` (`mediaFileKey`). A row from before the cleaning has `files`
 * null and its upload under `media-<sha256>` until `MediaCleaner` cleans it, at the latest when it
 * is first read (docs/security/uploaded-images.md).
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

  @Property({ type: 'json', nullable: true })
  files: MediaFiles | null = null;

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
      files: MediaFiles;
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
    this.files = props.files;
    this.createdBy = props.createdBy;
    this.createdAt = now;
  }
}
