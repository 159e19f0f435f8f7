import { TenantRepository } from '@app/platform/core';
import type { BrochureListing } from './brochure-listing.entity';

export class BrochureListingRepository extends TenantRepository<BrochureListing> {
  /** Across agencies on purpose: the copies of the expiry job's batch, in position order. */
  ofBrochures(brochureIds: string[]): Promise<BrochureListing[]> {
    if (brochureIds.length === 0) return Promise.resolve([]);
    return this.find(
      { brochureId: { $in: brochureIds } },
      { orderBy: { position: 'asc', createdAt: 'asc' } },
    );
  }
}
