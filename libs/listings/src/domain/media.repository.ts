import { TenantRepository } from '@app/platform/core';
import type { Media, MediaFiles } from './media.entity';

/** The agency's photos; `findServed` is the one lookup by id alone (the public URL). */
export class MediaRepository extends TenantRepository<Media> {
  /** The agency's rows for these contents (`media_org_hash_idx`). */
  findByHashes(organizationId: string, sha256s: string[]): Promise<Media[]> {
    if (sha256s.length === 0) return Promise.resolve([]);
    return this.listInOrg(organizationId, { sha256: { $in: sha256s } });
  }

  /**
   * A clean row of this upload, whichever agency's (`media_clean_hash_idx`): its files are
   * content-addressed by the upload's hash, so another agency's upload of the same bytes reuses them.
   */
  findCleanByHash(sha256: string): Promise<Media | null> {
    return this.findOne({ sha256, files: { $ne: null } });
  }

  /**
   * A photo by id, whichever agency's: `GET /media/{id}.{ext}` is public by URL (listing photos
   * are shown on portals and brochures), the id (UUIDv7) being unguessable enough for photos.
   */
  findServed(id: string): Promise<Media | null> {
    return this.findOne({ id });
  }

  /**
   * Up to `limit` rows stored before the cleaning (`files` null; `media_uncleaned_idx`), any
   * agency's, by hash, leaving out `skipped` hashes (the sweep and `media:clean` walk them).
   */
  findUncleaned(skipped: string[], limit: number): Promise<Media[]> {
    return this.find(
      { files: null, ...(skipped.length > 0 ? { sha256: { $nin: skipped } } : {}) },
      { orderBy: { sha256: 'asc' }, limit },
    );
  }

  /** Gives every uncleaned row of upload `sha256` (in every agency) its clean files; the count. */
  setFiles(sha256: string, files: MediaFiles): Promise<number> {
    return this.nativeUpdate({ sha256, files: null }, { files });
  }
}
