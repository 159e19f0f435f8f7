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

/**
 * `demoportal`: the built-in portal, backed by ~600 bundled deterministic sample listings in
 * Spain, Italy and Portugal. Publishing answers a stable external id derived from the listing.
 * (search/get: built by the property-sources helper.)
 */
@Injectable()
export class DemoPortalAdapter extends PortalAdapter {
  readonly name = 'demoportal';
  readonly countries: readonly PortalCountry[] = PORTAL_COUNTRIES;

  search(_request: PortalSearchRequest): Promise<PortalSearchResult> {
    return Promise.reject(new Error('demoportal search: not built yet'));
  }

  get(_country: PortalCountry, _id: string): Promise<PortalListing | null> {
    return Promise.reject(new Error('demoportal get: not built yet'));
  }

  publish(listing: Record<string, unknown>): Promise<PortalPublishResult> {
    return Promise.resolve({ externalId: `dp-${sha256(String(listing.id)).slice(0, 16)}` });
  }

  unpublish(_externalId: string): Promise<void> {
    return Promise.resolve();
  }
}
