import { EntityManager, UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { Clock, conflict, ListResult, notFound, Principal, validationFailed, wholeList } from '@app/platform';
import type { FeedSource } from '../domain/feeds/feed-parser';
import { FEED_REFRESH, PropertyFeed } from '../domain/property-feed.entity';
import { PropertyFeedRepository } from '../domain/property-feed.repository';
import { FeedImportOutcome, propertyFeedView, PropertyFeedJson } from '../views/property-feed.view';
import { FeedFetcher } from './feed-fetch';
import { FeedImporter } from './feed-importer';
import { REMOVE_ALL_FEED_LISTINGS } from './feed-import.sql';

export const FEED_SOURCE_TAKEN = 'This agency already has a feed of this source.';
export const FEED_IMPORT_RUNNING = 'An import of this feed is running; try again in a moment.';

/**
 * The agency's connected feeds on the dashboard (`/organization/property-feeds`): anyone lists,
 * admins connect, change, remove and import now. Another agency's feed is not found.
 */
@Injectable()
export class PropertyFeedsService {
  constructor(
    private readonly em: EntityManager,
    private readonly feeds: PropertyFeedRepository,
    private readonly importer: FeedImporter,
    private readonly fetcher: FeedFetcher,
    private readonly clock: Clock,
  ) {}

  async list(actor: Principal): Promise<ListResult<PropertyFeedJson>> {
    return wholeList((await this.feeds.byCreated(actor.organizationId)).map(propertyFeedView));
  }

  /**
   * One per source (409); the first import is due at once (the periodic job takes it). A URL the
   * outbound guard refuses (an internal address) is 400 at `url`.
   */
  async connect(
    actor: Principal,
    input: { source: FeedSource; url: string; refreshMinutes?: number },
  ): Promise<PropertyFeedJson> {
    await this.checkUrl(input.url);
    const feed = new PropertyFeed(
      {
        organizationId: actor.organizationId,
        source: input.source,
        url: input.url,
        refreshMinutes: input.refreshMinutes ?? FEED_REFRESH.default,
      },
      this.clock.now(),
    );
    try {
      await this.em.transactional((em) => em.persist(feed).flush());
    } catch (err) {
      if (err instanceof UniqueConstraintViolationException) throw conflict(FEED_SOURCE_TAKEN);
      throw err;
    }
    return propertyFeedView(feed);
  }

  async change(
    actor: Principal,
    feedId: string,
    input: { url?: string; refreshMinutes?: number },
  ): Promise<PropertyFeedJson> {
    if (input.url !== undefined) await this.checkUrl(input.url);
    return this.whileNoImport(() =>
      this.em.transactional(async () => {
        const feed = await this.lockOwn(actor, feedId);
        feed.change(input, this.clock.now());
        await this.em.flush();
        return propertyFeedView(feed);
      }),
    );
  }

  /** Removes the feed and, in the same transaction, every listing it imported (soft). */
  async remove(actor: Principal, feedId: string): Promise<void> {
    await this.whileNoImport(() =>
      this.em.transactional(async (em) => {
        const feed = await this.lockOwn(actor, feedId);
        const now = this.clock.now();
        await em.execute(REMOVE_ALL_FEED_LISTINGS, [now, now, feed.organizationId, feed.source]);
        await em.remove(feed).flush();
      }),
    );
  }

  /** Imports the feed now and answers the outcome with the feed row after it. */
  async importNow(
    actor: Principal,
    feedId: string,
  ): Promise<{ feed: PropertyFeedJson; import: FeedImportOutcome }> {
    const feed = await this.feeds.findInOrg(actor.organizationId, { id: feedId });
    if (!feed) throw notFound('Property feed');
    const outcome = await this.whileNoImport(() =>
      this.importer.importFeed(feed.id, this.clock.now(), { nowait: true }),
    );
    if (!outcome) throw notFound('Property feed');
    await this.em.refresh(feed);
    return { feed: propertyFeedView(feed), import: outcome };
  }

  /** Before any transaction: resolving the host may take seconds. */
  private async checkUrl(url: string): Promise<void> {
    const refusal = await this.fetcher.refusal(url);
    if (refusal) throw validationFailed([{ path: 'url', message: `url: ${refusal}` }]);
  }

  private async lockOwn(actor: Principal, feedId: string): Promise<PropertyFeed> {
    const feed = await this.feeds.lockInOrg(actor.organizationId, feedId);
    if (!feed) throw notFound('Property feed');
    return feed;
  }

  /** An import holding the feed's row answers 409 instead of a wait. */
  private async whileNoImport<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if ((err as { code?: unknown }).code === LOCK_NOT_AVAILABLE) throw conflict(FEED_IMPORT_RUNNING);
      throw err;
    }
  }
}

/** PostgreSQL's SQLSTATE for `for update nowait` on a locked row. */
const LOCK_NOT_AVAILABLE = '55P03';
