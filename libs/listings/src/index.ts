/**
 * Listings (issue 16): the listing aggregate and catalogue (domain/), the Nest module with the
 * `/properties/*` and `/property-sources/*` routes, and `ListingSources` for brochures and matches.
 */
export * from './domain/listing-catalogue';
export { Listing, type ListingImage, type ListingSourceName } from './domain/listing.entity';
export { ListingsModule, LISTING_ENTITIES } from './listings.module';
export { FeedJobsModule } from './feed-jobs.module';
export type { ListingRef, ListingSummary } from './views/listing-summary';
