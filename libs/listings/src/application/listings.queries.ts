import { Injectable } from '@nestjs/common';
import type { ListingSourceName } from '../domain/listing.entity';

/**
 * Reads of one listing record (issue 16 item 2/3). Placeholder signature: the listing-aggregate
 * helper builds it (`GET /properties/{id}`, the record view with the network rules).
 */
@Injectable()
export class ListingsQueries {
  /**
   * The record of a listing of `source` (`internal` or a connected feed) as the agency
   * `organizationId` may read it (own rows; for `internal` also other agencies' network listings,
   * with the network view rules), or null when it cannot.
   */
  readFromSource(
    _organizationId: string,
    _source: ListingSourceName,
    _id: string,
  ): Promise<Record<string, unknown> | null> {
    return Promise.reject(new Error('listing reads: not built yet'));
  }
}
