import { ApiProperty } from '@nestjs/swagger';
import type { ListResult } from '@app/platform';
import { FEED_SOURCES, type FeedSource } from '../domain/feeds/feed-parser';
import type { PropertyFeed } from '../domain/property-feed.entity';

/** What one import did. */
export interface FeedImportOutcome {
  status: 'ok' | 'failed';
  /** Listings new to the agency. */
  created: number;
  /** Listings whose data changed, or that came back. */
  updated: number;
  unchanged: number;
  /** Listings the feed no longer lists (soft-deleted). */
  removed: number;
  /** Entries left out (invalid, or an earlier copy of a repeated id). */
  skipped: number;
  /** Why it failed, or, on success, which entries were skipped. */
  error: string | null;
}

/** A connected feed as the dashboard shows it. */
export interface PropertyFeedJson {
  id: string;
  source: FeedSource;
  url: string;
  refreshMinutes: number;
  lastImportedAt: string | null;
  lastStatus: 'ok' | 'failed' | null;
  lastError: string | null;
  listingCount: number;
  nextImportAt: string;
  createdAt: string;
}

export const propertyFeedView = (feed: PropertyFeed): PropertyFeedJson => ({
  id: feed.id,
  source: feed.source,
  url: feed.url,
  refreshMinutes: feed.refreshMinutes,
  lastImportedAt: feed.lastImportedAt?.toISOString() ?? null,
  lastStatus: feed.lastStatus,
  lastError: feed.lastError,
  listingCount: feed.listingCount,
  nextImportAt: feed.nextImportAt.toISOString(),
  createdAt: feed.createdAt.toISOString(),
});

export class PropertyFeedView implements PropertyFeedJson {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: FEED_SOURCES, description: 'The format; also the `source` of its listings.' })
  source: FeedSource;
  @ApiProperty({ format: 'uri', example: 'https://feeds.example.com/kyero.xml' }) url: string;
  @ApiProperty({ type: 'integer', minimum: 60, maximum: 10080 }) refreshMinutes: number;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the last import ran (ok or failed); null before the first.',
  })
  lastImportedAt: string | null;
  @ApiProperty({ type: String, enum: ['ok', 'failed'], nullable: true }) lastStatus: 'ok' | 'failed' | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'Why the last import failed (download, HTTP status, size, time, a malformed document, or the ' +
      "outbound guard's refusal: `address not allowed`, `too many redirects`); never what the feed's " +
      'host answered. After an `ok` import, which entries were skipped, if any.',
  })
  lastError: string | null;
  @ApiProperty({ type: 'integer', description: 'Live listings the last successful import left.' })
  listingCount: number;
  @ApiProperty({ format: 'date-time', description: 'When the service imports it next.' })
  nextImportAt: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

/** `{data: Feed[], hasMore: false}`: at most one feed per source. */
export class PropertyFeedListView implements ListResult<PropertyFeedJson> {
  @ApiProperty({ type: [PropertyFeedView] }) data: PropertyFeedView[];
  @ApiProperty({ description: 'Whole list: always false.' }) hasMore: boolean;
}

export class FeedImportOutcomeView implements FeedImportOutcome {
  @ApiProperty({ enum: ['ok', 'failed'] }) status: 'ok' | 'failed';
  @ApiProperty({ type: 'integer', description: 'Listings new to the agency.' }) created: number;
  @ApiProperty({ type: 'integer', description: 'Listings changed, or back after the feed dropped them.' })
  updated: number;
  @ApiProperty({ type: 'integer' }) unchanged: number;
  @ApiProperty({ type: 'integer', description: 'Listings the feed no longer lists (removed).' })
  removed: number;
  @ApiProperty({ type: 'integer', description: 'Entries left out: invalid, or repeated ids.' })
  skipped: number;
  @ApiProperty({ type: String, nullable: true }) error: string | null;
}

/** The answer of `POST /organization/property-feeds/{id}/import`. */
export class FeedImportView {
  @ApiProperty({ type: PropertyFeedView, description: 'The feed after the import.' }) feed: PropertyFeedView;
  @ApiProperty({ type: FeedImportOutcomeView }) import: FeedImportOutcomeView;
}
