import { CreateRequestContext, MikroORM } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable, Logger } from '@nestjs/common';
import { v7 as uuidv7 } from 'uuid';
import { JobName, loggableError, MINUTE, Periodic } from '@app/platform';
import { feedParserFor, MalformedFeedError, type FeedParseResult, type FeedSource } from '../domain/feeds';
import { FeedDownloadError, FeedFetcher } from './feed-fetch';
import {
  batchJson,
  CLAIM_DUE_FEEDS,
  IMPORT_BATCH,
  LOCK_FEED,
  LOCK_FEED_NOWAIT,
  READ_FEED,
  RECORD_IMPORT,
  REMOVE_MISSING_FEED_LISTINGS,
  UPSERT_FEED_LISTINGS,
} from './feed-import.sql';
import type { FeedImportOutcome } from '../views/property-feed.view';

interface FeedRow {
  id: string;
  organization_id: string;
  source: FeedSource;
  url: string;
  refresh_minutes: number;
}

/** Feeds one periodic run imports at most (one after another). */
const FEEDS_PER_RUN = 10;
/** How long a claimed feed is kept from other runs while it imports. */
const CLAIM_LEASE_MS = 30 * MINUTE;
const ERROR_MAX = 1000;

/**
 * Imports connected feeds (issue 16 item 5): downloads and parses outside any transaction, then
 * in ONE transaction upserts every entry into `listings` by `(organization_id, source,
 * external_id)` in batches, soft-deletes the feed's listings it no longer lists and writes the
 * outcome on the feed row (`next_import_at` = now + `refresh_minutes`). A download or document
 * that fails changes no listing: only the feed row's outcome (`failed`, `last_error`).
 */
@Injectable()
export class FeedImporter {
  private readonly log = new Logger('FeedImporter');

  constructor(
    // CreateRequestContext (the periodic job) finds the ORM here
    private readonly orm: MikroORM,
    private readonly em: EntityManager,
    private readonly fetcher: FeedFetcher,
  ) {}

  /**
   * Imports the feed `feedId` now. Null when the feed is gone (removed meanwhile). With
   * `nowait`, an import of the same feed holding its row makes this fail with
   * `lock_not_available` (55P03) instead of waiting for it.
   */
  async importFeed(
    feedId: string,
    now: Date,
    options: { nowait?: boolean } = {},
  ): Promise<FeedImportOutcome | null> {
    const [feed] = await this.em.execute<FeedRow[]>(READ_FEED, [feedId]);
    if (!feed) return null;

    let parsed: FeedParseResult | null = null;
    let failure: string | null = null;
    try {
      parsed = await this.fetcher.fetchInto(feed.url, feedParserFor(feed.source));
    } catch (err) {
      if (!(err instanceof FeedDownloadError || err instanceof MalformedFeedError)) throw err;
      failure = err.message;
    }

    return this.em.transactional(async (em): Promise<FeedImportOutcome | null> => {
      const [locked] = await em.execute<FeedRow[]>(options.nowait ? LOCK_FEED_NOWAIT : LOCK_FEED, [feedId]);
      if (!locked) return null;
      const next = new Date(now.getTime() + locked.refresh_minutes * MINUTE);
      if (!parsed) {
        await em.execute(RECORD_IMPORT, [now, 'failed', clip(failure), null, next, now, feedId]);
        return {
          status: 'failed',
          created: 0,
          updated: 0,
          unchanged: 0,
          removed: 0,
          skipped: 0,
          error: failure,
        };
      }
      // the row's URL may have changed while downloading: the next run takes the new one
      const outcome = await this.write(em, locked, parsed, now);
      const nextAt = locked.url === feed.url ? next : now;
      await em.execute(RECORD_IMPORT, [
        now,
        'ok',
        clip(outcome.error),
        parsed.entries.length,
        nextAt,
        now,
        feedId,
      ]);
      return outcome;
    });
  }

  /**
   * The periodic import: claims due feeds (`next_import_at <= now`, `for update skip locked`, so
   * parallel runs never take the same feed) and imports them one after another.
   */
  @Periodic(JobName.ListingsImportFeeds, MINUTE)
  @CreateRequestContext()
  async importDueFeeds(now: Date): Promise<{ imported: number; failed: number }> {
    const claimed = await this.em.execute<{ id: string }[]>(CLAIM_DUE_FEEDS, [
      new Date(now.getTime() + CLAIM_LEASE_MS),
      now,
      FEEDS_PER_RUN,
    ]);
    let imported = 0;
    let failed = 0;
    for (const { id } of claimed) {
      try {
        const outcome = await this.importFeed(id, now);
        if (outcome?.status === 'ok') imported += 1;
        else if (outcome) failed += 1;
      } catch (err) {
        // the lease brings it back later; the other feeds go on
        failed += 1;
        this.log.error({ err: loggableError(err), feedId: id }, 'feed import failed');
      }
    }
    return { imported, failed };
  }

  private async write(
    em: EntityManager,
    feed: FeedRow,
    parsed: FeedParseResult,
    now: Date,
  ): Promise<FeedImportOutcome> {
    let created = 0;
    let updated = 0;
    for (let at = 0; at < parsed.entries.length; at += IMPORT_BATCH) {
      const batch = parsed.entries.slice(at, at + IMPORT_BATCH).map((entry) => ({ ...entry, id: uuidv7() }));
      const rows = await em.execute<{ id: string }[]>(UPSERT_FEED_LISTINGS, [
        feed.organization_id,
        feed.source,
        now,
        now,
        batchJson(batch),
      ]);
      const newIds = new Set(batch.map((entry) => entry.id));
      for (const row of rows) {
        if (newIds.has(row.id)) created += 1;
        else updated += 1;
      }
    }
    const removed = await em.execute<{ id: string }[]>(REMOVE_MISSING_FEED_LISTINGS, [
      now,
      now,
      feed.organization_id,
      feed.source,
      JSON.stringify(parsed.entries.map((entry) => entry.externalId)),
    ]);
    const skippedNote =
      parsed.skipped > 0
        ? `${parsed.skipped} ${parsed.skipped === 1 ? 'entry' : 'entries'} skipped: ${parsed.issues.join('; ')}`
        : null;
    return {
      status: 'ok',
      created,
      updated,
      unchanged: parsed.entries.length - created - updated,
      removed: removed.length,
      skipped: parsed.skipped,
      error: skippedNote,
    };
  }
}

const clip = (text: string | null): string | null =>
  text === null || text.length <= ERROR_MAX ? text : `${text.slice(0, ERROR_MAX - 1)}…`;
