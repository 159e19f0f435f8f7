import { Injectable } from '@nestjs/common';
import { sha256 } from '@app/platform/core';
import { PORTAL_COUNTRIES, type PortalCountry } from '../../domain/listing-catalogue';
import {
  PortalAdapter,
  type PortalListing,
  type PortalPublishResult,
  type PortalSearchRequest,
  type PortalSearchResult,
} from '../portal-adapter';
import { demoListings } from './demo-portal.data';
import { searchDemoListings } from './demo-portal.search';

/**
 * `demoportal`: the built-in portal, backed by ~600 bundled deterministic sample listings in
 * Spain, Italy and Portugal (200 each, `demo-portal.data.ts`), searched in memory with the
 * `/properties/search` semantics (`demo-portal.search.ts`). Publishing sends nothing anywhere and
 * answers a stable made-up id derived from the listing: `simulated`.
 */
@Injectable()
export class DemoPortalAdapter extends PortalAdapter {
  readonly name = 'demoportal';
  readonly countries: readonly PortalCountry[] = PORTAL_COUNTRIES;
  readonly simulated: boolean = true;

  search(request: PortalSearchRequest): Promise<PortalSearchResult> {
    return Promise.resolve(searchDemoListings(demoListings(request.country), request));
  }

  get(country: PortalCountry, id: string): Promise<PortalListing | null> {
    const listing = demoListings(country).find((candidate) => candidate.id === id);
    return Promise.resolve(listing ? (structuredClone(listing) as unknown as PortalListing) : null);
  }

  publish(listing: Record<string, unknown>): Promise<PortalPublishResult> {
    return Promise.resolve({ externalId: `dp-${sha256(String(listing.id)).slice(0, 16)}` });
  }

  unpublish(_externalId: string): Promise<void> {
    return Promise.resolve();
  }
}
