import { LockMode } from '@mikro-orm/core';
import { TenantRepository } from '@app/platform/core';
import type { Listing } from './listing.entity';
import { Media } from './media.entity';

/** The agency's listings; a deleted listing is never found. */
export class ListingRepository extends TenantRepository<Listing> {
  /** One of the agency's own (`internal`) listings, live. */
  findOwn(organizationId: string, id: string): Promise<Listing | null> {
    return this.findInOrg(organizationId, { id, source: 'internal', deletedAt: null });
  }

  /** As `findOwn`, locked for the write's transaction (two writes of one listing queue up). */
  findOwnForUpdate(organizationId: string, id: string): Promise<Listing | null> {
    return this.findInOrg(
      organizationId,
      { id, source: 'internal', deletedAt: null },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
  }

  /** A live row of `source` owned by the agency (its own listing or a feed's import). */
  findOfSource(organizationId: string, source: string, id: string): Promise<Listing | null> {
    return this.findInOrg(organizationId, { id, source: source as Listing['source'], deletedAt: null });
  }

  /**
   * Another agency's listing as the network may see it: a live internal row of any agency (the
   * caller checks `isOnNetwork`). Deliberately unscoped: the network view rules decide.
   */
  findAnyInternal(id: string): Promise<Listing | null> {
    return this.findOne({ id, source: 'internal', deletedAt: null });
  }

  /** Live internal listings of any agency among `ids` (the caller applies the network rules). */
  findAnyInternalByIds(ids: string[]): Promise<Listing[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.find({ id: { $in: ids }, source: 'internal', deletedAt: null });
  }

  /** The agency's uploaded media among `ids`. */
  mediaOf(organizationId: string, ids: string[]): Promise<Media[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.getEntityManager().find(Media, { organizationId, id: { $in: ids } });
  }

  /**
   * Up to `limit` due listings (internal, live, past `expiresAt`, not EXPIRED, SOLD, RENTED or
   * WITHDRAWN; index `listings_expiry_idx`), locked for the caller's transaction; rows another run
   * holds are skipped (`for update skip locked`).
   */
  lockDue(now: Date, limit: number): Promise<Listing[]> {
    return this.find(
      {
        source: 'internal',
        deletedAt: null,
        expiresAt: { $lte: now },
        status: { $nin: ['EXPIRED', 'SOLD', 'RENTED', 'WITHDRAWN'] },
      },
      { orderBy: { expiresAt: 'asc', id: 'asc' }, limit, lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE },
    );
  }
}
