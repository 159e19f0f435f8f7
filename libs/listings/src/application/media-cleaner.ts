import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable, Logger } from '@nestjs/common';
import {
  BlobStorage,
  isImageRefusal,
  loggableError,
  processImage,
  readImageHeader,
  UnreadableImageError,
} from '@app/platform';
import { Media, mediaBlobKey, type MediaFiles } from '../domain/media.entity';
import { storeMediaFiles } from './media-files';

export interface MediaCleanJson {
  /** Uploads (distinct hashes) re-encoded and their stored originals deleted. */
  cleaned: number;
  /** Rows those uploads had, in every agency. */
  rows: number;
  /** Uploads left as they were: their blob is missing, or it cannot be decoded (logged). */
  skipped: number;
}

/**
 * `npm run ops -- media:clean`: the photos stored before uploads were cleaned (`files` null,
 * the upload as sent under `media-<sha256>`) get their clean files and variants, as an upload
 * makes them now; then the stored upload is deleted (docs/security/uploaded-images.md).
 */
@Injectable()
export class MediaCleaner {
  private readonly log = new Logger('MediaCleaner');

  constructor(
    private readonly em: EntityManager,
    private readonly blobs: BlobStorage,
  ) {}

  async clean(progress: (line: string) => void = () => undefined): Promise<MediaCleanJson> {
    const result: MediaCleanJson = { cleaned: 0, rows: 0, skipped: 0 };
    const skipped = new Set<string>();
    for (;;) {
      const media = this.em.fork().getRepository(Media);
      const batch = await media.findUncleaned([...skipped], 100);
      if (batch.length === 0) return result;
      for (const sha256 of new Set(batch.map((row) => row.sha256))) {
        const files = await this.filesOf(sha256);
        if (!files) {
          skipped.add(sha256);
          result.skipped += 1;
          continue;
        }
        const rows = await media.setFiles(sha256, files);
        await this.blobs.delete(mediaBlobKey(sha256));
        result.cleaned += 1;
        result.rows += rows;
      }
      progress(`${result.cleaned} uploads cleaned, ${result.skipped} skipped`);
    }
  }

  /** The clean files of the stored upload `sha256`, stored; null when it cannot be read. */
  private async filesOf(sha256: string): Promise<MediaFiles | null> {
    const bytes = await this.blobs.get(mediaBlobKey(sha256));
    if (!bytes) return null;
    const header = await readImageHeader(bytes);
    if (isImageRefusal(header)) {
      this.log.warn({ sha256, reason: header.kind }, 'stored photo left as it is');
      return null;
    }
    try {
      return await storeMediaFiles(this.blobs, sha256, await processImage(bytes, header));
    } catch (err) {
      if (!(err instanceof UnreadableImageError)) throw err;
      this.log.warn({ sha256, err: loggableError(err) }, 'stored photo left as it is');
      return null;
    }
  }
}
