/**
 * The fixed value sets of a listing (spec "Listing create payload", INTERFACES.md "Listings"):
 * enums, the amenity slug catalogue, the legacy `has*` flags and the six brochure themes. Pure.
 */

export const LISTING_OPERATIONS = ['sale', 'rent'] as const;
export type ListingOperation = (typeof LISTING_OPERATIONS)[number];

export const PROPERTY_TYPES = [
  'apartment',
  'house',
  'villa',
  'townhouse',
  'penthouse',
  'studio',
  'duplex',
  'land',
  'commercial',
  'office',
  'garage',
  'other',
] as const;
export type PropertyType = (typeof PROPERTY_TYPES)[number];

/** How people read a property type in English (generated titles). */
export const PROPERTY_TYPE_LABELS: Readonly<Record<PropertyType, string>> = {
  apartment: 'Apartment',
  house: 'House',
  villa: 'Villa',
  townhouse: 'Townhouse',
  penthouse: 'Penthouse',
  studio: 'Studio',
  duplex: 'Duplex',
  land: 'Plot of land',
  commercial: 'Commercial premises',
  office: 'Office',
  garage: 'Garage',
  other: 'Property',
};

/** Statuses a caller may set; `EXPIRED` is set only by the expiry job. */
export const SETTABLE_LISTING_STATUSES = [
  'DRAFT',
  'ACTIVE',
  'RESERVED',
  'SOLD',
  'RENTED',
  'WITHDRAWN',
] as const;
export const LISTING_STATUSES = [...SETTABLE_LISTING_STATUSES, 'EXPIRED'] as const;
export type ListingStatus = (typeof LISTING_STATUSES)[number];

export const RENT_PERIODS = ['month', 'week', 'day'] as const;
export type RentPeriod = (typeof RENT_PERIODS)[number];

export const AREA_UNITS = ['sqm', 'sqft'] as const;
export type AreaUnit = (typeof AREA_UNITS)[number];
/** One square foot in square metres (the area filters are in m²). */
export const SQFT_IN_SQM = 0.09290304;

export const FURNISHED_STATES = ['furnished', 'partly', 'unfurnished'] as const;
export type Furnished = (typeof FURNISHED_STATES)[number];

export const LISTING_CONDITIONS = [
  'new',
  'excellent',
  'good',
  'needs_renovation',
  'under_construction',
] as const;
export type ListingCondition = (typeof LISTING_CONDITIONS)[number];

export const ENERGY_RATINGS = ['A+', 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'exempt', 'in_progress'] as const;
export type EnergyRating = (typeof ENERGY_RATINGS)[number];

/** The amenity slug catalogue (`GET /properties/features`), grouped for pickers. */
export const FEATURE_CATALOGUE = [
  { slug: 'pool', label: 'Swimming pool', group: 'outdoor' },
  { slug: 'private_pool', label: 'Private pool', group: 'outdoor' },
  { slug: 'communal_pool', label: 'Communal pool', group: 'outdoor' },
  { slug: 'garden', label: 'Garden', group: 'outdoor' },
  { slug: 'terrace', label: 'Terrace', group: 'outdoor' },
  { slug: 'balcony', label: 'Balcony', group: 'outdoor' },
  { slug: 'roof_terrace', label: 'Roof terrace', group: 'outdoor' },
  { slug: 'bbq', label: 'Barbecue', group: 'outdoor' },
  { slug: 'sea_view', label: 'Sea view', group: 'views' },
  { slug: 'mountain_view', label: 'Mountain view', group: 'views' },
  { slug: 'golf_view', label: 'Golf view', group: 'views' },
  { slug: 'beachfront', label: 'Beachfront', group: 'location' },
  { slug: 'golf_front', label: 'Frontline golf', group: 'location' },
  { slug: 'elevator', label: 'Lift', group: 'building' },
  { slug: 'parking', label: 'Parking', group: 'building' },
  { slug: 'garage', label: 'Garage', group: 'building' },
  { slug: 'storage_room', label: 'Storage room', group: 'building' },
  { slug: 'gated_community', label: 'Gated community', group: 'building' },
  { slug: 'concierge', label: 'Concierge', group: 'building' },
  { slug: 'gym', label: 'Gym', group: 'building' },
  { slug: 'air_conditioning', label: 'Air conditioning', group: 'comfort' },
  { slug: 'heating', label: 'Heating', group: 'comfort' },
  { slug: 'underfloor_heating', label: 'Underfloor heating', group: 'comfort' },
  { slug: 'fireplace', label: 'Fireplace', group: 'comfort' },
  { slug: 'solar_panels', label: 'Solar panels', group: 'comfort' },
  { slug: 'alarm', label: 'Alarm system', group: 'security' },
  { slug: 'fitted_kitchen', label: 'Fitted kitchen', group: 'interior' },
  { slug: 'wheelchair_access', label: 'Wheelchair access', group: 'interior' },
  { slug: 'pets_allowed', label: 'Pets allowed', group: 'rental' },
  { slug: 'sauna', label: 'Sauna', group: 'wellness' },
  { slug: 'jacuzzi', label: 'Jacuzzi', group: 'wellness' },
  { slug: 'guest_apartment', label: 'Guest apartment', group: 'interior' },
] as const;
export type FeatureSlug = (typeof FEATURE_CATALOGUE)[number]['slug'];
export const FEATURE_SLUGS: readonly string[] = FEATURE_CATALOGUE.map((feature) => feature.slug);

/** The legacy `has*` flags and the slug each maps to; `features`, when sent, wins over them. */
export const LEGACY_FEATURE_FLAGS = {
  hasPool: 'pool',
  hasGarden: 'garden',
  hasTerrace: 'terrace',
  hasElevator: 'elevator',
  hasParking: 'parking',
  hasAirConditioning: 'air_conditioning',
} as const satisfies Record<string, FeatureSlug>;
export type LegacyFeatureFlag = keyof typeof LEGACY_FEATURE_FLAGS;

/** The six brochure themes (`GET /properties/themes`); brochures check `themeName` against them. */
export const BROCHURE_THEMES = [
  { name: 'classic', label: 'Classic', accentColor: '#1F3A5F' },
  { name: 'modern', label: 'Modern', accentColor: '#111827' },
  { name: 'coastal', label: 'Coastal', accentColor: '#0E7490' },
  { name: 'luxury', label: 'Luxury', accentColor: '#8B6B2E' },
  { name: 'countryside', label: 'Countryside', accentColor: '#3F6212' },
  { name: 'urban', label: 'Urban', accentColor: '#B91C1C' },
] as const;
export type BrochureThemeName = (typeof BROCHURE_THEMES)[number]['name'];

/** Listing limits (INTERFACES.md "Listings"). */
export const LISTING_LIMITS = {
  title: 200,
  reference: 50,
  city: 100,
  images: 100,
  historyRows: 100,
  searchQuery: 200,
  /** Days a listing stays on sale by default and per renewal. */
  lifetimeDays: 90,
} as const;

/** The countries a portal serves (`country` on a portal listing reference). */
export const PORTAL_COUNTRIES = ['es', 'it', 'pt'] as const;
export type PortalCountry = (typeof PORTAL_COUNTRIES)[number];
