/**
 * Listings (issue 16): the listing aggregate and catalogue (domain/), the Nest module with the
 * `/properties/*` and `/property-sources/*` routes, and `ListingSources` for brochures and matches.
 */
export * from './domain/listing-catalogue';
export { Listing, type ListingImage, type ListingSourceName } from './domain/listing.entity';
export { ListingsModule, LISTING_ENTITIES } from './listings.module';
export { ListingJobsModule } from './listing-jobs.module';
export { ListingExpiry } from './application/listing-expiry';
export { FeedJobsModule } from './feed-jobs.module';
export { MediaCleanupModule } from './media-cleanup.module';
export { MediaCleaner, type MediaCleanJson } from './application/media-cleaner';
export type { ListingRef, ListingSummary } from './views/listing-summary';
export {
  ListingSources,
  type ListingSourceFailure,
  type ResolvedListing,
} from './application/listing-sources';
export { PortalAllowanceExhausted } from './domain/portal-allowance';
export { ListingCards, type ListingCard } from './application/listing-cards';
// the MCP tools `search_properties` and `get_property` (issue 19) run the routes' queries with their DTOs
export { ListingSearchQueries } from './application/listing-search.queries';
export { ListingsQueries } from './application/listings.queries';
export { ListingSearchDto } from './http/dto/listing-search.dto';
export { LISTING_SORT_KEYS, SEARCH_SCOPE_NAMES } from './application/listing-search.sql';
export type { ListingRecordView } from './views/listing.view';
