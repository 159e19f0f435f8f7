import { Injectable } from '@nestjs/common';
import { Clock, DependencyUnavailableError } from '@app/platform';
import type { PortalCountry } from '../domain/listing-catalogue';
import type { ListingSourceName } from '../domain/listing.entity';
import { isFeedSource } from '../domain/property-sources';
import type { ListingRef } from '../views/listing-summary';
import { ListingsQueries } from './listings.queries';
import type { PortalAdapter, PortalListing } from './portal-adapter';
import { PortalAllowance } from './portal-allowance';
import { PortalCache, portalCacheKey } from './portal-cache';
import { PortalRegistry } from './portals/portal-registry';

/** Why a reference could not be read. */
export type ListingSourceFailure = 'not_found' | 'country_required' | 'unknown_source';

export type ResolvedListing =
  | { ref: ListingRef; ok: true; listing: Record<string, unknown> }
  | { ref: ListingRef; ok: false; reason: ListingSourceFailure };

const MAX_ID_LENGTH = 200;

interface PortalRead {
  adapter: PortalAdapter;
  country: PortalCountry;
  id: string;
  key: string;
}

/**
 * Reads listings by reference `{source, id, country}` from any source, for brochures and listing
 * matches (and `GET /property-sources/{source}/listings/{id}`). `internal` and feed references
 * read through `ListingsQueries.readFromSource` (own rows; other agencies' network listings with
 * the network rules); portal references through the shared cache, else the portal.
 *
 * Every portal call the references need (the distinct cache misses) is reserved against the daily
 * allowance in ONE statement BEFORE any upstream call: if the allowance cannot cover all of them
 * none is reserved and `PortalAllowanceExhausted` (429 DAILY_LIMIT_REACHED) is thrown. So call
 * `resolve` before writing anything, and outside your transaction (the reservation commits on
 * its own either way: a call made is spent). A portal that fails answers 503
 * (`DependencyUnavailableError`); its reserved call stays counted.
 */
@Injectable()
export class ListingSources {
  constructor(
    private readonly listings: ListingsQueries,
    private readonly portals: PortalRegistry,
    private readonly allowance: PortalAllowance,
    private readonly cache: PortalCache,
    private readonly clock: Clock,
  ) {}

  /** One result per reference, in the order given. */
  async resolve(
    who: string | { organizationId: string },
    refs: readonly ListingRef[],
  ): Promise<ResolvedListing[]> {
    const organizationId = typeof who === 'string' ? who : who.organizationId;
    const now = this.clock.now();
    const results: (ResolvedListing | null)[] = refs.map(() => null);
    const portalReads = new Map<number, PortalRead>();

    for (const [i, ref] of refs.entries()) {
      const adapter = this.portals.get(ref.source);
      if (adapter) {
        const country = adapter.countries.find((c) => c === ref.country);
        if (!country) results[i] = { ref, ok: false, reason: 'country_required' };
        else if (!ref.id || ref.id.length > MAX_ID_LENGTH)
          results[i] = { ref, ok: false, reason: 'not_found' };
        else
          portalReads.set(i, {
            adapter,
            country,
            id: ref.id,
            key: portalCacheKey('listing', adapter.name, country, { id: ref.id }),
          });
      } else if (ref.source !== 'internal' && !isFeedSource(ref.source)) {
        results[i] = { ref, ok: false, reason: 'unknown_source' };
      }
    }

    // the portal calls: the distinct cache misses, all reserved at once before any is made
    const cached = await this.cache.getMany<PortalListing>(
      [...new Set([...portalReads.values()].map((read) => read.key))],
      now,
    );
    const misses = new Map<string, PortalRead>();
    for (const read of portalReads.values()) if (!cached.has(read.key)) misses.set(read.key, read);
    await this.allowance.reserve(organizationId, misses.size, now);

    for (const [i, ref] of refs.entries()) {
      if (results[i] || portalReads.has(i)) continue;
      const listing =
        ref.id && ref.id.length <= MAX_ID_LENGTH
          ? await this.listings.readFromSource(organizationId, ref.source as ListingSourceName, ref.id)
          : null;
      results[i] = listing ? { ref, ok: true, listing } : { ref, ok: false, reason: 'not_found' };
    }

    const fetched = new Map(
      await Promise.all(
        [...misses.values()].map(async (read) => [read.key, await this.fetch(read, now)] as const),
      ),
    );
    for (const [i, read] of portalReads) {
      const listing = cached.get(read.key) ?? fetched.get(read.key) ?? null;
      results[i] = listing
        ? { ref: refs[i], ok: true, listing }
        : { ref: refs[i], ok: false, reason: 'not_found' };
    }
    return results as ResolvedListing[];
  }

  /** One upstream read (already reserved), cached when found. */
  private async fetch(read: PortalRead, now: Date): Promise<PortalListing | null> {
    let listing: PortalListing | null;
    try {
      listing = await read.adapter.get(read.country, read.id);
    } catch {
      throw new DependencyUnavailableError(`portal ${read.adapter.name} did not answer`);
    }
    if (!listing) return null;
    const record = { ...listing, ref: { source: read.adapter.name, id: read.id, country: read.country } };
    await this.cache.put(read.key, 'listing', record, now);
    return record;
  }
}
