import { CreateRequestContext, MikroORM } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { JobName, MINUTE, Periodic } from '@app/platform';
import { ListingHistory } from '../domain/listing-history.entity';
import { ListingRepository } from '../domain/listing.repository';
import { PublicationsService } from './publications.service';

/** Listings handled per batch, and batches per run (the next run takes the rest). */
export const EXPIRY_BATCH = 200;
const MAX_BATCHES = 50;

/** The history `source` of the service's own changes. */
export const EXPIRY_SOURCE = 'system:expiry';

/**
 * Listings at `expiresAt` (INTERFACES.md "Listings"): each due listing (internal, live, not
 * already EXPIRED, SOLD, RENTED or WITHDRAWN; index `listings_expiry_idx`) becomes `EXPIRED`, or
 * with `autoRenewEnabled` gets 90 more days (again until `expiresAt` is in the future). One
 * transaction per batch of 200: each listing's change, its history row (`system:expiry`) and, when it leaves
 * ACTIVE, its publications undone. Each minute, in apps/worker with REDIS_URL or on the API's timer.
 */
@Injectable()
export class ListingExpiry {
  constructor(
    // CreateRequestContext (the periodic job) finds the ORM here
    private readonly orm: MikroORM,
    private readonly em: EntityManager,
    private readonly listings: ListingRepository,
    private readonly publications: PublicationsService,
  ) {}

  @Periodic(JobName.ListingsExpireDue, MINUTE)
  @CreateRequestContext()
  async expireDue(now: Date): Promise<{ expired: number; renewed: number }> {
    const done = { expired: 0, renewed: 0 };
    for (let batch = 0; batch < MAX_BATCHES; batch++) {
      const taken = await this.expireBatch(now, done);
      this.em.clear();
      if (taken < EXPIRY_BATCH) break;
    }
    return done;
  }

  /**
   * One batch in one transaction: the due listings locked (skipping rows another run holds), each
   * one's change, its history row and, when it leaves ACTIVE, its publications undone; one flush.
   */
  private expireBatch(now: Date, done: { expired: number; renewed: number }): Promise<number> {
    return this.em.transactional(async (em) => {
      const due = await this.listings.lockDue(now, EXPIRY_BATCH);
      for (const listing of due) {
        const wasActive = listing.isActive;
        const { outcome, changedFields } = listing.expireOrRenew(now);
        done[outcome] += 1;
        em.persist(
          new ListingHistory(
            {
              organizationId: listing.organizationId,
              listingId: listing.id,
              source: EXPIRY_SOURCE,
              changedBy: null,
              changedFields,
            },
            now,
          ),
        );
        if (wasActive && !listing.isActive) await this.publications.listingLeftActive(listing, now);
      }
      await em.flush();
      return due.length;
    });
  }
}
