import { TenantRepository } from '@app/platform/core';
import type { Media } from './media.entity';

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
}
