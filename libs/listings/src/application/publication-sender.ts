import { CreateRequestContext, MikroORM } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { AppConfig, JobName, MINUTE, Periodic } from '@app/platform';
import type { Listing } from '../domain/listing.entity';
import { ListingRepository } from '../domain/listing.repository';
import { toListingRecord } from '../views/listing.view';
import { PortalRegistry } from './portals/portal-registry';

/** Rows one run claims. */
export const PUBLICATION_BATCH = 50;
/** A claimed row is not picked again for this long (a run that died lets it go). */
export const PUBLICATION_LEASE_MS = 5 * MINUTE;
/** The wait after the 1st, 2nd, 3rd and 4th failed attempt; the 5th gives up. */
export const PUBLICATION_BACKOFF_MS = [1 * MINUTE, 5 * MINUTE, 30 * MINUTE, 30 * MINUTE] as const;
export const PUBLICATION_MAX_ATTEMPTS = 5;
const ERROR_MAX_LENGTH = 200;

interface ClaimedRow {
  listing_id: string;
  portal: string;
  organization_id: string;
  enabled: boolean;
  external_id: string | null;
  attempts: number;
  /** As PostgreSQL wrote it (text, full precision): the outcome is written only while it is unchanged. */
  updated_at: string;
  /** The listing can be on a portal: ACTIVE and not deleted. */
  listing_live: boolean;
}

type Outcome =
  | { kind: 'published'; externalId: string }
  | { kind: 'simulated'; externalId: string }
  | { kind: 'unpublished' }
  | { kind: 'failed'; error: string; externalId?: string };

/**
 * The listing as a portal receives it: the record as another agency reads it (never
 * `commission`; coordinates only with `showExactLocation`; image URLs resolved).
 */
export const publicationRecord = (listing: Listing, publicBaseUrl: string): Record<string, unknown> => ({
  ...toListingRecord(listing, null, { own: false, publicBaseUrl }),
});

/** A portal's failure as a short text (no stack, no newlines). */
export const shortError = (err: unknown): string =>
  (err instanceof Error ? err.message : String(err)).replace(/\s+/g, ' ').trim().slice(0, ERROR_MAX_LENGTH) ||
  'portal error';

/**
 * Sends due publications to the portals (INTERFACES.md "Listings"): each run claims up to 50 due
 * rows (`for update skip locked`, then a lease, so two runs never send one row), calls the
 * portal outside any transaction, then writes the outcome: `published` with the portal's id
 * (`simulated` on a sample-data portal, which sends nothing), `unpublished`, or `failed` (short
 * `lastError`, retried after 1, 5, 30 and 30 minutes, given up
 * at the 5th attempt). An outcome is written only while the row is still what was claimed; a row
 * changed meanwhile is due again and keeps any id the portal gave, so nothing stays on a portal
 * unseen.
 */
@Injectable()
export class PublicationSender {
  constructor(
    // CreateRequestContext (the periodic job) finds the ORM here
    private readonly orm: MikroORM,
    private readonly em: EntityManager,
    private readonly listings: ListingRepository,
    private readonly portals: PortalRegistry,
    private readonly config: AppConfig,
  ) {}

  @Periodic(JobName.ListingsPublish, 30_000)
  @CreateRequestContext()
  async sendDue(
    now: Date,
  ): Promise<{ published: number; simulated: number; unpublished: number; failed: number }> {
    const claimed = await this.claim(now);
    const records = await this.recordsOf(claimed.filter((row) => row.enabled && row.listing_live));
    const summary = { published: 0, simulated: 0, unpublished: 0, failed: 0 };
    for (const row of claimed) {
      const outcome = await this.send(row, records.get(row.listing_id));
      await this.write(row, outcome, now);
      summary[outcome.kind] += 1;
    }
    return summary;
  }

  private claim(now: Date): Promise<ClaimedRow[]> {
    return this.em.execute<ClaimedRow[]>(
      `with due as (
         select listing_id, portal from listing_publications
          where next_attempt_at <= ?
          order by next_attempt_at
          limit ?
          for update skip locked
       )
       update listing_publications p
          set next_attempt_at = ?
         from due, listings l
        where p.listing_id = due.listing_id and p.portal = due.portal and l.id = p.listing_id
       returning p.listing_id, p.portal, p.organization_id, p.enabled, p.external_id, p.attempts, p.updated_at,
                 (l.status = 'ACTIVE' and l.deleted_at is null) as listing_live`,
      [now, PUBLICATION_BATCH, new Date(now.getTime() + PUBLICATION_LEASE_MS)],
    );
  }

  /** The listings to publish, by id: one read per agency in the batch. */
  private async recordsOf(rows: ClaimedRow[]): Promise<Map<string, Record<string, unknown>>> {
    const byOrganization = new Map<string, string[]>();
    for (const row of rows) {
      byOrganization.set(row.organization_id, [
        ...(byOrganization.get(row.organization_id) ?? []),
        row.listing_id,
      ]);
    }
    const records = new Map<string, Record<string, unknown>>();
    for (const [organizationId, ids] of byOrganization) {
      const found = await this.listings.listInOrg(organizationId, { id: { $in: [...new Set(ids)] } });
      for (const listing of found)
        records.set(listing.id, publicationRecord(listing, this.config.publicBaseUrl));
    }
    return records;
  }

  /** One portal call, never inside a transaction; a throw is a failed attempt. */
  private async send(row: ClaimedRow, record: Record<string, unknown> | undefined): Promise<Outcome> {
    const adapter = this.portals.get(row.portal);
    const publish = row.enabled && row.listing_live;
    if (!publish && row.external_id === null) return { kind: 'unpublished' };
    if (!adapter) return { kind: 'failed', error: `portal ${row.portal} is not available` };
    try {
      if (publish) {
        if (!record) return { kind: 'failed', error: 'listing not found' };
        const { externalId } = await adapter.publish(record);
        return { kind: adapter.simulated ? 'simulated' : 'published', externalId };
      }
      await adapter.unpublish(row.external_id as string);
      return { kind: 'unpublished' };
    } catch (err) {
      return { kind: 'failed', error: shortError(err) };
    }
  }

  private async write(row: ClaimedRow, outcome: Outcome, now: Date): Promise<void> {
    const still = `listing_id = ? and portal = ? and enabled = ? and updated_at = ?::timestamptz`;
    const key = [row.listing_id, row.portal, row.enabled, row.updated_at];
    let written: unknown[];
    if (outcome.kind === 'published' || outcome.kind === 'simulated') {
      written = await this.em.execute(
        `update listing_publications
            set status = ?, external_id = ?, published_at = ?, last_error = null, attempts = 0,
                next_attempt_at = null, updated_at = ?
          where ${still} returning portal`,
        [outcome.kind, outcome.externalId, now, now, ...key],
      );
    } else if (outcome.kind === 'unpublished') {
      written = await this.em.execute(
        `update listing_publications
            set status = 'unpublished', enabled = false, external_id = null, published_at = null,
                last_error = null, attempts = 0, next_attempt_at = null, updated_at = ?
          where ${still} returning portal`,
        [now, ...key],
      );
    } else {
      const attempts = row.attempts + 1;
      const retryAt =
        attempts >= PUBLICATION_MAX_ATTEMPTS
          ? null
          : new Date(
              now.getTime() + PUBLICATION_BACKOFF_MS[Math.min(attempts, PUBLICATION_BACKOFF_MS.length) - 1],
            );
      written = await this.em.execute(
        `update listing_publications
            set status = 'failed', last_error = ?, attempts = ?, next_attempt_at = ?, updated_at = ?
          where ${still} returning portal`,
        [outcome.error, attempts, retryAt, now, ...key],
      );
    }
    if (written.length === 0 && (outcome.kind === 'published' || outcome.kind === 'simulated')) {
      // changed while the portal answered (turned off, the listing withdrawn): keep the portal's
      // id so the unpublish the row now waits for (or a new one, due now) can take it down
      await this.em.execute(
        `update listing_publications
            set external_id = ?,
                status = case when enabled then status else 'pending' end,
                next_attempt_at = case when enabled then next_attempt_at else ?::timestamptz end
          where listing_id = ? and portal = ?`,
        [outcome.externalId, now, row.listing_id, row.portal],
      );
    }
  }
}
