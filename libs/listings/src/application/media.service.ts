import { createHash } from 'node:crypto';
import { EntityManager, LockMode } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import {
  AppConfig,
  BlobStorage,
  Clock,
  DomainError,
  type ImageHeader,
  isImageRefusal,
  notFound,
  type Principal,
  processImage,
  type ProcessedImage,
  readImageHeader,
  UnreadableImageError,
  validationFailed,
  type ValidationIssue,
} from '@app/platform';
import { checkImage, isRefusal, photoSidesRefusal, type CheckedImage } from '../domain/image-sniffing';
import { ListingHistory } from '../domain/listing-history.entity';
import { Listing, type ListingImage } from '../domain/listing.entity';
import {
  Media,
  MEDIA_TYPES,
  mediaFileKey,
  type MediaFiles,
  type MediaMimeType,
} from '../domain/media.entity';
import type { MediaJson } from '../views/media.view';
import { MediaCleaner } from './media-cleaner';
import { storeMediaFiles } from './media-files';
import { mediaView } from '../views/media.view';

/** INTERFACES.md "Listings": 1-20 files per upload, each ≤ 15 MB, all ≤ 100 MB; ≤ 100 images a listing. */
export const MEDIA_UPLOAD = {
  maxFiles: 20,
  maxFileBytes: 15 * 1024 * 1024,
  maxTotalBytes: 100 * 1024 * 1024,
} as const;
export const LISTING_IMAGES_MAX = 100;

/** An uploaded file as the multipart reader hands it over (its name and declared type are ignored). */
export interface UploadedMediaFile {
  originalname: string;
  mimetype: string;
  size: number;
  buffer: Buffer;
}

export interface MediaUploadFields {
  propertyId?: string;
}

type Checked = CheckedImage & { bytes: Buffer; sha256: string; index: number };

/** Where a served photo's bytes are and how to answer them. */
export interface ServedMedia {
  bytes: Buffer;
  mimeType: MediaMimeType;
  sha256: string;
}

/**
 * Listing photos: upload (checked by their bytes, kept once per content, optionally appended to
 * an own listing in the same transaction) and the public read by URL.
 */
@Injectable()
export class MediaService {
  constructor(
    private readonly em: EntityManager,
    private readonly blobs: BlobStorage,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly cleaner: MediaCleaner,
  ) {}

  /**
   * Every file's header is checked before anything is stored (one bad file → nothing stored); each
   * new upload is re-encoded clean with its variants (`keep`); the agency's row for that upload is
   * reused or made; with `propertyId` the photos are appended to the listing, its version bumped
   * and a history row written, all in one transaction. Blobs left by a failed transaction (or by
   * a later file that fails to decode) are harmless: content-addressed by the upload's hash, they
   * are what the next upload of the same bytes makes again.
   */
  async upload(
    actor: Principal,
    files: UploadedMediaFile[] | undefined,
    fields: MediaUploadFields,
  ): Promise<{ data: MediaJson[] }> {
    if (!files || files.length === 0) {
      throw validationFailed([
        { path: 'files', message: `send 1 to ${MEDIA_UPLOAD.maxFiles} images in the field \`files\`` },
      ]);
    }
    const checked = this.checkAll(files);
    if (fields.propertyId !== undefined) {
      // early and read-only: no bytes stored for a request that cannot succeed
      const listing = await this.em
        .fork()
        .getRepository(Listing)
        .findOwn(actor.organizationId, fields.propertyId);
      if (!listing) throw notFound('Listing');
      assertRoom(listing, checked.length);
    }
    const { kept, made } = await this.keep(checked);
    const media = await this.em.transactional(async (em) => {
      const now = this.clock.now();
      const existing = await em.getRepository(Media).findByHashes(
        actor.organizationId,
        checked.map((file) => file.sha256),
      );
      const byHash = new Map(existing.map((row) => [row.sha256, row]));
      const rows = checked.map((file) => {
        const files = kept.get(file.sha256) as MediaFiles;
        let row = byHash.get(file.sha256);
        if (!row) {
          row = new Media(
            {
              organizationId: actor.organizationId,
              sha256: file.sha256,
              mimeType: file.mimeType,
              sizeBytes: file.bytes.length,
              width: files.full.width,
              height: files.full.height,
              files,
              createdBy: actor.userId,
            },
            now,
          );
          byHash.set(file.sha256, row);
          em.persist(row);
        } else if (row.files === null) {
          // a photo stored before the cleaning, sent again: from now on it serves the clean files
          row.files = files;
        }
        return row;
      });
      if (fields.propertyId !== undefined) await this.append(em, actor, fields.propertyId, rows, now);
      await em.flush();
      return rows;
    });
    // an upload made clean now may have rows from before the cleaning (this agency's, another's)
    // and its bytes as sent in storage: those rows get the files, the stored upload goes
    for (const sha256 of made) await this.cleaner.filesOf(sha256);
    return { data: media.map((row) => mediaView(row, this.config.publicBaseUrl)) };
  }

  /**
   * The bytes of `/media/{id}.{ext}`: any agency's photo, by its id and its own extension: the
   * full-size clean file. A row from before the cleaning is cleaned first (`MediaCleaner`): its
   * upload as sent is never served; one that cannot be cleaned → 404.
   */
  async served(id: string, extension: string): Promise<ServedMedia> {
    const row = await this.em.fork().getRepository(Media).findServed(id);
    if (!row || row.extension !== extension) throw notFound('Media');
    const { full } = await this.filesOf(row);
    return this.read(mediaFileKey(row.sha256, full, true), full.mimeType, full.sha256);
  }

  /** The bytes of `/media/{id}/{width}.{webp|jpg}`: one of the photo's variants (cleaned first, as above). */
  async servedVariant(id: string, width: number, extension: string): Promise<ServedMedia> {
    const row = await this.em.fork().getRepository(Media).findServed(id);
    if (!row) throw notFound('Media');
    const variant = (await this.filesOf(row)).variants.find(
      (file) => file.width === width && MEDIA_TYPES[file.mimeType] === extension,
    );
    if (!variant) throw notFound('Media');
    return this.read(mediaFileKey(row.sha256, variant, false), variant.mimeType, variant.sha256);
  }

  private async filesOf(row: Media): Promise<MediaFiles> {
    const files = row.files ?? (await this.cleaner.filesOf(row.sha256));
    if (!files) throw notFound('Media');
    return files;
  }

  private async read(key: string, mimeType: MediaMimeType, sha256: string): Promise<ServedMedia> {
    const bytes = await this.blobs.get(key);
    if (!bytes) throw notFound('Media');
    return { bytes, mimeType, sha256 };
  }

  /**
   * The clean files of each new upload (docs/security/uploaded-images.md): another agency's clean
   * row of the same bytes lends its files; else every header is read by the decoder itself (the
   * sides and pixel rule again, nothing decoded yet) before any file is processed and stored.
   */
  private async keep(checked: Checked[]): Promise<{ kept: Map<string, MediaFiles>; made: string[] }> {
    const repository = this.em.fork().getRepository(Media);
    const kept = new Map<string, MediaFiles>();
    const todo: { file: Checked; header: ImageHeader }[] = [];
    const issues: ValidationIssue[] = [];
    for (const file of checked) {
      if (kept.has(file.sha256) || todo.some((one) => one.file.sha256 === file.sha256)) continue;
      const clean = await repository.findCleanByHash(file.sha256);
      if (clean?.files) {
        kept.set(file.sha256, clean.files);
        continue;
      }
      const header = await readImageHeader(file.bytes);
      const refused = isImageRefusal(header)
        ? header.message
        : photoSidesRefusal(header.width, header.height);
      if (refused) issues.push({ path: `files[${file.index}]`, message: refused });
      else todo.push({ file, header: header as ImageHeader });
    }
    if (issues.length > 0) throw validationFailed(issues);
    for (const { file, header } of todo) {
      kept.set(file.sha256, await this.store(file, header));
    }
    return { kept, made: todo.map(({ file }) => file.sha256) };
  }

  /** Re-encodes one upload and stores its files; the upload's own bytes are not kept. */
  private async store(file: Checked, header: ImageHeader): Promise<MediaFiles> {
    let processed: ProcessedImage;
    try {
      processed = await processImage(file.bytes, header);
    } catch (err) {
      if (!(err instanceof UnreadableImageError)) throw err;
      throw validationFailed([{ path: `files[${file.index}]`, message: err.message }]);
    }
    return storeMediaFiles(this.blobs, file.sha256, processed);
  }

  /** Type by magic bytes first (MEDIA_TYPE_NOT_ALLOWED), then each image's sides (VALIDATION_FAILED). */
  private checkAll(files: UploadedMediaFile[]): Checked[] {
    const results = files.map((file) => checkImage(file.buffer));
    const wrongType = results.findIndex((result) => isRefusal(result) && result.kind === 'type');
    if (wrongType >= 0) {
      throw new DomainError(
        'MEDIA_TYPE_NOT_ALLOWED',
        `files[${wrongType}] is not a JPEG, PNG or WebP image (told by its content, not its name).`,
      );
    }
    const issues: ValidationIssue[] = [];
    results.forEach((result, i) => {
      if (isRefusal(result) && result.kind === 'size')
        issues.push({ path: `files[${i}]`, message: result.message });
    });
    if (issues.length > 0) throw validationFailed(issues);
    return results.map((result, i) => ({
      ...(result as CheckedImage),
      bytes: files[i].buffer,
      sha256: createHash('sha256').update(files[i].buffer).digest('hex'),
      index: i,
    }));
  }

  /** Appends the photos to the own live listing (locked), +1 version, a history row. */
  private async append(
    em: EntityManager,
    actor: Principal,
    listingId: string,
    rows: Media[],
    now: Date,
  ): Promise<void> {
    const listing = await em
      .getRepository(Listing)
      .findInOrg(
        actor.organizationId,
        { id: listingId, source: 'internal', deletedAt: null },
        { lockMode: LockMode.PESSIMISTIC_WRITE },
      );
    if (!listing) throw notFound('Listing');
    assertRoom(listing, rows.length);
    const added: ListingImage[] = rows.map((row) => ({
      mediaId: row.id,
      extension: MEDIA_TYPES[row.mimeType],
      url: null,
      caption: null,
    }));
    listing.images = [...listing.images, ...added];
    listing.version += 1;
    listing.updatedAt = now;
    em.persist(
      new ListingHistory(
        {
          organizationId: actor.organizationId,
          listingId: listing.id,
          source: actor.kind === 'apiKey' ? `apikey:${actor.keyId}` : `session:${actor.sessionId}`,
          changedBy: actor.userId,
          changedFields: ['images'],
        },
        now,
      ),
    );
  }
}

function assertRoom(listing: Listing, adding: number): void {
  if (listing.images.length + adding > LISTING_IMAGES_MAX) {
    throw validationFailed([
      {
        path: 'files',
        message: `a listing holds at most ${LISTING_IMAGES_MAX} images (it has ${listing.images.length}; ${adding} sent)`,
      },
    ]);
  }
}
