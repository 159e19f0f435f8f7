import { TenantRepository } from '@app/platform/core';
import type { ListingHistory } from './listing-history.entity';

/** A listing's change records. */
export class ListingHistoryRepository extends TenantRepository<ListingHistory> {
  /** The newest `limit` rows of one of the agency's listings, newest first. */
  newestOf(organizationId: string, listingId: string, limit: number): Promise<ListingHistory[]> {
    return this.listInOrg(organizationId, { listingId }, { orderBy: { at: 'desc', id: 'desc' }, limit });
  }
}
