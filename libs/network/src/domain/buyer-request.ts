/**
 * Buyer requests (spec "Buyer request", INTERFACES.md "Brochures and network"): what a buyer looks
 * for, posted to the network. Stored `open` or `closed`; `expired` is read from `expiresAt` (90 days
 * after creation). Other agencies see only the `summary`, made from the structured fields: never the
 * notes, the lead, a name or contact details. Pure.
 */

export const BUYER_REQUEST_LIMITS = {
  areas: 10,
  area: 100,
  notes: 2000,
  list: 25,
  lifetimeDays: 90,
  bedroomsMax: 50,
} as const;

export const BUYER_REQUEST_STATUSES = ['open', 'closed', 'expired'] as const;
export type BuyerRequestStatus = (typeof BUYER_REQUEST_STATUSES)[number];

export const BUYER_REQUEST_CLOSER = "Only the request's creator or an admin can close it.";

export const buyerRequestStatus = (
  stored: { status: string; expiresAt: Date },
  now: Date,
): BuyerRequestStatus =>
  stored.status === 'closed' ? 'closed' : stored.expiresAt.getTime() <= now.getTime() ? 'expired' : 'open';

/** The fields a summary is made from (nothing else may reach it). */
export interface BuyerRequestFacts {
  operation: string;
  /** How people read each property type ("apartment", "plot of land"). */
  propertyTypeLabels: readonly string[];
  areas: readonly string[];
  priceMax: string | number;
  currency: string;
  bedroomsMin: number | null;
}

const orList = (words: readonly string[]): string =>
  words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;

const amount = (value: string | number): string => {
  const n = Number(value);
  return n.toLocaleString('en-US', { minimumFractionDigits: 0, maximumFractionDigits: 2 });
};

/** e.g. "Buying: apartment or penthouse in Marbella, Estepona · up to EUR 450,000 · 2+ bedrooms". */
export function buyerRequestSummary(facts: BuyerRequestFacts): string {
  const verb = facts.operation === 'rent' ? 'Renting' : 'Buying';
  const types = orList(facts.propertyTypeLabels.map((label) => label.toLowerCase()));
  const parts = [
    `${verb}: ${types} in ${facts.areas.join(', ')}`,
    `up to ${facts.currency} ${amount(facts.priceMax)}`,
  ];
  if (facts.bedroomsMin !== null && facts.bedroomsMin > 0)
    parts.push(`${facts.bedroomsMin}+ bedroom${facts.bedroomsMin === 1 ? '' : 's'}`);
  return parts.join(' · ');
}
