import type { ListingFilterValues, ListingSortKey } from '../listing-search.sql';
import type { ListingSummary } from '../../views/listing-summary';
import type { PortalSearchRequest } from '../portal-adapter';
import type { DemoListing } from './demo-portal.data';

/**
 * `demoportal` search in memory, with the semantics of `/properties/search` (INTERFACES.md
 * "Listings"): every filter AND-ed, `features` all of, `city`/`community` exact and
 * case-insensitive, `q` every word contained (case- and accent-insensitive) in the title,
 * reference or address, areas in m² (the sample listings are all in m²), a bounding box whose
 * `southWest.lon` > `northEast.lon` crossing the antimeridian. A portal listing has no roster
 * agent: an `agentId` filter matches nothing. Pure.
 */
export const fold = (text: string): string => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

type Box = NonNullable<PortalSearchRequest['boundingBox']>;

export const inBox = (point: { lat: number; lon: number } | null, box: Box | null): boolean => {
  if (!box) return true;
  if (!point) return false;
  if (point.lat < box.southWest.lat || point.lat > box.northEast.lat) return false;
  return box.southWest.lon <= box.northEast.lon
    ? point.lon >= box.southWest.lon && point.lon <= box.northEast.lon
    : point.lon >= box.southWest.lon || point.lon <= box.northEast.lon;
};

const within = (value: number | null, min: number | undefined, max: number | undefined): boolean => {
  if (min === undefined && max === undefined) return true;
  if (value === null) return false;
  return (min === undefined || value >= min) && (max === undefined || value <= max);
};

const anyOf = <T>(value: T, allowed: readonly T[] | undefined): boolean =>
  allowed === undefined || allowed.includes(value);

export const matches = (listing: DemoListing, filters: ListingFilterValues): boolean => {
  const price = Number(listing.price);
  if (filters.operation !== undefined && listing.operation !== filters.operation) return false;
  if (!anyOf(listing.propertyType, filters.propertyTypes)) return false;
  if (!anyOf(listing.status, filters.statuses)) return false;
  if (!within(price, filters.priceMin, filters.priceMax)) return false;
  if (filters.currency !== undefined && listing.currency !== filters.currency) return false;
  if (!within(listing.bedrooms, filters.bedroomsMin, filters.bedroomsMax)) return false;
  if (!within(listing.bathrooms, filters.bathroomsMin, undefined)) return false;
  if (!within(listing.livingArea, filters.livingAreaMin, filters.livingAreaMax)) return false;
  if (!within(listing.plotArea, filters.plotAreaMin, filters.plotAreaMax)) return false;
  if (filters.city !== undefined && fold(listing.city) !== fold(filters.city)) return false;
  if (filters.community !== undefined && fold(listing.community ?? '') !== fold(filters.community))
    return false;
  if (filters.countryCode !== undefined && listing.countryCode !== filters.countryCode) return false;
  if (filters.features?.some((slug) => !listing.features.includes(slug))) return false;
  if (!anyOf(listing.energyRating, filters.energyRatings)) return false;
  if (!anyOf(listing.condition, filters.conditions)) return false;
  if (filters.agentId !== undefined) return false;
  if (filters.updatedSince !== undefined && Date.parse(listing.updatedAt) < Date.parse(filters.updatedSince))
    return false;
  if (filters.q !== undefined) {
    const haystack = fold(`${listing.title} ${listing.reference ?? ''} ${listing.address}`);
    if (
      !fold(filters.q)
        .split(/\s+/)
        .filter(Boolean)
        .every((word) => haystack.includes(word))
    )
      return false;
  }
  return true;
};

const nullsLast = (a: number | null, b: number | null): number =>
  a === b ? 0 : a === null ? 1 : b === null ? -1 : b - a;

const ORDER: Record<ListingSortKey, (a: DemoListing, b: DemoListing) => number> = {
  newest: (a, b) => b.createdAt.localeCompare(a.createdAt),
  updated: (a, b) => b.updatedAt.localeCompare(a.updatedAt),
  price_asc: (a, b) => Number(a.price) - Number(b.price),
  price_desc: (a, b) => Number(b.price) - Number(a.price),
  area_desc: (a, b) => nullsLast(a.livingArea, b.livingArea),
  bedrooms_desc: (a, b) => nullsLast(a.bedrooms, b.bedrooms),
};

/** The summary row of a sample listing (what search answers). */
export const summaryOf = (listing: DemoListing): ListingSummary => ({
  id: listing.id,
  ref: { ...listing.ref },
  title: listing.title,
  reference: listing.reference,
  operation: listing.operation,
  propertyType: listing.propertyType,
  status: listing.status,
  price: listing.price,
  currency: listing.currency,
  bedrooms: listing.bedrooms,
  bathrooms: listing.bathrooms,
  livingArea: listing.livingArea,
  plotArea: listing.plotArea,
  areaUnit: listing.areaUnit,
  city: listing.city,
  community: listing.community,
  countryCode: listing.countryCode,
  coordinates: listing.coordinates ? { ...listing.coordinates } : null,
  mainImageUrl: listing.mainImageUrl,
  imageCount: listing.imageCount,
  createdAt: listing.createdAt,
  updatedAt: listing.updatedAt,
});

/** One page of the listings matching the request, and how many match in all. */
export const searchDemoListings = (
  listings: readonly DemoListing[],
  request: Omit<PortalSearchRequest, 'country'>,
): { data: ListingSummary[]; total: number } => {
  const filters = request.filters as ListingFilterValues;
  const order = ORDER[request.sort as ListingSortKey] ?? ORDER.newest;
  const found = listings
    .filter((listing) => matches(listing, filters) && inBox(listing.coordinates, request.boundingBox))
    .sort((a, b) => order(a, b) || a.id.localeCompare(b.id));
  const start = (request.page - 1) * request.limit;
  return { data: found.slice(start, start + request.limit).map(summaryOf), total: found.length };
};
