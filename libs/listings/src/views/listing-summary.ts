import { ApiProperty } from '@nestjs/swagger';
import { ApiNullable } from '@app/platform';
import {
  AREA_UNITS,
  LISTING_OPERATIONS,
  LISTING_STATUSES,
  PROPERTY_TYPES,
  type AreaUnit,
  type ListingOperation,
  type ListingStatus,
  type PropertyType,
} from '../domain/listing-catalogue';
import type { ListingImage } from '../domain/listing.entity';

/**
 * How a listing is referred to across sources: `{source, id}`, plus `country` (`es`, `it`, `pt`)
 * for portal listings only. Brochures and listing matches take it back exactly as search gives it.
 */
export interface ListingRef {
  source: string;
  id: string;
  country?: string;
}

export class ListingRefView implements ListingRef {
  @ApiProperty({
    example: 'internal',
    description: '`internal`, a feed (`kyero`, `redsp`, `jsonfeed`) or a portal.',
  })
  source: string;
  @ApiProperty({ description: 'The listing id within its source.' }) id: string;
  @ApiProperty({ required: false, enum: ['es', 'it', 'pt'], description: 'Portal listings only.' })
  country?: string;
}

export class CoordinatesView {
  @ApiProperty({ minimum: -90, maximum: 90 }) lat: number;
  @ApiProperty({ minimum: -180, maximum: 180 }) lon: number;
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

export class ListingSummaryView implements ListingSummary {
  @ApiProperty({ description: 'The listing id within its source (a UUID for own and network listings).' })
  id: string;
  @ApiProperty({ type: ListingRefView }) ref: ListingRefView;
  @ApiProperty({ maxLength: 200 }) title: string;
  @ApiNullable(String, { maxLength: 50 }) reference: string | null;
  @ApiProperty({ enum: LISTING_OPERATIONS }) operation: ListingOperation;
  @ApiProperty({ enum: PROPERTY_TYPES }) propertyType: PropertyType;
  @ApiProperty({ enum: LISTING_STATUSES }) status: ListingStatus;
  @ApiProperty({ example: '350000.00', description: 'Decimal string.' }) price: string;
  @ApiProperty({ example: 'EUR' }) currency: string;
  @ApiProperty({ type: 'integer', nullable: true }) bedrooms: number | null;
  @ApiNullable(Number, { description: 'One decimal.' }) bathrooms: number | null;
  @ApiNullable(Number, { description: 'In `areaUnit`.' }) livingArea: number | null;
  @ApiNullable(Number, { description: 'In `areaUnit`.' }) plotArea: number | null;
  @ApiProperty({ enum: AREA_UNITS }) areaUnit: AreaUnit;
  @ApiProperty() city: string;
  @ApiNullable(String) community: string | null;
  @ApiProperty({ example: 'ES' }) countryCode: string;
  @ApiProperty({
    // inline: a nullable `type: CoordinatesView` is documented as a bare `object` beside its `allOf`
    type: 'object',
    properties: {
      lat: { type: 'number', minimum: -90, maximum: 90 },
      lon: { type: 'number', minimum: -180, maximum: 180 },
    },
    required: ['lat', 'lon'],
    nullable: true,
    description: "Another agency's listing shows them only with `showExactLocation`.",
  })
  coordinates: CoordinatesView | null;
  @ApiNullable(String, { format: 'uri' }) mainImageUrl: string | null;
  @ApiProperty({ type: 'integer' }) imageCount: number;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

/** The URL an image is served at: an uploaded photo under `/media`, or a feed's own URL. */
export const imageUrlOf = (image: ListingImage, publicBaseUrl: string): string =>
  image.mediaId ? `${publicBaseUrl}/media/${image.mediaId}.${image.extension}` : (image.url ?? '');
