import type { RawFeedEntry } from './feed-entry';
import { FeedParser, FeedParseResult, parseWhole } from './feed-parser';
import { imageUrls, localized, text, texts, xmlFeedParser, XmlNode } from './xml-feed';

/**
 * Kyero v3 XML (`<root><kyero>…</kyero><property>…</property>…</root>`). Read per `<property>`:
 * `id` (external id), `ref`, `price`, `currency` (default EUR), `price_freq` (`sale`, or `month`
 * and `week` for rentals), `new_build` (condition `new`), `type`, `town`, `province` (region),
 * `country` (default Spain), `location_detail` (community), `postcode`, `location/latitude` and
 * `longitude`, `beds`, `baths`, `pool` (the `pool` feature), `surface_area/built` and `plot` (m²),
 * `energy_rating/consumption`, `title` and `desc` (English first), `features/feature`,
 * `images/image/url` (in `id` order). Everything else is ignored.
 */
export function kyeroCommonFields(property: XmlNode): RawFeedEntry {
  return {
    id: text(property, 'id'),
    reference: text(property, 'ref'),
    title: localized(property, 'title'),
    description: localized(property, 'desc'),
    priceFrequency: text(property, 'price_freq'),
    price: text(property, 'price'),
    currency: text(property, 'currency'),
    newBuild: text(property, 'new_build'),
    propertyType: text(property, 'type'),
    city: text(property, 'town'),
    region: text(property, 'province'),
    country: text(property, 'country') ?? 'Spain',
    community: text(property, 'location_detail'),
    postalCode: text(property, 'postcode'),
    lat: text(property, 'location', 'latitude'),
    lon: text(property, 'location', 'longitude'),
    bedrooms: text(property, 'beds'),
    bathrooms: text(property, 'baths'),
    livingArea: text(property, 'surface_area', 'built'),
    plotArea: text(property, 'surface_area', 'plot'),
    energyRating: text(property, 'energy_rating', 'consumption'),
    features: texts(property, 'features', 'feature'),
    flagFeatures: isSet(text(property, 'pool')) ? ['pool'] : [],
    imageUrls: imageUrls(property),
  };
}

export const isSet = (value: string | undefined): boolean =>
  value !== undefined && ['1', 'true', 'yes'].includes(value.toLowerCase());

/** A streaming Kyero parser. */
export const kyeroParser = (): FeedParser => xmlFeedParser('Kyero', kyeroCommonFields);

/** A whole Kyero document. */
export const parseKyero = (xml: string): FeedParseResult => parseWhole(kyeroParser(), xml);
