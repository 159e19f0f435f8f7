import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsISO8601,
  IsNumber,
  IsOptional,
  IsUUID,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import {
  ENERGY_RATINGS,
  FEATURE_SLUGS,
  LISTING_CONDITIONS,
  LISTING_LIMITS,
  LISTING_OPERATIONS,
  LISTING_STATUSES,
  PROPERTY_TYPES,
  type EnergyRating,
  type ListingCondition,
  type ListingOperation,
  type ListingStatus,
  type PropertyType,
} from '../../domain/listing-catalogue';
import {
  LISTING_AGGREGATIONS,
  LISTING_SORT_KEYS,
  SEARCH_SCOPE_NAMES,
  type ListingAggregation,
  type ListingSortKey,
} from '../../application/listing-search.sql';

const oneOf = (name: string, values: readonly string[]) => ({
  message: `${name} must be one of ${values.join(', ')}`,
});
const eachOneOf = (name: string, values: readonly string[]) => ({
  each: true,
  message: `each of ${name} must be one of ${values.join(', ')}`,
});

/** Spec "Coordinate". */
export class CoordinateDto {
  @ApiProperty({ minimum: -90, maximum: 90 })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(-90)
  @Max(90)
  lat: number;

  @ApiProperty({ minimum: -180, maximum: 180 })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(-180)
  @Max(180)
  lon: number;
}

/**
 * Spec "bounding box": the map view's corners; `southWest.lon > northEast.lon` crosses the
 * antimeridian; `southWest.lat` above `northEast.lat` is a 400.
 */
export class BoundingBoxDto {
  @ApiProperty({ type: CoordinateDto })
  @IsObject({ message: 'boundingBox.northEast must be a coordinate {lat, lon}' })
  @ValidateNested()
  @Type(() => CoordinateDto)
  northEast: CoordinateDto;

  @ApiProperty({ type: CoordinateDto })
  @IsObject({ message: 'boundingBox.southWest must be a coordinate {lat, lon}' })
  @ValidateNested()
  @Type(() => CoordinateDto)
  southWest: CoordinateDto;
}

/** Property search filters (INTERFACES.md "Listings"); every one optional, all of them AND-ed. */
export class ListingFiltersDto {
  @ApiPropertyOptional({ enum: LISTING_OPERATIONS })
  @IsOptional()
  @IsIn(LISTING_OPERATIONS, oneOf('operation', LISTING_OPERATIONS))
  operation?: ListingOperation;

  @ApiPropertyOptional({ enum: PROPERTY_TYPES, isArray: true })
  @IsOptional()
  @IsArray()
  @IsIn(PROPERTY_TYPES, eachOneOf('propertyTypes', PROPERTY_TYPES))
  propertyTypes?: PropertyType[];

  @ApiPropertyOptional({
    enum: LISTING_STATUSES,
    isArray: true,
    description:
      'Own scope only (the network shows ACTIVE listings; with `scope` `network` it is a 400). Default: every status.',
  })
  @IsOptional()
  @IsArray()
  @IsIn(LISTING_STATUSES, eachOneOf('statuses', LISTING_STATUSES))
  statuses?: ListingStatus[];

  @ApiPropertyOptional({ minimum: 0 })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  priceMin?: number;

  @ApiPropertyOptional({ minimum: 0, description: 'Not below `priceMin` (else 400).' })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  priceMax?: number;

  @ApiPropertyOptional({ example: 'EUR', description: 'ISO 4217, upper case. Prices are not converted.' })
  @IsOptional()
  @Matches(/^[A-Z]{3}$/, { message: 'currency must be an ISO 4217 code in upper case' })
  currency?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 0 })
  @IsOptional()
  @IsInt()
  @Min(0)
  bedroomsMin?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, description: 'Not below `bedroomsMin` (else 400).' })
  @IsOptional()
  @IsInt()
  @Min(0)
  bedroomsMax?: number;

  @ApiPropertyOptional({ minimum: 0 })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  bathroomsMin?: number;

  @ApiPropertyOptional({ minimum: 0, description: 'm²; listings in sqft are converted.' })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  livingAreaMin?: number;

  @ApiPropertyOptional({
    minimum: 0,
    description: 'm²; listings in sqft are converted. Not below `livingAreaMin` (else 400).',
  })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  livingAreaMax?: number;

  @ApiPropertyOptional({ minimum: 0, description: 'm²; listings in sqft are converted.' })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  plotAreaMin?: number;

  @ApiPropertyOptional({
    minimum: 0,
    description: 'm²; listings in sqft are converted. Not below `plotAreaMin` (else 400).',
  })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  plotAreaMax?: number;

  @ApiPropertyOptional({ maxLength: LISTING_LIMITS.city, description: 'Exact, case-insensitive.' })
  @IsOptional()
  @IsString()
  @MaxLength(LISTING_LIMITS.city)
  city?: string;

  @ApiPropertyOptional({ maxLength: 200, description: 'Exact, case-insensitive.' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  community?: string;

  @ApiPropertyOptional({ example: 'ES', description: 'ISO 3166-1 alpha-2, upper case.' })
  @IsOptional()
  @Matches(/^[A-Z]{2}$/, { message: 'countryCode must be an ISO 3166-1 alpha-2 code in upper case' })
  countryCode?: string;

  @ApiPropertyOptional({ type: [String], description: 'Amenity slugs; a listing must have all of them.' })
  @IsOptional()
  @IsArray()
  @IsIn(FEATURE_SLUGS, { each: true, message: 'each of features must be a slug of GET /properties/features' })
  features?: string[];

  @ApiPropertyOptional({ enum: ENERGY_RATINGS, isArray: true })
  @IsOptional()
  @IsArray()
  @IsIn(ENERGY_RATINGS, eachOneOf('energyRatings', ENERGY_RATINGS))
  energyRatings?: EnergyRating[];

  @ApiPropertyOptional({ enum: LISTING_CONDITIONS, isArray: true })
  @IsOptional()
  @IsArray()
  @IsIn(LISTING_CONDITIONS, eachOneOf('conditions', LISTING_CONDITIONS))
  conditions?: ListingCondition[];

  @ApiPropertyOptional({ format: 'uuid', description: 'A roster agent id.' })
  @IsOptional()
  @IsUUID('all', { message: 'agentId must be a UUID' })
  agentId?: string;

  @ApiPropertyOptional({
    maxLength: LISTING_LIMITS.searchQuery,
    description: 'Words in the title, reference or address (case- and accent-insensitive contains).',
  })
  @IsOptional()
  @IsString()
  @MaxLength(LISTING_LIMITS.searchQuery)
  q?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Listings changed at or after this instant.' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'updatedSince must be an ISO 8601 date-time' })
  updatedSince?: string;
}

/** The filter part shared by search, count and aggregations. */
export class ListingQueryDto {
  @ApiPropertyOptional({
    enum: SEARCH_SCOPE_NAMES,
    default: 'own',
    description:
      "`own`: the agency's listings (every status); `network`: other agencies' ACTIVE listings shared on the network.",
  })
  @IsOptional()
  @IsIn(SEARCH_SCOPE_NAMES, oneOf('scope', SEARCH_SCOPE_NAMES))
  scope?: (typeof SEARCH_SCOPE_NAMES)[number];

  @ApiPropertyOptional({ type: ListingFiltersDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => ListingFiltersDto)
  filters?: ListingFiltersDto;

  @ApiPropertyOptional({ type: BoundingBoxDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => BoundingBoxDto)
  boundingBox?: BoundingBoxDto;
}

/** `POST /properties/search` (and the body of `POST /property-sources/{source}/search`). */
export class ListingSearchDto extends ListingQueryDto {
  @ApiPropertyOptional({ enum: LISTING_SORT_KEYS, default: 'newest' })
  @IsOptional()
  @IsIn(LISTING_SORT_KEYS, oneOf('sort', LISTING_SORT_KEYS))
  sort?: ListingSortKey;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, default: 1 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(10_000)
  page?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 20 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;
}

/** `POST /properties/aggregations`: the query of a search, and which aggregations to answer. */
export class ListingAggregationsDto extends ListingQueryDto {
  @ApiProperty({
    enum: LISTING_AGGREGATIONS,
    isArray: true,
    minItems: 1,
    maxItems: LISTING_AGGREGATIONS.length,
    uniqueItems: true,
    description: 'Which aggregations to answer: 1-6 distinct names.',
  })
  @IsArray()
  @ArrayMinSize(1, { message: 'aggregations must name at least one aggregation' })
  @ArrayMaxSize(LISTING_AGGREGATIONS.length)
  @ArrayUnique({ message: 'aggregations must not repeat a name' })
  @IsIn(LISTING_AGGREGATIONS, eachOneOf('aggregations', LISTING_AGGREGATIONS))
  aggregations: ListingAggregation[];
}
