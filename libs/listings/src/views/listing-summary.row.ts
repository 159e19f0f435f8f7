/**
 * A property search row as its summary, pure (no framework): ListingSearchQueries and the
 * framework-free benchmark baseline map rows with it. The OpenAPI classes are in listing-summary.ts.
 */
import type { AreaUnit, ListingOperation, ListingStatus, PropertyType } from '../domain/listing-catalogue';
import type { ListingImage } from '../domain/listing.entity';
import { showsExactLocation } from '../domain/network-view';

/**
 * How a listing is referred to across sources: `{source, id}`, plus `country` (`es`, `it`, `pt`)
 * for portal listings only. Brochures and listing matches take it back exactly as search gives it.
 */
export interface ListingRef {
  source: string;
  id: string;
  country?: string;
}

/** A row of property search (own, network, feed or portal). */
export interface ListingSummary {
  id: string;
  ref: ListingRef;
  title: string;
  reference: string | null;
  operation: ListingOperation;
  propertyType: PropertyType;
  status: ListingStatus;
  price: string;
  currency: string;
  bedrooms: number | null;
  bathrooms: number | null;
  livingArea: number | null;
  plotArea: number | null;
  areaUnit: AreaUnit;
  city: string;
  community: string | null;
  countryCode: string;
  /** Exact for own listings; for other agencies only with `showExactLocation`, else null. */
  coordinates: { lat: number; lon: number } | null;
  mainImageUrl: string | null;
  imageCount: number;
  createdAt: string;
  updatedAt: string;
}

/** The URL an image is served at: an uploaded photo under `/media`, or a feed's own URL. */
export const imageUrlOf = (image: ListingImage, publicBaseUrl: string): string =>
  image.mediaId ? `${publicBaseUrl}/media/${image.mediaId}.${image.extension}` : (image.url ?? '');

/** The columns a summary reads (`LISTING_SUMMARY_COLUMNS` of listing-search.sql). */
export interface SummaryRow {
  id: string;
  organization_id: string;
  source: string;
  title: string;
  reference: string | null;
  operation: string;
  property_type: string;
  status: string;
  price: string;
  currency: string;
  bedrooms: number | null;
  bathrooms: number | null;
  living_area: number | null;
  plot_area: number | null;
  area_unit: string;
  city: string;
  community: string | null;
  country_code: string;
  lat: number | null;
  lon: number | null;
  show_exact_location: boolean;
  main_image: unknown;
  image_count: number;
  created_at: string | Date;
  updated_at: string | Date;
}

const iso = (value: string | Date): string => new Date(value).toISOString();

/** A jsonb value, whether the connection parsed it or not. */
const json = <T>(value: unknown): T | null =>
  value === null || value === undefined
    ? null
    : ((typeof value === 'string' ? JSON.parse(value) : value) as T);

/**
 * The summary of a row read by the agency `viewerOrganizationId`: another agency's listing shows
 * its coordinates only with `showExactLocation` (domain/network-view); `ref.id` is the row's id
 * (`source` `internal` or the feed it came from).
 */
export function summaryOfRow(
  row: SummaryRow,
  viewerOrganizationId: string,
  publicBaseUrl: string,
): ListingSummary {
  const own = row.organization_id === viewerOrganizationId;
  const image = json<ListingImage>(row.main_image);
  const located = row.lat !== null && row.lon !== null;
  return {
    id: row.id,
    ref: { source: row.source, id: row.id },
    title: row.title,
    reference: row.reference,
    operation: row.operation as ListingOperation,
    propertyType: row.property_type as PropertyType,
    status: row.status as ListingStatus,
    price: row.price,
    currency: row.currency,
    bedrooms: row.bedrooms,
    bathrooms: row.bathrooms,
    livingArea: row.living_area,
    plotArea: row.plot_area,
    areaUnit: row.area_unit as AreaUnit,
    city: row.city,
    community: row.community,
    countryCode: row.country_code,
    coordinates:
      located && showsExactLocation(own, { showExactLocation: row.show_exact_location })
        ? { lat: row.lat as number, lon: row.lon as number }
        : null,
    mainImageUrl: image ? imageUrlOf(image, publicBaseUrl) || null : null,
    imageCount: Number(row.image_count),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}
