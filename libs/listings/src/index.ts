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
export type { ListingRef, ListingSummary } from './views/listing-summary';
export {
  ListingSources,
  type ListingSourceFailure,
  type ResolvedListing,
} from './application/listing-sources';
export { PortalAllowanceExhausted } from './domain/portal-allowance';
export { ListingCards, type ListingCard } from './application/listing-cards';
