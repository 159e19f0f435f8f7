import type { ListingSourceName } from './listing.entity';

/**
 * The property sources an agency browses through `/property-sources` (INTERFACES.md "Listings"):
 * `internal` (its own listings, always connected), the three feeds (connected when the agency has
 * a `property_feeds` row for them; their imported rows are `listings` with `source` the feed) and
 * the portals of `PortalRegistry` (`demoportal`), which need a `country`. Pure.
 */
export const FEED_SOURCES = ['kyero', 'redsp', 'jsonfeed'] as const satisfies readonly ListingSourceName[];
export type FeedSource = (typeof FEED_SOURCES)[number];

export const SOURCE_KINDS = ['internal', 'feed', 'portal'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

export const isFeedSource = (source: string): source is FeedSource =>
  (FEED_SOURCES as readonly string[]).includes(source);

/** The most a `/property-sources/{source}/search` page holds (`/properties/search` allows 100). */
export const SOURCE_SEARCH_MAX_LIMIT = 50;
