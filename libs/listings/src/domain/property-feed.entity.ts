import { Entity, EntityRepositoryType, PrimaryKey, Property } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';
import type { FeedSource } from './feeds/feed-parser';
import { PropertyFeedRepository } from './property-feed.repository';

/** Refresh bounds of a feed, in minutes (INTERFACES.md "Listings": ≥ 60; at most a week). */
export const FEED_REFRESH = { min: 60, max: 10_080, default: 360 } as const;

export type FeedImportStatus = 'ok' | 'failed';

/**
 * A feed an agency connected (one per source): where its listings come from and how the last
 * import went. The importer writes the outcome columns in its own transaction (SQL); the dashboard
 * routes create, change and remove the row.
 */
@Entity({ tableName: 'property_feeds', repository: () => PropertyFeedRepository })
export class PropertyFeed {
  [EntityRepositoryType]?: PropertyFeedRepository;

  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  @Property({ type: 'uuid' })
  organizationId: string;

  @Property({ type: 'text' })
  source: FeedSource;

  @Property({ type: 'text' })
  url: string;

  @Property({ type: 'integer' })
  refreshMinutes: number;

  /** When the last import ran (ok or failed). */
  @Property({ type: 'datetime', nullable: true })
  lastImportedAt: Date | null = null;

  @Property({ type: 'text', nullable: true })
  lastStatus: FeedImportStatus | null = null;

  @Property({ type: 'text', nullable: true })
  lastError: string | null = null;

  /** Live listings the last successful import left. */
  @Property({ type: 'integer' })
  listingCount: number = 0;

  @Property({ type: 'datetime' })
  nextImportAt: Date;

  @Property({ type: 'datetime' })
  createdAt: Date;

  @Property({ type: 'datetime' })
  updatedAt: Date;

  /** A new connection: its first import is due at once. */
  constructor(
    props: { organizationId: string; source: FeedSource; url: string; refreshMinutes: number },
    now: Date,
  ) {
    this.organizationId = props.organizationId;
    this.source = props.source;
    this.url = props.url;
    this.refreshMinutes = props.refreshMinutes;
    this.nextImportAt = now;
    this.createdAt = now;
    this.updatedAt = now;
  }

  /**
   * A new URL is imported at once; a new refresh interval counts from the last import (or now,
   * when there was none).
   */
  change(input: { url?: string; refreshMinutes?: number }, now: Date): void {
    if (input.refreshMinutes !== undefined && input.refreshMinutes !== this.refreshMinutes) {
      this.refreshMinutes = input.refreshMinutes;
      const from = this.lastImportedAt ?? now;
      this.nextImportAt = new Date(from.getTime() + this.refreshMinutes * 60_000);
    }
    if (input.url !== undefined && input.url !== this.url) {
      this.url = input.url;
      this.nextImportAt = now;
    }
    this.updatedAt = now;
  }
}
