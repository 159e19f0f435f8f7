import { ListingReadabilityProvider, type ListingReadability } from '@app/crm';
import { ListingsQueries } from './listings.queries';

/**
 * The CRM's `ListingReadability` port: a deal's or viewing's `propertyListingId` must name a
 * listing the agency can read (its own live listing, or another agency's on the network).
 */
@ListingReadabilityProvider()
export class ListingReadabilityAdapter implements ListingReadability {
  constructor(private readonly queries: ListingsQueries) {}

  isReadable(organizationId: string, listingId: string): Promise<boolean> {
    return this.queries.isReadable(organizationId, listingId);
  }
}
