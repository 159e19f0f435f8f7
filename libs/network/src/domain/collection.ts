/**
 * Collections (spec "Collection", INTERFACES.md "Brochures and network"): a named set of homes from
 * any source, shared by people of one agency. Only its members (the creator always is one) see or
 * change it. An item keeps a small copy of the home as read when added; `unavailable` is decided
 * from stored state only (the listings table, the copy), never by reading a portal again. Pure.
 */

export const COLLECTION_LIMITS = {
  name: 100,
  items: 200,
  members: 100,
  /** `GET /v1/collections`: the most recently changed. */
  list: 25,
  /** `GET /v1/collections/{id}`: the newest items. */
  detailItems: 40,
  source: 50,
  sourceId: 200,
} as const;

export const COLLECTION_FULL = `A collection holds at most ${COLLECTION_LIMITS.items} homes.`;
export const COLLECTION_DUPLICATE = 'This home is already in the collection.';

/** The copy of a home kept with an item (never the commission or contact details). */
export interface CollectionItemSnapshot {
  title: string | null;
  price: string | null;
  currency: string | null;
  city: string | null;
  mainImageUrl: string | null;
}

const text = (value: unknown): string | null =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null;

/** The copy of a listing record (any source) stored with an item. */
export const snapshotOf = (record: Record<string, unknown>): CollectionItemSnapshot => ({
  title: text(record.title),
  price: text(record.price),
  currency: text(record.currency),
  city: text(record.city),
  mainImageUrl: text(record.mainImageUrl),
});

/** Listing statuses that take a home off the market: an item of one shows as unavailable. */
export const OFF_MARKET_STATUSES: readonly string[] = ['SOLD', 'RENTED', 'WITHDRAWN', 'EXPIRED'];
