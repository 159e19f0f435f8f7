import { TenantRepository } from '@app/platform/core';
import type { Listing } from './listing.entity';

/** The agency's listings; a deleted listing is never found. */
export class ListingRepository extends TenantRepository<Listing> {
  /** One of the agency's own (`internal`) listings, live. */
  findOwn(organizationId: string, id: string): Promise<Listing | null> {
    return this.findInOrg(organizationId, { id, source: 'internal', deletedAt: null });
  }
}
