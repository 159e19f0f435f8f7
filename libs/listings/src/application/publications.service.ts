import { Injectable } from '@nestjs/common';
import type { Listing } from '../domain/listing.entity';

/**
 * Portal publications of a listing (issue 16 item 3). Placeholder: the publications helper builds
 * it. `ListingsService` calls `listingLeftActive` in the write's transaction whenever a listing
 * stops being ACTIVE (withdrawn, sold, expired, deleted) so its publications are undone.
 */
@Injectable()
export class PublicationsService {
  async listingLeftActive(_listing: Listing, _now: Date): Promise<void> {
    // built by the publications helper
  }
}
