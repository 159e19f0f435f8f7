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
import type { ListingRef, ListingSummary } from './listing-summary.row';

export { imageUrlOf, summaryOfRow, type ListingRef, type ListingSummary } from './listing-summary.row';

/** `{source, id}`, plus `country` for portal listings only. */
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

/** A row of property search (own, network, feed or portal); never `commission`. */
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
    type: 'object',
    nullable: true,
    required: ['lat', 'lon'],
    properties: {
      lat: { type: 'number', minimum: -90, maximum: 90 },
      lon: { type: 'number', minimum: -180, maximum: 180 },
    },
    description: "Another agency's listing shows them only with `showExactLocation`.",
  })
  coordinates: CoordinatesView | null;
  @ApiNullable(String, { format: 'uri' }) mainImageUrl: string | null;
  @ApiProperty({ type: 'integer' }) imageCount: number;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

/** `POST /properties/search`: one page of summaries with the exact total. */
export class ListingSearchPageView {
  @ApiProperty({ type: [ListingSummaryView] }) data: ListingSummaryView[];
  @ApiProperty({ type: 'integer', minimum: 1 }) page: number;
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 100 }) limit: number;
  @ApiProperty({ type: 'integer', description: 'Every listing the query matches.' }) total: number;
  @ApiProperty({ description: 'Whether a later page has listings.' }) hasMore: boolean;
}

/** `POST /properties/count`. */
export class ListingCountView {
  @ApiProperty({ type: 'integer', description: 'The listings the query matches (`total` of the search).' })
  count: number;
}

export class TermCountView {
  @ApiProperty() value: string;
  @ApiProperty({ type: 'integer' }) count: number;
}

export class BedroomsCountView {
  @ApiProperty({ type: 'integer' }) value: number;
  @ApiProperty({ type: 'integer' }) count: number;
}

export class PriceStatsView {
  @ApiProperty({ example: 'EUR' }) currency: string;
  @ApiProperty({ type: 'integer', description: 'Listings in this currency.' }) count: number;
  @ApiProperty({ example: '95000.00', description: 'Decimal string.' }) min: string;
  @ApiProperty({ example: '1250000.00', description: 'Decimal string.' }) max: string;
  @ApiProperty({ example: '412345.67', description: 'Decimal string, rounded to cents.' }) avg: string;
  @ApiProperty({
    example: '350000.00',
    description: 'Decimal string: the middle price (of an even count, the lower of the two middle ones).',
  })
  median: string;
}

const TERMS =
  'The top 50 values by count (then by value); listings without a value are not counted. Present only when requested.';

/** `POST /properties/aggregations`: one member per requested aggregation. */
export class ListingAggregationsView {
  @ApiProperty({ type: [TermCountView], required: false, description: TERMS }) propertyType?: TermCountView[];
  @ApiProperty({ type: [BedroomsCountView], required: false, description: TERMS })
  bedrooms?: BedroomsCountView[];
  @ApiProperty({
    type: [TermCountView],
    required: false,
    description: `${TERMS} Cities are grouped case-insensitively.`,
  })
  city?: TermCountView[];
  @ApiProperty({ type: [TermCountView], required: false, description: TERMS }) energyRating?: TermCountView[];
  @ApiProperty({ type: [TermCountView], required: false, description: TERMS }) status?: TermCountView[];
  @ApiProperty({
    type: [PriceStatsView],
    required: false,
    description: 'Per currency (prices are never converted), by currency. Present only when requested.',
  })
  priceStats?: PriceStatsView[];
}
