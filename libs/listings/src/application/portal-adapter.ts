import type { PortalCountry } from '../domain/listing-catalogue';
import type { ListingSummary } from '../views/listing-summary';

/** A portal search as the adapter receives it: the normalised `/property-sources` body. */
export interface PortalSearchRequest {
  country: PortalCountry;
  filters: Record<string, unknown>;
  boundingBox: { northEast: { lat: number; lon: number }; southWest: { lat: number; lon: number } } | null;
  sort: string;
  page: number;
  limit: number;
}

export interface PortalSearchResult {
  data: ListingSummary[];
  total: number;
}

/** A listing as a portal serves it: the listing record's shape (`ref` with `country`). */
export type PortalListing = Record<string, unknown> & {
  ref: { source: string; id: string; country: string };
};

/** What a publication sends: the agency's listing record. */
export interface PortalPublishResult {
  externalId: string;
}

/**
 * A property portal behind one interface (INTERFACES.md "Listings", item 5): searched and read
 * through `/property-sources/{portal}` (each upstream call reserved against the daily allowance
 * first), and the target of portal publications. Implementations throw on an upstream failure.
 */
export abstract class PortalAdapter {
  abstract readonly name: string;
  abstract readonly countries: readonly PortalCountry[];
  /**
   * Sample data, not a portal anyone reads: its listings are made up and a publication sends
   * nothing, so answers say `simulated` (docs/decisions/0016-simulated-demo-portal.md).
   */
  abstract readonly simulated: boolean;
  abstract search(request: PortalSearchRequest): Promise<PortalSearchResult>;
  /** null when the portal has no such listing. */
  abstract get(country: PortalCountry, id: string): Promise<PortalListing | null>;
  abstract publish(listing: Record<string, unknown>): Promise<PortalPublishResult>;
  abstract unpublish(externalId: string): Promise<void>;
}
