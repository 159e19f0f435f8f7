import { Injectable } from '@nestjs/common';
import type { ListingSourceName } from '../domain/listing.entity';
import type { ListingSearchDto } from '../http/dto/listing-search.dto';
import type { ListingSummary } from '../views/listing-summary';

/** A page of summaries with the exact total. */
export interface SummaryPage {
  data: ListingSummary[];
  total: number;
}

/**
 * Property search over the `listings` table (issue 16 item 3): `/properties/search`, count and
 * aggregations, and the `internal` and feed sources of `/property-sources/{source}/search`.
 * Placeholder signatures: the search helper builds it.
 */
@Injectable()
export class ListingSearchQueries {
  /**
   * One page of `source`'s listings of the agency (`internal` own listings, or a connected feed's
   * imported rows), filtered and sorted as `body` says; `scope` is ignored here (own only).
   */
  sourcePage(
    _organizationId: string,
    _source: ListingSourceName,
    _body: ListingSearchDto,
  ): Promise<SummaryPage> {
    return Promise.reject(new Error('listing search: not built yet'));
  }
}
