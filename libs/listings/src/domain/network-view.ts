import type { ListingStatus } from './listing-catalogue';

/**
 * What another agency sees of a listing (INTERFACES.md "Listings"): only ACTIVE own listings with
 * `networkVisible`; never `commission`; exact coordinates only with `showExactLocation`; the agent's
 * email and numbers only with `shareContactOnNetwork`. The one place these rules live. Pure.
 */
export interface NetworkFacts {
  source: string;
  status: ListingStatus;
  networkVisible: boolean;
  deletedAt: Date | null;
}

/** Whether another agency may read the listing at all (else it is 404 to them). */
export const isOnNetwork = (listing: NetworkFacts): boolean =>
  listing.source === 'internal' &&
  listing.status === 'ACTIVE' &&
  listing.networkVisible &&
  !listing.deletedAt;

/**
 * Exact coordinates: the owner always, others only with `showExactLocation` (so a network search
 * by bounding box matches only listings that show it: a box must not locate one that hides it).
 */
export const showsExactLocation = (own: boolean, listing: { showExactLocation: boolean }): boolean =>
  own || listing.showExactLocation;

/** The agent's email and numbers: the owner always, others only with `shareContactOnNetwork`. */
export const showsAgentContact = (own: boolean, agent: { shareContactOnNetwork: boolean }): boolean =>
  own || agent.shareContactOnNetwork;

/** The private commission is on the owner's reads only. */
export const showsCommission = (own: boolean): boolean => own;
