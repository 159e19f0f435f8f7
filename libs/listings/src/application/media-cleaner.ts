import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable, Logger } from '@nestjs/common';
import {
  BlobStorage,
  isImageRefusal,
  JobName,
  MINUTE,
  Periodic,
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

/** Rows read per batch, and how long one periodic run keeps cleaning (the next run goes on). */
const BATCH = 100;
export const SWEEP_BUDGET_MS = 30_000;

/**
 * The photos stored before uploads were cleaned (`files` null, the upload as sent under
 * `media-<sha256>`) get their clean files and variants, as an upload makes them now; then the
 * stored upload is deleted (docs/security/uploaded-images.md, decision 0019). Three callers: the
 * first read of such a photo (`filesOf`, so its bytes are never served), a periodic sweep, and
 * `npm run ops -- media:clean`. Any of them may run at once, in any process: the files are named
 * by the upload's hash, a row only ever goes from null to files, and the upload is deleted last.
 */
@Injectable()
export class MediaCleaner {
  private readonly log = new Logger('MediaCleaner');
  /** One clean per upload at a time in this process: concurrent first reads share it. */
  private readonly running = new Map<string, Promise<MediaFiles | null>>();
  /** Uploads this process found it cannot clean: not decoded again on each read or sweep. */
  private readonly unreadable = new Set<string>();

  constructor(
    private readonly em: EntityManager,
    private readonly blobs: BlobStorage,
  ) {}

  /**
   * The clean files of upload `sha256`: another row's, or made now from the stored upload (every
   * row of it given them, the upload deleted). Null when it cannot be cleaned: the photo is then
   * not served at all.
   */
  filesOf(sha256: string): Promise<MediaFiles | null> {
    let cleaning = this.running.get(sha256);
    if (!cleaning) {
      cleaning = this.cleanUpload(sha256).finally(() => this.running.delete(sha256));
      this.running.set(sha256, cleaning);
    }
    return cleaning;
  }

  /** `npm run ops -- media:clean`: every upload not yet cleaned, retrying those that failed before. */
  async clean(progress: (line: string) => void = () => undefined): Promise<MediaCleanJson> {
    this.unreadable.clear();
    return this.cleanStored(Number.POSITIVE_INFINITY, progress);
  }

  /**
   * Every 5 minutes, in apps/worker with REDIS_URL or on the API's timer: about 30 s of cleaning
   * (one image at a time), so stored uploads, GPS and all, leave storage without an operator.
   * With nothing left it is one query on `media_uncleaned_idx` and sharp is never loaded.
   */
  @Periodic(JobName.MediaCleanStored, 5 * MINUTE)
  sweep(_now: Date): Promise<MediaCleanJson> {
    return this.cleanStored(SWEEP_BUDGET_MS);
  }

  private async cleanStored(budgetMs: number, progress: (line: string) => void = () => undefined) {
    const result: MediaCleanJson = { cleaned: 0, rows: 0, skipped: 0 };
    const started = Date.now();
    const skipped = new Set(this.unreadable);
    while (Date.now() - started < budgetMs) {
      const batch = await this.em
        .fork()
        .getRepository(Media)
        .findUncleaned([...skipped], BATCH);
      if (batch.length === 0) break;
      for (const sha256 of new Set(batch.map((row) => row.sha256))) {
        if (Date.now() - started >= budgetMs) break;
        const rows = batch.filter((row) => row.sha256 === sha256).length;
        if (await this.filesOf(sha256)) {
          result.cleaned += 1;
          result.rows += rows;
        } else {
          skipped.add(sha256);
          result.skipped += 1;
        }
      }
      progress(`${result.cleaned} uploads cleaned, ${result.skipped} skipped`);
    }
    return result;
  }

  private async cleanUpload(sha256: string): Promise<MediaFiles | null> {
    const clean = () => this.em.fork().getRepository(Media).findCleanByHash(sha256);
    let files = (await clean())?.files ?? null;
    if (!files) {
      if (this.unreadable.has(sha256)) return null;
      const bytes = await this.blobs.get(mediaBlobKey(sha256));
      // gone: cleaned meanwhile by another process (the upload is deleted after its rows are set)
      if (!bytes) return (await clean())?.files ?? this.leave(sha256, 'missing');
      files = await this.encode(sha256, bytes);
      if (!files) return null;
    }
    await this.em.fork().getRepository(Media).setFiles(sha256, files);
    // another process may have set its own record first: serve what the rows say
    const settled = (await clean())?.files ?? files;
    await this.blobs.delete(mediaBlobKey(sha256));
    return settled;
  }

  /** The clean files of the stored upload `sha256`, stored; null when it cannot be decoded. */
  private async encode(sha256: string, bytes: Buffer): Promise<MediaFiles | null> {
    const header = await readImageHeader(bytes);
    if (isImageRefusal(header)) return this.leave(sha256, header.kind);
    try {
      return await storeMediaFiles(this.blobs, sha256, await processImage(bytes, header));
    } catch (err) {
      if (!(err instanceof UnreadableImageError)) throw err;
      return this.leave(sha256, 'undecodable');
    }
  }

  private leave(sha256: string, reason: string): null {
    this.unreadable.add(sha256);
    this.log.warn({ sha256, reason }, 'stored photo left as it is, and not served');
    return null;
  }
}
