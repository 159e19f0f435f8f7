import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import { ApiNullable, IsDecimalNumber, IsOmittable } from '@app/platform';
import {
  AREA_UNITS,
  ENERGY_RATINGS,
  FEATURE_SLUGS,
  FURNISHED_STATES,
  LISTING_CONDITIONS,
  LISTING_LIMITS,
  LISTING_OPERATIONS,
  PROPERTY_TYPES,
  RENT_PERIODS,
  SETTABLE_LISTING_STATUSES,
  type AreaUnit,
  type EnergyRating,
  type Furnished,
  type ListingCondition,
  type ListingOperation,
  type ListingStatus,
  type PropertyType,
  type RentPeriod,
} from '../../domain/listing-catalogue';
import type { ListingPayload } from '../../domain/listing-changes';
import { COORDINATES_SCHEMA } from '../../views/listing.view';
import { CoordinateDto } from './listing-search.dto';

/** Text limits of the free-text fields (INTERFACES.md "Listings": sane maxima). */
export const LISTING_TEXT_LIMITS = {
  description: 20_000,
  addressLine: 200,
  community: 100,
  region: 100,
  postalCode: 20,
  floor: 20,
  energyRatingDetails: 500,
  caption: 300,
  url: 2_000,
  additionalFeaturesJson: 10_000,
} as const;

/** What the numeric columns hold (a larger number would overflow them: 400, never 500). */
const MAX = {
  price: 1e13,
  money: 1e11,
  area: 1e9,
  measure: 1e9,
  bathrooms: 100,
  rooms: 1_000,
} as const;

const oneOf = (name: string, values: readonly string[]) => ({
  message: `${name} must be one of ${values.join(', ')}`,
});

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const ZONED_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** A finite JSON number with at most `places` decimals, between `min` and `max`. */
const Decimal = (places: number, min: number, max: number) =>
  applyDecorators(IsDecimalNumber(places), Min(min), Max(max));

/** A number strictly above zero (areas). */
const Positive = (name: string) =>
  ValidateBy({
    name: 'positive',
    validator: {
      validate: (value: unknown) => typeof value === 'number' && value > 0,
      defaultMessage: () => `${name} must be greater than 0`,
    },
  });

const DateOnly = (name: string) =>
  applyDecorators(
    IsString(),
    Matches(DATE_ONLY, { message: `${name} must be a date YYYY-MM-DD` }),
    IsISO8601({ strict: true }, { message: `${name} must be a valid date YYYY-MM-DD` }),
  );

const HttpsUrl = (name: string) =>
  applyDecorators(
    IsString(),
    MaxLength(LISTING_TEXT_LIMITS.url),
    IsUrl({ protocols: ['https'], require_protocol: true }, { message: `${name} must be an https URL` }),
  );

/** A JSON object whose text stays under the limit. */
const SmallObject = (name: string) =>
  applyDecorators(
    IsObject({ message: `${name} must be an object` }),
    ValidateBy({
      name: 'smallObject',
      validator: {
        validate: (value: unknown) =>
          JSON.stringify(value).length <= LISTING_TEXT_LIMITS.additionalFeaturesJson,
        defaultMessage: () =>
          `${name} must be at most ${LISTING_TEXT_LIMITS.additionalFeaturesJson.toLocaleString('en')} characters as JSON`,
      },
    }),
  );

const NullableText = (max: number, description?: string) =>
  applyDecorators(
    ApiNullable(String, { maxLength: max, description }),
    IsOptional(),
    IsString(),
    MaxLength(max),
  );

export class ListingImageDto {
  @ApiProperty({
    format: 'uuid',
    description: 'An uploaded photo of the agency (`POST /properties/media/upload`).',
  })
  @IsUUID('all', { message: 'mediaId must be a UUID' })
  mediaId: string;

  @ApiNullable(String, { maxLength: LISTING_TEXT_LIMITS.caption })
  @IsOptional()
  @IsString()
  @MaxLength(LISTING_TEXT_LIMITS.caption)
  caption?: string | null;
}

/**
 * The payload fields every write may send, none required (create adds the required ones). Nullable
 * fields take `null` to clear; the others refuse it.
 */
export class ListingFieldsDto implements Partial<ListingPayload> {
  @ApiPropertyOptional({
    enum: SETTABLE_LISTING_STATUSES,
    default: 'ACTIVE',
    description: '`EXPIRED` is set only by the service at `expiresAt`.',
  })
  @IsOmittable()
  @IsIn(SETTABLE_LISTING_STATUSES, oneOf('status', SETTABLE_LISTING_STATUSES))
  status?: Exclude<ListingStatus, 'EXPIRED'>;

  @ApiNullable(String, {
    maxLength: LISTING_LIMITS.reference,
    description: 'Unique per agency among live listings (else 409 CONFLICT).',
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(LISTING_LIMITS.reference)
  reference?: string | null;

  @NullableText(LISTING_TEXT_LIMITS.description, 'Plain text with line breaks.')
  description?: string | null;

  @ApiPropertyOptional({ enum: RENT_PERIODS, nullable: true })
  @IsOptional()
  @IsIn(RENT_PERIODS, oneOf('rentPeriod', RENT_PERIODS))
  rentPeriod?: RentPeriod | null;

  @NullableText(LISTING_TEXT_LIMITS.region) region?: string | null;
  @NullableText(LISTING_TEXT_LIMITS.community, 'Neighbourhood, urbanisation or community.') community?:
    string | null;
  @NullableText(LISTING_TEXT_LIMITS.postalCode) postalCode?: string | null;
  @NullableText(
    LISTING_TEXT_LIMITS.addressLine,
    'Street address; shared with the network for ACTIVE listings.',
  )
  addressLine1?: string | null;
  @NullableText(LISTING_TEXT_LIMITS.addressLine, 'Building, floor, door.') addressLine2?: string | null;

  @ApiPropertyOptional({
    type: 'object',
    nullable: true,
    properties: COORDINATES_SCHEMA,
    required: ['lat', 'lon'],
    description: 'Spec Coordinate; null clears.',
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => CoordinateDto)
  coordinates?: CoordinateDto | null;

  @ApiPropertyOptional({
    default: false,
    description: 'Other agencies see exact coordinates only with this.',
  })
  @IsOmittable()
  @IsBoolean()
  showExactLocation?: boolean;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: MAX.rooms, nullable: true })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX.rooms)
  bedrooms?: number | null;

  @ApiPropertyOptional({
    type: Number,
    minimum: 0,
    maximum: MAX.bathrooms,
    nullable: true,
    description: 'One decimal at most (2.5).',
  })
  @IsOptional()
  @Decimal(1, 0, MAX.bathrooms)
  bathrooms?: number | null;

  @ApiPropertyOptional({
    enum: AREA_UNITS,
    default: 'sqm',
    description: 'Unit of `livingArea` and `plotArea`.',
  })
  @IsOmittable()
  @IsIn(AREA_UNITS, oneOf('areaUnit', AREA_UNITS))
  areaUnit?: AreaUnit;

  @ApiPropertyOptional({
    type: Number,
    minimum: 0,
    maximum: MAX.area,
    nullable: true,
    description: 'In `areaUnit`, above 0.',
  })
  @IsOptional()
  @Decimal(2, 0, MAX.area)
  @Positive('livingArea')
  livingArea?: number | null;

  @ApiPropertyOptional({
    type: Number,
    minimum: 0,
    maximum: MAX.area,
    nullable: true,
    description: 'In `areaUnit`, above 0.',
  })
  @IsOptional()
  @Decimal(2, 0, MAX.area)
  @Positive('plotArea')
  plotArea?: number | null;

  @NullableText(LISTING_TEXT_LIMITS.floor, 'As written: `3`, `ground`, `penthouse`.') floor?: string | null;

  @ApiPropertyOptional({ type: 'integer', minimum: 1000, maximum: 2100, nullable: true })
  @IsOptional()
  @IsInt()
  @Min(1000)
  @Max(2100)
  yearBuilt?: number | null;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: MAX.rooms, nullable: true })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX.rooms)
  parkingSpaces?: number | null;

  @ApiPropertyOptional({ enum: FURNISHED_STATES, nullable: true })
  @IsOptional()
  @IsIn(FURNISHED_STATES, oneOf('furnished', FURNISHED_STATES))
  furnished?: Furnished | null;

  @ApiPropertyOptional({ enum: LISTING_CONDITIONS, nullable: true })
  @IsOptional()
  @IsIn(LISTING_CONDITIONS, oneOf('condition', LISTING_CONDITIONS))
  condition?: ListingCondition | null;

  @ApiPropertyOptional({ enum: ENERGY_RATINGS, nullable: true })
  @IsOptional()
  @IsIn(ENERGY_RATINGS, oneOf('energyRating', ENERGY_RATINGS))
  energyRating?: EnergyRating | null;

  @NullableText(LISTING_TEXT_LIMITS.energyRatingDetails, 'Free text.') energyRatingDetails?: string | null;

  @ApiPropertyOptional({ type: Number, minimum: 0, nullable: true, description: 'kWh per m² per year.' })
  @IsOptional()
  @Decimal(2, 0, MAX.measure)
  energyConsumptionKwh?: number | null;

  @ApiPropertyOptional({ type: Number, minimum: 0, nullable: true, description: 'kg per m² per year.' })
  @IsOptional()
  @Decimal(2, 0, MAX.measure)
  co2Emissions?: number | null;

  @ApiPropertyOptional({
    enum: FEATURE_SLUGS,
    isArray: true,
    description:
      'Amenity slugs (`GET /properties/features`); wins over the `has*` flags. Omit to keep; never null.',
  })
  @IsOmittable()
  @IsArray()
  @ArrayMaxSize(FEATURE_SLUGS.length * 2)
  @IsIn(FEATURE_SLUGS, { each: true, message: 'each of features must be a slug of GET /properties/features' })
  features?: string[];

  @ApiPropertyOptional({
    type: Boolean,
    description: 'Legacy: adds (true) or removes (false) `pool`; ignored when `features` is sent.',
  })
  @IsOmittable()
  @IsBoolean()
  hasPool?: boolean;

  @ApiPropertyOptional({ type: Boolean, description: 'Legacy flag for `garden`.' })
  @IsOmittable()
  @IsBoolean()
  hasGarden?: boolean;

  @ApiPropertyOptional({ type: Boolean, description: 'Legacy flag for `terrace`.' })
  @IsOmittable()
  @IsBoolean()
  hasTerrace?: boolean;

  @ApiPropertyOptional({ type: Boolean, description: 'Legacy flag for `elevator`.' })
  @IsOmittable()
  @IsBoolean()
  hasElevator?: boolean;

  @ApiPropertyOptional({ type: Boolean, description: 'Legacy flag for `parking`.' })
  @IsOmittable()
  @IsBoolean()
  hasParking?: boolean;

  @ApiPropertyOptional({ type: Boolean, description: 'Legacy flag for `air_conditioning`.' })
  @IsOmittable()
  @IsBoolean()
  hasAirConditioning?: boolean;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'Free-form key/value pairs (up to 10,000 characters as JSON).',
  })
  @IsOptional()
  @SmallObject('additionalFeatures')
  additionalFeatures?: Record<string, unknown> | null;

  @ApiPropertyOptional({
    type: Number,
    minimum: 0,
    maximum: 100,
    nullable: true,
    description: 'Private commission percent; never shown to other agencies.',
  })
  @IsOptional()
  @Decimal(2, 0, 100)
  commission?: number | null;

  @ApiPropertyOptional({
    type: Number,
    minimum: 0,
    maximum: 100,
    nullable: true,
    description: 'Percent offered to the network.',
  })
  @IsOptional()
  @Decimal(2, 0, 100)
  sharedCommission?: number | null;

  @ApiPropertyOptional({ type: Number, minimum: 0, nullable: true, description: 'In `currency`.' })
  @IsOptional()
  @Decimal(2, 0, MAX.money)
  communityFeesPerYear?: number | null;

  @ApiPropertyOptional({
    type: Number,
    minimum: 0,
    nullable: true,
    description: 'Refuse collection tax per year.',
  })
  @IsOptional()
  @Decimal(2, 0, MAX.money)
  basuraPerYear?: number | null;

  @ApiNullable(String, { format: 'date', example: '2027-01-15' })
  @IsOptional()
  @DateOnly('availableFrom')
  availableFrom?: string | null;

  @ApiNullable(String, { format: 'date', example: '2027-06-30', description: 'New build completion.' })
  @IsOptional()
  @DateOnly('completionDate')
  completionDate?: string | null;

  @ApiPropertyOptional({
    type: [ListingImageDto],
    maxItems: LISTING_LIMITS.images,
    description: 'Photos in display order, each an uploaded media id of the agency; replaces the list.',
  })
  @IsOmittable()
  @IsArray()
  @ArrayMaxSize(LISTING_LIMITS.images)
  @ValidateNested({ each: true })
  @Type(() => ListingImageDto)
  images?: ListingImageDto[];

  @ApiNullable(String, { format: 'uri', maxLength: LISTING_TEXT_LIMITS.url, description: 'https only.' })
  @IsOptional()
  @HttpsUrl('videoUrl')
  videoUrl?: string | null;

  @ApiNullable(String, { format: 'uri', maxLength: LISTING_TEXT_LIMITS.url, description: 'https only.' })
  @IsOptional()
  @HttpsUrl('virtualTourUrl')
  virtualTourUrl?: string | null;

  @ApiPropertyOptional({ default: true, description: 'Other agencies may read it while ACTIVE.' })
  @IsOmittable()
  @IsBoolean()
  networkVisible?: boolean;

  @ApiPropertyOptional({
    default: false,
    description: 'At `expiresAt` the listing gets 90 more days instead of expiring.',
  })
  @IsOmittable()
  @IsBoolean()
  autoRenewEnabled?: boolean;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'When the listing expires (ISO 8601 with `Z` or an offset); default now + 90 days.',
  })
  @IsOmittable()
  @IsString()
  @Matches(ZONED_DATE_TIME, { message: 'expiresAt must be an ISO 8601 time with Z or an offset' })
  @IsISO8601({ strict: true }, { message: 'expiresAt must be a valid ISO 8601 time' })
  expiresAt?: string;
}

const TITLE_DOC = { minLength: 1, maxLength: LISTING_LIMITS.title };
const CURRENCY_DOC = { pattern: '^[A-Z]{3}$', example: 'EUR', description: 'ISO 4217, upper case.' };
const COUNTRY_DOC = { pattern: '^[A-Z]{2}$', example: 'ES', description: 'ISO 3166-1 alpha-2, upper case.' };
const PRICE_DOC = {
  type: Number,
  minimum: 0,
  maximum: MAX.price,
  description: 'In `currency`; answered as a decimal string.',
};
const AGENT_DOC = {
  format: 'uuid',
  description: 'An active agent of the agency (`GET /properties/agents`).',
};

const Title = () => applyDecorators(IsString(), MinLength(1), MaxLength(LISTING_LIMITS.title));
const Currency = () =>
  applyDecorators(
    IsString(),
    Matches(/^[A-Z]{3}$/, { message: 'currency must be 3 upper-case letters (ISO 4217)' }),
  );
const Country = () =>
  applyDecorators(
    IsString(),
    Matches(/^[A-Z]{2}$/, { message: 'countryCode must be 2 upper-case letters (ISO 3166-1 alpha-2)' }),
  );
const City = () => applyDecorators(IsString(), MinLength(1), MaxLength(LISTING_LIMITS.city));
const Price = () => Decimal(2, 0, MAX.price);
const AgentId = () => IsUUID('all', { message: 'agentId must be a UUID' });

/** `POST /properties`: the required fields plus any of the others. */
export class CreateListingDto extends ListingFieldsDto implements ListingPayload {
  @ApiProperty(TITLE_DOC) @Title() title: string;

  @ApiProperty({ enum: LISTING_OPERATIONS })
  @IsIn(LISTING_OPERATIONS, oneOf('operation', LISTING_OPERATIONS))
  operation: ListingOperation;

  @ApiProperty({ enum: PROPERTY_TYPES })
  @IsIn(PROPERTY_TYPES, oneOf('propertyType', PROPERTY_TYPES))
  propertyType: PropertyType;

  @ApiProperty(PRICE_DOC) @Price() price: number;
  @ApiProperty(CURRENCY_DOC) @Currency() currency: string;
  @ApiProperty(COUNTRY_DOC) @Country() countryCode: string;
  @ApiProperty({ minLength: 1, maxLength: LISTING_LIMITS.city }) @City() city: string;
  @ApiProperty(AGENT_DOC) @AgentId() agentId: string;
}

/** `PATCH /properties/{id}`: any subset; `null` clears a nullable field, never a required one. */
export class ChangeListingDto extends ListingFieldsDto {
  @ApiPropertyOptional(TITLE_DOC) @IsOmittable() @Title() title?: string;

  @ApiPropertyOptional({ enum: LISTING_OPERATIONS })
  @IsOmittable()
  @IsIn(LISTING_OPERATIONS, oneOf('operation', LISTING_OPERATIONS))
  operation?: ListingOperation;

  @ApiPropertyOptional({ enum: PROPERTY_TYPES })
  @IsOmittable()
  @IsIn(PROPERTY_TYPES, oneOf('propertyType', PROPERTY_TYPES))
  propertyType?: PropertyType;

  @ApiPropertyOptional(PRICE_DOC) @IsOmittable() @Price() price?: number;
  @ApiPropertyOptional(CURRENCY_DOC) @IsOmittable() @Currency() currency?: string;
  @ApiPropertyOptional(COUNTRY_DOC) @IsOmittable() @Country() countryCode?: string;
  @ApiPropertyOptional({ minLength: 1, maxLength: LISTING_LIMITS.city }) @IsOmittable() @City() city?: string;
  @ApiPropertyOptional(AGENT_DOC) @IsOmittable() @AgentId() agentId?: string;
}

/** `POST /properties/{id}/renew`: no fields (none or `{}`). */
export class RenewListingDto {}
