import {
  ENERGY_RATINGS,
  FEATURE_CATALOGUE,
  FEATURE_SLUGS,
  FURNISHED_STATES,
  LISTING_CONDITIONS,
  LISTING_LIMITS,
  PROPERTY_TYPE_LABELS,
  PROPERTY_TYPES,
  type AreaUnit,
  type EnergyRating,
  type Furnished,
  type ListingCondition,
  type ListingOperation,
  type PropertyType,
  type RentPeriod,
} from '../listing-catalogue';
import type { ListingImage } from '../listing.entity';
import { countryCodeOf } from './countries';

/**
 * One listing of a connected feed, normalised to the columns of `listings` (the import upserts it
 * by `(organization_id, source, external_id)`). Money and areas are decimal strings. Pure.
 */
export interface FeedListing {
  externalId: string;
  reference: string | null;
  title: string;
  description: string | null;
  operation: ListingOperation;
  rentPeriod: RentPeriod | null;
  propertyType: PropertyType;
  price: string;
  currency: string;
  countryCode: string;
  region: string | null;
  city: string;
  community: string | null;
  postalCode: string | null;
  addressLine1: string | null;
  addressLine2: string | null;
  lat: number | null;
  lon: number | null;
  showExactLocation: boolean;
  bedrooms: number | null;
  bathrooms: string | null;
  areaUnit: AreaUnit;
  livingArea: string | null;
  plotArea: string | null;
  floor: string | null;
  yearBuilt: number | null;
  parkingSpaces: number | null;
  furnished: Furnished | null;
  condition: ListingCondition | null;
  energyRating: EnergyRating | null;
  features: string[];
  additionalFeatures: Record<string, unknown> | null;
  availableFrom: string | null;
  completionDate: string | null;
  images: ListingImage[];
  videoUrl: string | null;
  virtualTourUrl: string | null;
}

/**
 * What a format's parser read from one entry, before the shared rules: loosely typed (XML text or
 * JSON values). `normaliseFeedEntry` validates and converts it.
 */
export interface RawFeedEntry {
  id?: unknown;
  reference?: unknown;
  title?: unknown;
  description?: unknown;
  /** `sale` or `rent` (JSON Lines), else derived from `priceFrequency`. */
  operation?: unknown;
  /** Kyero's `price_freq`: `sale`, `month`, `week` (and `day`). */
  priceFrequency?: unknown;
  rentPeriod?: unknown;
  propertyType?: unknown;
  price?: unknown;
  currency?: unknown;
  country?: unknown;
  region?: unknown;
  city?: unknown;
  community?: unknown;
  postalCode?: unknown;
  addressLine1?: unknown;
  addressLine2?: unknown;
  lat?: unknown;
  lon?: unknown;
  showExactLocation?: unknown;
  bedrooms?: unknown;
  bathrooms?: unknown;
  areaUnit?: unknown;
  livingArea?: unknown;
  plotArea?: unknown;
  floor?: unknown;
  yearBuilt?: unknown;
  parkingSpaces?: unknown;
  furnished?: unknown;
  condition?: unknown;
  newBuild?: unknown;
  energyRating?: unknown;
  /** Free text (XML) or slugs (JSON Lines); unknown ones are dropped and kept in `additionalFeatures.feedFeatures`. */
  features?: unknown[];
  /** Amenities the format states as flags (Kyero `<pool>1</pool>`): catalogue slugs. */
  flagFeatures?: string[];
  additionalFeatures?: unknown;
  availableFrom?: unknown;
  completionDate?: unknown;
  imageUrls?: unknown[];
  videoUrl?: unknown;
  virtualTourUrl?: unknown;
}

/** The longest external id a feed may use. */
export const FEED_EXTERNAL_ID_MAX = 200;
/** Money fits `numeric(16, 2)`. */
const MONEY_MAX = 99_999_999_999_999;

/** An entry that cannot be imported, with why (counted as skipped; the rest of the feed goes on). */
export class InvalidFeedEntry extends Error {}

/** Validates and converts one entry; throws `InvalidFeedEntry` for an entry to skip. */
export function normaliseFeedEntry(raw: RawFeedEntry): FeedListing {
  const externalId = scalarText(raw.id);
  if (!externalId) throw new InvalidFeedEntry('no id');
  if (externalId.length > FEED_EXTERNAL_ID_MAX) throw new InvalidFeedEntry('id longer than 200');

  const price = money(raw.price);
  if (price === null) throw new InvalidFeedEntry(`entry ${externalId}: no valid price`);
  const currency = (scalarText(raw.currency) ?? 'EUR').toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency)) throw new InvalidFeedEntry(`entry ${externalId}: bad currency`);
  const countryText = scalarText(raw.country);
  const countryCode = countryText ? countryCodeOf(countryText) : null;
  if (!countryCode) throw new InvalidFeedEntry(`entry ${externalId}: unknown country`);
  const city = clip(scalarText(raw.city), LISTING_LIMITS.city);
  if (!city) throw new InvalidFeedEntry(`entry ${externalId}: no town`);
  const { operation, rentPeriod } = operationOf(raw);
  if (!operation) throw new InvalidFeedEntry(`entry ${externalId}: unknown operation`);

  const propertyType = propertyTypeOf(scalarText(raw.propertyType));
  const { features, unknown } = featuresOf(raw.features ?? [], raw.flagFeatures ?? []);
  const extra = isPlainObject(raw.additionalFeatures) ? raw.additionalFeatures : {};
  // amenities outside the catalogue are not features, but their text is kept
  const additionalFeatures =
    unknown.length > 0 ? { ...extra, feedFeatures: unknown } : Object.keys(extra).length ? extra : null;
  const coordinates = coordinatesOf(raw.lat, raw.lon);
  const newBuild = truthy(raw.newBuild);

  return {
    externalId,
    reference: clip(scalarText(raw.reference), LISTING_LIMITS.reference),
    title:
      clip(scalarText(raw.title), LISTING_LIMITS.title) ??
      clip(`${PROPERTY_TYPE_LABELS[propertyType]} in ${city}`, LISTING_LIMITS.title)!,
    description: clip(plainText(raw.description), 50_000),
    operation,
    rentPeriod,
    propertyType,
    price,
    currency,
    countryCode,
    region: clip(scalarText(raw.region), 100),
    city,
    community: clip(scalarText(raw.community), 200),
    postalCode: clip(scalarText(raw.postalCode), 20),
    addressLine1: clip(scalarText(raw.addressLine1), 200),
    addressLine2: clip(scalarText(raw.addressLine2), 200),
    lat: coordinates?.lat ?? null,
    lon: coordinates?.lon ?? null,
    showExactLocation: raw.showExactLocation === true,
    bedrooms: wholeNumber(raw.bedrooms, 0, 1000),
    bathrooms: oneDecimal(raw.bathrooms),
    areaUnit: scalarText(raw.areaUnit) === 'sqft' ? 'sqft' : 'sqm',
    livingArea: area(raw.livingArea),
    plotArea: area(raw.plotArea),
    floor: clip(scalarText(raw.floor), 20),
    yearBuilt: wholeNumber(raw.yearBuilt, 1000, 2100),
    parkingSpaces: wholeNumber(raw.parkingSpaces, 0, 10_000),
    furnished: oneOf(FURNISHED_STATES, scalarText(raw.furnished)),
    condition: oneOf(LISTING_CONDITIONS, scalarText(raw.condition)) ?? (newBuild ? 'new' : null),
    energyRating: energyRatingOf(scalarText(raw.energyRating)),
    features,
    additionalFeatures,
    availableFrom: isoDate(raw.availableFrom),
    completionDate: isoDate(raw.completionDate),
    images: imagesOf(raw.imageUrls ?? []),
    videoUrl: webUrl(raw.videoUrl),
    virtualTourUrl: webUrl(raw.virtualTourUrl),
  };
}

/** Lower case, no accents, words separated by one space. */
export const normaliseWords = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9+]+/g, ' ')
    .trim();

/** Feed type names (Kyero, REDSP, Spanish spellings) → our property types; unknown → `other`. */
const TYPE_NAMES: Record<string, PropertyType> = {
  apartment: 'apartment',
  apartments: 'apartment',
  flat: 'apartment',
  'ground floor apartment': 'apartment',
  'middle floor apartment': 'apartment',
  'top floor apartment': 'apartment',
  apartamento: 'apartment',
  piso: 'apartment',
  'apartment flat': 'apartment',
  penthouse: 'penthouse',
  atico: 'penthouse',
  studio: 'studio',
  estudio: 'studio',
  duplex: 'duplex',
  villa: 'villa',
  'detached villa': 'villa',
  'semi detached villa': 'villa',
  'linked villa': 'villa',
  chalet: 'villa',
  house: 'house',
  'detached house': 'house',
  'semi detached house': 'house',
  'country house': 'house',
  'country property': 'house',
  casa: 'house',
  finca: 'house',
  cortijo: 'house',
  bungalow: 'house',
  'cave house': 'house',
  'quad house': 'house',
  townhouse: 'townhouse',
  'town house': 'townhouse',
  'terraced house': 'townhouse',
  adosado: 'townhouse',
  'casa adosada': 'townhouse',
  land: 'land',
  plot: 'land',
  'building plot': 'land',
  'rustic land': 'land',
  'urban land': 'land',
  parcela: 'land',
  terreno: 'land',
  solar: 'land',
  commercial: 'commercial',
  'commercial property': 'commercial',
  'business premises': 'commercial',
  shop: 'commercial',
  local: 'commercial',
  'local comercial': 'commercial',
  restaurant: 'commercial',
  bar: 'commercial',
  hotel: 'commercial',
  warehouse: 'commercial',
  office: 'office',
  oficina: 'office',
  garage: 'garage',
  garaje: 'garage',
  'parking space': 'garage',
  parking: 'garage',
};

/** Word hints for names not in the table, most specific first. */
const TYPE_HINTS: [RegExp, PropertyType][] = [
  [/\bpenthouse\b/, 'penthouse'],
  [/\bstudio\b/, 'studio'],
  [/\bduplex\b/, 'duplex'],
  [/\btown ?house\b/, 'townhouse'],
  [/\bvilla\b/, 'villa'],
  [/\b(apartment|flat)\b/, 'apartment'],
  [/\bhouse\b/, 'house'],
  [/\b(land|plot)\b/, 'land'],
  [/\boffice\b/, 'office'],
  [/\b(garage|parking)\b/, 'garage'],
  [/\b(commercial|shop|retail|premises)\b/, 'commercial'],
];

export function propertyTypeOf(name: string | null): PropertyType {
  if (!name) return 'other';
  const words = normaliseWords(name);
  if ((PROPERTY_TYPES as readonly string[]).includes(words)) return words as PropertyType;
  const known = TYPE_NAMES[words];
  if (known) return known;
  for (const [hint, type] of TYPE_HINTS) if (hint.test(words)) return type;
  return 'other';
}

/** Feed amenity names (English, Spanish, our slugs and labels) → catalogue slugs. */
const FEATURE_NAMES: Record<string, string> = {
  ...Object.fromEntries(FEATURE_CATALOGUE.map((f) => [normaliseWords(f.slug), f.slug])),
  ...Object.fromEntries(FEATURE_CATALOGUE.map((f) => [normaliseWords(f.label), f.slug])),
  'swimming pool': 'pool',
  piscina: 'pool',
  'community pool': 'communal_pool',
  'shared pool': 'communal_pool',
  'piscina comunitaria': 'communal_pool',
  'piscina privada': 'private_pool',
  'private garden': 'garden',
  'communal garden': 'garden',
  jardin: 'garden',
  terraza: 'terrace',
  'covered terrace': 'terrace',
  balcon: 'balcony',
  solarium: 'roof_terrace',
  barbecue: 'bbq',
  'sea views': 'sea_view',
  'vistas al mar': 'sea_view',
  'mountain views': 'mountain_view',
  'golf views': 'golf_view',
  'beach front': 'beachfront',
  'frontline beach': 'beachfront',
  'golf front': 'golf_front',
  lift: 'elevator',
  elevator: 'elevator',
  ascensor: 'elevator',
  'off road parking': 'parking',
  'parking space': 'parking',
  'private parking': 'parking',
  aparcamiento: 'parking',
  garaje: 'garage',
  storage: 'storage_room',
  trastero: 'storage_room',
  gated: 'gated_community',
  'urbanizacion cerrada': 'gated_community',
  'air conditioning': 'air_conditioning',
  'a c': 'air_conditioning',
  aircon: 'air_conditioning',
  'aire acondicionado': 'air_conditioning',
  'central heating': 'heating',
  calefaccion: 'heating',
  'suelo radiante': 'underfloor_heating',
  chimenea: 'fireplace',
  'log fire': 'fireplace',
  'solar panel': 'solar_panels',
  alarma: 'alarm',
  'cocina equipada': 'fitted_kitchen',
  'wheelchair accessible': 'wheelchair_access',
  'pets allowed': 'pets_allowed',
  'hot tub': 'jacuzzi',
  gimnasio: 'gym',
};

/**
 * Catalogue slugs of `names` (deduplicated, catalogue order), and the texts that match no slug
 * (kept as they were, at most 100).
 */
export function featuresOf(names: unknown[], flags: string[]): { features: string[]; unknown: string[] } {
  const found = new Set<string>(flags.filter((slug) => FEATURE_SLUGS.includes(slug)));
  const unknown: string[] = [];
  for (const name of names) {
    const text = scalarText(name);
    if (!text) continue;
    const slug = FEATURE_NAMES[normaliseWords(text)];
    if (slug) found.add(slug);
    else if (unknown.length < 100 && !unknown.includes(text)) unknown.push(clip(text, 200)!);
  }
  return { features: FEATURE_SLUGS.filter((slug) => found.has(slug)), unknown };
}

function operationOf(raw: RawFeedEntry): {
  operation: ListingOperation | null;
  rentPeriod: RentPeriod | null;
} {
  const period = scalarText(raw.rentPeriod)?.toLowerCase();
  const rentPeriod = period === 'month' || period === 'week' || period === 'day' ? period : null;
  const operation = scalarText(raw.operation)?.toLowerCase();
  if (operation === 'sale') return { operation: 'sale', rentPeriod: null };
  if (operation === 'rent') return { operation: 'rent', rentPeriod };
  if (operation !== undefined) return { operation: null, rentPeriod: null };
  const frequency = (scalarText(raw.priceFrequency) ?? 'sale').toLowerCase();
  if (frequency === 'sale') return { operation: 'sale', rentPeriod: null };
  const perPeriod: Record<string, RentPeriod> = {
    month: 'month',
    monthly: 'month',
    week: 'week',
    weekly: 'week',
    day: 'day',
    daily: 'day',
    night: 'day',
  };
  return perPeriod[frequency]
    ? { operation: 'rent', rentPeriod: perPeriod[frequency] }
    : { operation: null, rentPeriod: null };
}

function energyRatingOf(text: string | null): EnergyRating | null {
  if (!text) return null;
  const upper = text.trim().toUpperCase();
  const exact = ENERGY_RATINGS.find((rating) => rating.toUpperCase() === upper);
  return exact ?? null;
}

function coordinatesOf(lat: unknown, lon: unknown): { lat: number; lon: number } | null {
  const la = decimal(lat);
  const lo = decimal(lon);
  if (la === null || lo === null) return null;
  if (la < -90 || la > 90 || lo < -180 || lo > 180) return null;
  if (la === 0 && lo === 0) return null; // "no location" in many feeds
  return { lat: la, lon: lo };
}

function imagesOf(urls: unknown[]): ListingImage[] {
  const seen = new Set<string>();
  const images: ListingImage[] = [];
  for (const value of urls) {
    const url = webUrl(value, false);
    if (!url || seen.has(url)) continue;
    seen.add(url);
    images.push({ mediaId: null, extension: null, url, caption: null });
    if (images.length === LISTING_LIMITS.images) break;
  }
  return images;
}

/** An http(s) URL (https only when `httpsOnly`), else null. */
function webUrl(value: unknown, httpsOnly = true): string | null {
  const text = scalarText(value);
  if (!text || text.length > 2000) return null;
  try {
    const url = new URL(text);
    const ok = httpsOnly ? url.protocol === 'https:' : url.protocol === 'https:' || url.protocol === 'http:';
    return ok ? url.toString() : null;
  } catch {
    return null;
  }
}

/** A string or number as trimmed text; anything else (or blank) → null. */
export function scalarText(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return null;
  const text = value.trim();
  return text === '' ? null : text;
}

/** Text with its line breaks kept (descriptions). */
function plainText(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = value.replace(/\r\n?/g, '\n').trim();
  return text === '' ? null : text;
}

function clip(text: string | null, max: number): string | null {
  if (text === null) return null;
  const chars = [...text];
  return chars.length <= max ? text : chars.slice(0, max).join('').trimEnd();
}

function decimal(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  const text = scalarText(value);
  if (!text || !/^-?\d+(\.\d+)?$/.test(text)) return null;
  return Number(text);
}

/** A non-negative amount with at most 2 decimals (more are rounded), as `"123.45"`. */
function money(value: unknown): string | null {
  const amount = decimal(value);
  if (amount === null || amount < 0 || amount > MONEY_MAX) return null;
  return amount.toFixed(2);
}

function area(value: unknown): string | null {
  const amount = decimal(value);
  if (amount === null || amount <= 0 || amount >= 10_000_000_000) return null;
  return amount.toFixed(2);
}

function oneDecimal(value: unknown): string | null {
  const amount = decimal(value);
  if (amount === null || amount < 0 || amount > 1000) return null;
  return (Math.round(amount * 10) / 10).toFixed(1);
}

function wholeNumber(value: unknown, min: number, max: number): number | null {
  const amount = decimal(value);
  if (amount === null || !Number.isInteger(amount) || amount < min || amount > max) return null;
  return amount;
}

function isoDate(value: unknown): string | null {
  const text = scalarText(value);
  if (!text) return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (!match) return null;
  const date = new Date(`${match[1]}-${match[2]}-${match[3]}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== match[0] ? null : match[0];
}

function oneOf<T extends string>(values: readonly T[], text: string | null): T | null {
  return text !== null && (values as readonly string[]).includes(text) ? (text as T) : null;
}

function truthy(value: unknown): boolean {
  if (value === true || value === 1) return true;
  const text = scalarText(value)?.toLowerCase();
  return text === '1' || text === 'true' || text === 'yes';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
