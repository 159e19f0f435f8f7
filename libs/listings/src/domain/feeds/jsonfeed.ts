import type { RawFeedEntry } from './feed-entry';
import {
  FeedParser,
  FeedParseResult,
  FeedResultCollector,
  MalformedFeedError,
  parseWhole,
} from './feed-parser';

/** A line longer than this is skipped as an entry (it is no listing). */
const MAX_LINE_CHARS = 1_000_000;

/**
 * `jsonfeed`: JSON Lines (UTF-8, one JSON object per line, blank lines ignored) whose fields are
 * our listing payload's names (`title`, `operation`, `propertyType`, `price`, `currency`,
 * `countryCode`, `city`, `reference`, `description`, `rentPeriod`, `region`, `community`,
 * `postalCode`, `addressLine1`, `addressLine2`, `coordinates {lat, lon}`, `showExactLocation`,
 * `bedrooms`, `bathrooms`, `areaUnit`, `livingArea`, `plotArea`, `floor`, `yearBuilt`,
 * `parkingSpaces`, `furnished`, `condition`, `energyRating`, `features` (catalogue slugs),
 * `additionalFeatures`, `availableFrom`, `completionDate`, `videoUrl`, `virtualTourUrl`) plus `id`
 * (required: the external id, string or number) and `images` (an array of image URLs). `operation`
 * defaults to `sale`, `currency` to EUR. A line that is not a JSON object, or lacks a required
 * field, is skipped and counted; a document in which no line is a JSON object is malformed.
 */
export function jsonFeedParser(): FeedParser {
  const results = new FeedResultCollector();
  let pending = '';
  let lines = 0;
  let objects = 0;
  let first = true;

  const take = (line: string) => {
    const trimmed = line.trim();
    if (trimmed === '') return;
    lines += 1;
    if (trimmed.length > MAX_LINE_CHARS)
      return results.skip(`line ${lines}: longer than 1,000,000 characters`);
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch {
      return results.skip(`line ${lines}: not JSON`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return results.skip(`line ${lines}: not a JSON object`);
    objects += 1;
    results.add(() => rawEntry(value as Record<string, unknown>));
  };

  return {
    write(chunk: string) {
      let data = pending + chunk;
      if (first && data.length > 0) {
        first = false;
        if (data.charCodeAt(0) === 0xfeff) data = data.slice(1);
      }
      const parts = data.split('\n');
      pending = parts.pop() ?? '';
      for (const part of parts) take(part);
      // a runaway line is not kept in memory whole
      if (pending.length > MAX_LINE_CHARS + 1) pending = pending.slice(0, MAX_LINE_CHARS + 1);
    },
    end(): FeedParseResult {
      take(pending);
      pending = '';
      if (lines > 0 && objects === 0)
        throw new MalformedFeedError('Malformed JSON Lines: no line is a JSON object.');
      return results.result();
    },
  };
}

function rawEntry(line: Record<string, unknown>): RawFeedEntry {
  const coordinates =
    typeof line.coordinates === 'object' && line.coordinates !== null
      ? (line.coordinates as Record<string, unknown>)
      : {};
  return {
    id: line.id,
    reference: line.reference,
    title: line.title,
    description: line.description,
    operation: line.operation ?? 'sale',
    rentPeriod: line.rentPeriod,
    propertyType: line.propertyType,
    price: line.price,
    currency: line.currency,
    country: line.countryCode,
    region: line.region,
    city: line.city,
    community: line.community,
    postalCode: line.postalCode,
    addressLine1: line.addressLine1,
    addressLine2: line.addressLine2,
    lat: coordinates.lat,
    lon: coordinates.lon,
    showExactLocation: line.showExactLocation,
    bedrooms: line.bedrooms,
    bathrooms: line.bathrooms,
    areaUnit: line.areaUnit,
    livingArea: line.livingArea,
    plotArea: line.plotArea,
    floor: line.floor,
    yearBuilt: line.yearBuilt,
    parkingSpaces: line.parkingSpaces,
    furnished: line.furnished,
    condition: line.condition,
    energyRating: line.energyRating,
    features: Array.isArray(line.features) ? line.features : [],
    additionalFeatures: line.additionalFeatures,
    availableFrom: line.availableFrom,
    completionDate: line.completionDate,
    imageUrls: Array.isArray(line.images) ? line.images : [],
    videoUrl: line.videoUrl,
    virtualTourUrl: line.virtualTourUrl,
  };
}

/** A whole JSON Lines document. */
export const parseJsonFeed = (document: string): FeedParseResult => parseWhole(jsonFeedParser(), document);
