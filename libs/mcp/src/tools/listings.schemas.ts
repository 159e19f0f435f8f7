import { z } from 'zod';
import {
  AREA_UNITS,
  LISTING_LIMITS,
  ENERGY_RATINGS,
  FURNISHED_STATES,
  LISTING_CONDITIONS,
  LISTING_OPERATIONS,
  LISTING_SORT_KEYS,
  LISTING_STATUSES,
  PROPERTY_TYPES,
  RENT_PERIODS,
  SEARCH_SCOPE_NAMES,
} from '@app/listings';
import { ISO_TIME } from './schemas';
import { ID, INT } from './view-schemas';

/** Property search and the listing record (INTERFACES.md "Listings") as zod. */

const coordinate = z.object({ lat: z.number().min(-90).max(90), lon: z.number().min(-180).max(180) });
const decimal = (description = 'Decimal string.') => z.string().describe(description);

const filters = z
  .object({
    operation: z.enum(LISTING_OPERATIONS).optional(),
    propertyTypes: z.array(z.enum(PROPERTY_TYPES)).optional(),
    statuses: z
      .array(z.enum(LISTING_STATUSES))
      .optional()
      .describe('Own scope only (with `scope` `network` it is VALIDATION_FAILED). Default: every status.'),
    priceMin: z.number().min(0).optional(),
    priceMax: z.number().min(0).optional().describe('Not below `priceMin`.'),
    currency: z.string().optional().describe('ISO 4217, upper case (`EUR`). Prices are not converted.'),
    bedroomsMin: z.number().int().min(0).optional(),
    bedroomsMax: z.number().int().min(0).optional().describe('Not below `bedroomsMin`.'),
    bathroomsMin: z.number().min(0).optional(),
    livingAreaMin: z.number().min(0).optional().describe('m²; listings in sqft are converted.'),
    livingAreaMax: z.number().min(0).optional().describe('m²; not below `livingAreaMin`.'),
    plotAreaMin: z.number().min(0).optional().describe('m².'),
    plotAreaMax: z.number().min(0).optional().describe('m²; not below `plotAreaMin`.'),
    city: z.string().max(LISTING_LIMITS.city).optional().describe('Exact, case-insensitive.'),
    community: z.string().max(200).optional().describe('Exact, case-insensitive.'),
    countryCode: z.string().optional().describe('ISO 3166-1 alpha-2, upper case (`ES`).'),
    features: z.array(z.string()).optional().describe('Amenity slugs; a listing must have all of them.'),
    energyRatings: z.array(z.enum(ENERGY_RATINGS)).optional(),
    conditions: z.array(z.enum(LISTING_CONDITIONS)).optional(),
    agentId: z.string().optional().describe('A roster agent id (UUID).'),
    q: z
      .string()
      .max(LISTING_LIMITS.searchQuery)
      .optional()
      .describe('Words in the title, reference or address (case- and accent-insensitive contains).'),
    updatedSince: z.string().optional().describe('ISO 8601 date-time: listings changed at or after it.'),
  })
  .describe('Every filter optional, all AND-ed.');

/** `POST /properties/search` (`ListingSearchDto`). */
export const listingSearchInput = {
  scope: z
    .enum(SEARCH_SCOPE_NAMES)
    .optional()
    .describe(
      "`own` (default): the agency's listings, every status; `network`: other agencies' ACTIVE listings shared on the network.",
    ),
  filters: filters.optional(),
  boundingBox: z
    .object({ northEast: coordinate, southWest: coordinate })
    .optional()
    .describe('The map view’s corners; `southWest.lon` > `northEast.lon` crosses the antimeridian.'),
  sort: z.enum(LISTING_SORT_KEYS).optional().describe('Default `newest`; ties by id.'),
  page: z.number().int().min(1).max(10_000).optional().describe('Default 1.'),
  limit: z.number().int().min(1).max(100).optional().describe('Default 20.'),
};

const ref = z.object({
  source: z.string().describe('`internal`, a feed (`kyero`, `redsp`, `jsonfeed`) or a portal.'),
  id: z.string().describe('The listing id within its source.'),
  country: z.string().optional().describe('Portal listings only: `es`, `it` or `pt`.'),
});

export const listingSummary = z.object({
  id: z.string().describe('The listing id within its source (a UUID for own and network listings).'),
  ref,
  title: z.string(),
  reference: z.string().nullable(),
  operation: z.enum(LISTING_OPERATIONS),
  propertyType: z.enum(PROPERTY_TYPES),
  status: z.enum(LISTING_STATUSES),
  price: decimal(),
  currency: z.string(),
  bedrooms: INT.nullable(),
  bathrooms: z.number().nullable(),
  livingArea: z.number().nullable().describe('In `areaUnit`.'),
  plotArea: z.number().nullable().describe('In `areaUnit`.'),
  areaUnit: z.enum(AREA_UNITS),
  city: z.string(),
  community: z.string().nullable(),
  countryCode: z.string(),
  coordinates: coordinate
    .nullable()
    .describe("Another agency's listing shows them only with `showExactLocation`."),
  mainImageUrl: z.string().nullable(),
  imageCount: INT,
  createdAt: ISO_TIME,
  updatedAt: ISO_TIME,
});

export const listingSearchOutput = z.object({
  data: z.array(listingSummary).describe('Summaries; never `commission`.'),
  page: INT,
  limit: INT,
  total: INT.describe('Every listing the query matches.'),
  hasMore: z.boolean().describe('Whether a later page has listings.'),
});

const agent = z.object({
  id: ID,
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  displayEmail: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  whatsappNumber: z.string().nullable(),
});

/** `GET /properties/{id}`. */
export const listingRecordOutput = z.object({
  id: ID,
  ref,
  title: z.string(),
  reference: z.string().nullable(),
  description: z.string().nullable(),
  operation: z.enum(LISTING_OPERATIONS),
  propertyType: z.enum(PROPERTY_TYPES),
  status: z.enum(LISTING_STATUSES),
  price: decimal(),
  currency: z.string(),
  rentPeriod: z.enum(RENT_PERIODS).nullable(),
  countryCode: z.string(),
  region: z.string().nullable(),
  city: z.string(),
  community: z.string().nullable(),
  postalCode: z.string().nullable(),
  addressLine1: z.string().nullable(),
  addressLine2: z.string().nullable(),
  coordinates: coordinate.nullable(),
  showExactLocation: z.boolean(),
  bedrooms: INT.nullable(),
  bathrooms: z.number().nullable(),
  areaUnit: z.enum(AREA_UNITS),
  livingArea: z.number().nullable(),
  plotArea: z.number().nullable(),
  floor: z.string().nullable(),
  yearBuilt: INT.nullable(),
  parkingSpaces: INT.nullable(),
  furnished: z.enum(FURNISHED_STATES).nullable(),
  condition: z.enum(LISTING_CONDITIONS).nullable(),
  energyRating: z.enum(ENERGY_RATINGS).nullable(),
  energyRatingDetails: z.string().nullable(),
  energyConsumptionKwh: z.number().nullable(),
  co2Emissions: z.number().nullable(),
  features: z.array(z.string()).describe('Amenity slugs.'),
  additionalFeatures: z.record(z.string(), z.unknown()).nullable(),
  commission: decimal('Private commission percent: present on own listings only.').nullable().optional(),
  sharedCommission: decimal('Percent offered to the network.').nullable(),
  communityFeesPerYear: decimal().nullable(),
  basuraPerYear: decimal().nullable(),
  availableFrom: z.string().nullable().describe('YYYY-MM-DD.'),
  completionDate: z.string().nullable().describe('YYYY-MM-DD.'),
  images: z.array(z.object({ mediaId: ID.nullable(), url: z.string(), caption: z.string().nullable() })),
  mainImageUrl: z.string().nullable(),
  imageCount: INT,
  videoUrl: z.string().nullable(),
  virtualTourUrl: z.string().nullable(),
  networkVisible: z.boolean(),
  autoRenewEnabled: z.boolean(),
  expiresAt: ISO_TIME.nullable(),
  agent: agent.nullable().describe('The listing’s agent (null when it has none).'),
  createdAt: ISO_TIME,
  updatedAt: ISO_TIME,
});
