import {
  LEGACY_FEATURE_FLAGS,
  type AreaUnit,
  type EnergyRating,
  type Furnished,
  type LegacyFeatureFlag,
  type ListingCondition,
  type ListingOperation,
  type ListingStatus,
  type PropertyType,
  type RentPeriod,
} from './listing-catalogue';

/**
 * `images` as stored, in display order: an uploaded photo of the agency (`mediaId` and the served
 * file's `extension`, its URL `{PUBLIC_BASE_URL}/media/<mediaId>.<extension>`), or, on a feed's
 * row, the feed's own image `url`.
 */
export interface ListingImage {
  mediaId: string | null;
  extension: string | null;
  url: string | null;
  caption: string | null;
}

/**
 * A listing's payload as the aggregate takes it (create or PATCH): decimals as strings, dates as
 * `YYYY-MM-DD` or `Date`, `coordinates` for the `lat`/`lon` pair, images resolved to the agency's
 * media. `undefined` leaves a field as it is; `null` clears a nullable one.
 */
export interface ListingChanges {
  title?: string;
  operation?: ListingOperation;
  propertyType?: PropertyType;
  status?: ListingStatus;
  price?: string;
  currency?: string;
  countryCode?: string;
  city?: string;
  agentId?: string;
  reference?: string | null;
  description?: string | null;
  rentPeriod?: RentPeriod | null;
  region?: string | null;
  community?: string | null;
  postalCode?: string | null;
  addressLine1?: string | null;
  addressLine2?: string | null;
  coordinates?: { lat: number; lon: number } | null;
  showExactLocation?: boolean;
  bedrooms?: number | null;
  bathrooms?: string | null;
  areaUnit?: AreaUnit;
  livingArea?: string | null;
  plotArea?: string | null;
  floor?: string | null;
  yearBuilt?: number | null;
  parkingSpaces?: number | null;
  furnished?: Furnished | null;
  condition?: ListingCondition | null;
  energyRating?: EnergyRating | null;
  energyRatingDetails?: string | null;
  energyConsumptionKwh?: string | null;
  co2Emissions?: string | null;
  features?: string[];
  additionalFeatures?: Record<string, unknown> | null;
  commission?: string | null;
  sharedCommission?: string | null;
  communityFeesPerYear?: string | null;
  basuraPerYear?: string | null;
  availableFrom?: string | null;
  completionDate?: string | null;
  images?: ListingImage[];
  videoUrl?: string | null;
  virtualTourUrl?: string | null;
  networkVisible?: boolean;
  autoRenewEnabled?: boolean;
  expiresAt?: Date;
}

/** A payload number as its stored decimal text (`350000` → `350000.00` with 2 places). */
export const decimalText = (value: number | null | undefined, places: number): string | null | undefined =>
  value === undefined ? undefined : value === null ? null : value.toFixed(places);

/**
 * The features a write leaves: `features`, when sent, wins; else the legacy `has*` flags sent add
 * (true) or remove (false) their slug from the current set; neither sent → undefined (kept).
 * Duplicates go; order as given.
 */
export function resolveFeatures(
  current: readonly string[],
  features: readonly string[] | undefined,
  flags: Partial<Record<LegacyFeatureFlag, boolean>>,
): string[] | undefined {
  if (features !== undefined) return [...new Set(features)];
  const sent = (Object.keys(LEGACY_FEATURE_FLAGS) as LegacyFeatureFlag[]).filter(
    (flag) => typeof flags[flag] === 'boolean',
  );
  if (sent.length === 0) return undefined;
  const next = new Set(current);
  for (const flag of sent) {
    if (flags[flag]) next.add(LEGACY_FEATURE_FLAGS[flag]);
    else next.delete(LEGACY_FEATURE_FLAGS[flag]);
  }
  return [...next];
}

/** The create and PATCH payload as the routes take it (numbers as JSON numbers). */
export interface ListingPayload {
  title: string;
  operation: ListingOperation;
  propertyType: PropertyType;
  price: number;
  currency: string;
  countryCode: string;
  city: string;
  agentId: string;
  status?: Exclude<ListingStatus, 'EXPIRED'>;
  reference?: string | null;
  description?: string | null;
  rentPeriod?: RentPeriod | null;
  region?: string | null;
  community?: string | null;
  postalCode?: string | null;
  addressLine1?: string | null;
  addressLine2?: string | null;
  coordinates?: { lat: number; lon: number } | null;
  showExactLocation?: boolean;
  bedrooms?: number | null;
  bathrooms?: number | null;
  areaUnit?: AreaUnit;
  livingArea?: number | null;
  plotArea?: number | null;
  floor?: string | null;
  yearBuilt?: number | null;
  parkingSpaces?: number | null;
  furnished?: Furnished | null;
  condition?: ListingCondition | null;
  energyRating?: EnergyRating | null;
  energyRatingDetails?: string | null;
  energyConsumptionKwh?: number | null;
  co2Emissions?: number | null;
  features?: string[];
  hasPool?: boolean;
  hasGarden?: boolean;
  hasTerrace?: boolean;
  hasElevator?: boolean;
  hasParking?: boolean;
  hasAirConditioning?: boolean;
  additionalFeatures?: Record<string, unknown> | null;
  commission?: number | null;
  sharedCommission?: number | null;
  communityFeesPerYear?: number | null;
  basuraPerYear?: number | null;
  availableFrom?: string | null;
  completionDate?: string | null;
  images?: { mediaId: string; caption?: string | null }[];
  videoUrl?: string | null;
  virtualTourUrl?: string | null;
  networkVisible?: boolean;
  autoRenewEnabled?: boolean;
  expiresAt?: string;
}
