/**
 * `POST /v1/listing-matches` (issue 18 item 4): a listing as English words, the query its match
 * runs ("3-bedroom villa for sale in Marbella with pool, sea views, 1,250,000 EUR"). Works on the
 * record `ListingSources` answers (own, network, feed or portal listing), reading each field
 * loosely: a field missing or of another shape is left out, never an error. Pure.
 */

/** What a match uses of a listing: the words, and the facts the boosts compare. */
export interface ListingFacts {
  bedrooms: number | null;
  /** English words of the property type (`villa`, `plot of land`); `property` when unknown. */
  propertyType: string;
  operation: 'sale' | 'rent' | null;
  /** The listing's city; null when it has none. */
  city: string | null;
  /** Where it is, as words: the city, else its area (community, region, province). */
  place: string | null;
  /** Notable features as English words, in a fixed order, each once. */
  features: string[];
  /** `1,250,000 EUR`, `1,200 EUR a month`; null without a usable price. */
  price: string | null;
}

/** Property types as people say them (the catalogue's slugs; other values kept as words). */
const PROPERTY_TYPE_WORDS: Readonly<Record<string, string>> = {
  apartment: 'apartment',
  house: 'house',
  villa: 'villa',
  townhouse: 'townhouse',
  penthouse: 'penthouse',
  studio: 'studio',
  duplex: 'duplex',
  land: 'plot of land',
  commercial: 'commercial premises',
  office: 'office',
  garage: 'garage',
  other: 'property',
};

/**
 * Notable features, in the order they are named, each slug (the catalogue's) with its words.
 * Several slugs may say the same words (`private_pool`, `pool`): named once.
 */
const FEATURE_WORDS: readonly (readonly [string, string])[] = [
  ['pool', 'pool'],
  ['private_pool', 'pool'],
  ['communal_pool', 'pool'],
  ['garden', 'garden'],
  ['terrace', 'terrace'],
  ['roof_terrace', 'roof terrace'],
  ['balcony', 'balcony'],
  ['sea_view', 'sea views'],
  ['mountain_view', 'mountain views'],
  ['golf_view', 'golf views'],
  ['beachfront', 'beachfront'],
  ['golf_front', 'frontline golf'],
  ['garage', 'garage'],
  ['parking', 'parking'],
  ['elevator', 'lift'],
  ['gated_community', 'gated community'],
  ['air_conditioning', 'air conditioning'],
  ['underfloor_heating', 'underfloor heating'],
  ['fireplace', 'fireplace'],
  ['storage_room', 'storage room'],
  ['gym', 'gym'],
  ['jacuzzi', 'jacuzzi'],
  ['sauna', 'sauna'],
  ['bbq', 'barbecue'],
  ['guest_apartment', 'guest apartment'],
  ['solar_panels', 'solar panels'],
  ['concierge', 'concierge'],
  ['wheelchair_access', 'wheelchair access'],
  ['pets_allowed', 'pets allowed'],
];
const FEATURE_ORDER = new Map(FEATURE_WORDS.map(([slug], i) => [slug, i]));

/** The query names at most this many features: the first in `FEATURE_WORDS` order. */
export const MAX_QUERY_FEATURES = 6;

/** Legacy `has*` flags a record may carry (old payloads, some portals). */
const FLAG_SLUGS: Readonly<Record<string, string>> = {
  hasPool: 'pool',
  hasGarden: 'garden',
  hasTerrace: 'terrace',
  hasElevator: 'elevator',
  hasLift: 'elevator',
  hasParking: 'parking',
  hasGarage: 'garage',
  hasSeaView: 'sea_view',
  hasSeaViews: 'sea_view',
  hasAirConditioning: 'air_conditioning',
  hasBalcony: 'balcony',
};

const RENT_PERIOD_WORDS: Readonly<Record<string, string>> = {
  month: 'a month',
  week: 'a week',
  day: 'a day',
};

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim().replace(/\s+/g, ' ') : null;

/** `seaView`, `sea-view`, `Sea view` → `sea_view` (the catalogue's slug form). */
const slugOf = (value: string): string =>
  value
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

/** The catalogue slugs a record names: `features`, true `has*` flags, true `additionalFeatures`. */
function featureSlugs(record: Record<string, unknown>): string[] {
  const slugs: string[] = [];
  if (Array.isArray(record.features))
    for (const feature of record.features) if (typeof feature === 'string') slugs.push(slugOf(feature));
  for (const [flag, slug] of Object.entries(FLAG_SLUGS)) if (record[flag] === true) slugs.push(slug);
  const extra = record.additionalFeatures;
  if (extra && typeof extra === 'object' && !Array.isArray(extra)) {
    for (const [key, value] of Object.entries(extra as Record<string, unknown>)) {
      if (value !== true) continue;
      slugs.push(FLAG_SLUGS[key] ?? slugOf(key));
    }
  }
  return slugs;
}

/** English words of the features, catalogue order, each once, at most `MAX_QUERY_FEATURES`. */
function featureWords(record: Record<string, unknown>): string[] {
  const known = [...new Set(featureSlugs(record))]
    .filter((slug) => FEATURE_ORDER.has(slug))
    .sort((a, b) => FEATURE_ORDER.get(a)! - FEATURE_ORDER.get(b)!);
  const words = [...new Set(known.map((slug) => FEATURE_WORDS[FEATURE_ORDER.get(slug)!][1]))];
  return words.slice(0, MAX_QUERY_FEATURES);
}

/** `1250000.00` → `1,250,000`; `950.50` → `950.50`; null for anything not a positive amount. */
export function formatAmount(value: unknown): string | null {
  const raw = typeof value === 'number' ? (Number.isFinite(value) ? value.toFixed(2) : '') : text(value);
  const match = raw ? /^(\d+)(?:\.(\d+))?$/.exec(raw) : null;
  if (!match) return null;
  const whole = match[1].replace(/^0+(?=\d)/, '');
  const cents = (match[2] ?? '').padEnd(2, '0').slice(0, 2);
  if (whole === '0' && /^0*$/.test(cents)) return null;
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return /^0*$/.test(cents) ? grouped : `${grouped}.${cents}`;
}

function priceOf(record: Record<string, unknown>, operation: ListingFacts['operation']): string | null {
  const amount = formatAmount(record.price);
  if (!amount) return null;
  const currency = text(record.currency)?.toUpperCase();
  const period = operation === 'rent' ? RENT_PERIOD_WORDS[text(record.rentPeriod) ?? ''] : undefined;
  return [amount, currency, period].filter(Boolean).join(' ');
}

function bedroomsOf(value: unknown): number | null {
  const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 && n < 100 ? n : null;
}

/** The facts of a listing record, whatever its source. */
export function listingFacts(record: Record<string, unknown>): ListingFacts {
  const type = text(record.propertyType)?.toLowerCase();
  const operation = text(record.operation)?.toLowerCase();
  const op = operation === 'sale' || operation === 'rent' ? operation : null;
  const city = text(record.city);
  return {
    bedrooms: type === 'studio' || type === 'land' ? null : bedroomsOf(record.bedrooms),
    propertyType: type ? (PROPERTY_TYPE_WORDS[type] ?? type.replace(/_/g, ' ')) : 'property',
    operation: op,
    city,
    place:
      city ??
      text(record.community) ??
      text(record.area) ??
      text(record.region) ??
      text(record.province) ??
      null,
    features: featureWords(record),
    price: priceOf(record, op),
  };
}

/** The listing as one English sentence: bedrooms, type, operation, place, features, price. */
export function listingQuery(facts: ListingFacts): string {
  const subject = [
    facts.bedrooms !== null ? `${facts.bedrooms}-bedroom ${facts.propertyType}` : facts.propertyType,
    facts.operation === 'sale' ? 'for sale' : facts.operation === 'rent' ? 'for rent' : null,
    facts.place ? `in ${facts.place}` : null,
    facts.features.length > 0 ? `with ${facts.features.join(', ')}` : null,
  ]
    .filter(Boolean)
    .join(' ');
  return facts.price ? `${subject}, ${facts.price}` : subject;
}
