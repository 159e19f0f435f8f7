import type { RawFeedEntry } from './feed-entry';
import { FeedParser, FeedParseResult, parseWhole } from './feed-parser';
import { isSet, kyeroCommonFields } from './kyero';
import { text, xmlFeedParser, XmlNode } from './xml-feed';

/**
 * REDSP XML: a Kyero-like schema (`<root><property>…</property>…</root>`), so every field of
 * `kyeroCommonFields` is read the same way, plus: `title` (English first), `development_name`
 * (the community when `location_detail` is absent), `postcode` or `zipcode`, `address`,
 * `delivery_date` (`YYYY-MM-DD`, the completion date), `parking` (parking spaces; > 0 also adds
 * the `parking` feature), `furnished` (`1` → furnished), `video_url` and `virtual_tour` (https).
 */
export function redspFields(property: XmlNode): RawFeedEntry {
  const common = kyeroCommonFields(property);
  const parking = text(property, 'parking');
  const parkingCount = parking !== undefined && /^\d+$/.test(parking) ? Number(parking) : undefined;
  return {
    ...common,
    community: common.community ?? text(property, 'development_name'),
    postalCode: common.postalCode ?? text(property, 'zipcode'),
    addressLine1: text(property, 'address'),
    completionDate: text(property, 'delivery_date'),
    parkingSpaces: parkingCount,
    furnished: isSet(text(property, 'furnished')) ? 'furnished' : undefined,
    flagFeatures: [...(common.flagFeatures ?? []), ...(parkingCount ? ['parking'] : [])],
    videoUrl: text(property, 'video_url'),
    virtualTourUrl: text(property, 'virtual_tour'),
  };
}

/** A streaming REDSP parser. */
export const redspParser = (): FeedParser => xmlFeedParser('REDSP', redspFields);

/** A whole REDSP document. */
export const parseRedsp = (xml: string): FeedParseResult => parseWhole(redspParser(), xml);
