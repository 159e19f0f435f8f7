import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { LISTING_OPERATIONS, PROPERTY_TYPES, type ListingOperation, type PropertyType } from '@app/listings';
import { IsDecimalNumber, IsIntegerId, IsOmittable } from '@app/platform';
import { BUYER_REQUEST_LIMITS } from '../../domain/buyer-request';

const MAX_PRICE = 999_999_999_999;

/** `POST /network/buyer-requests`. */
export class CreateBuyerRequestDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: Number.MAX_SAFE_INTEGER,
    description: 'A lead the caller reaches (never shown to anyone).',
  })
  @IsOmittable()
  @IsIntegerId()
  leadId?: number;

  @ApiProperty({ enum: LISTING_OPERATIONS })
  @IsIn(LISTING_OPERATIONS)
  operation: ListingOperation;

  @ApiProperty({ enum: PROPERTY_TYPES, isArray: true, minItems: 1 })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(PROPERTY_TYPES.length)
  @IsIn(PROPERTY_TYPES, { each: true })
  propertyTypes: PropertyType[];

  @ApiProperty({ pattern: '^[A-Z]{2}$', example: 'ES', description: 'ISO 3166-1 alpha-2, upper case.' })
  @IsString()
  @Matches(/^[A-Z]{2}$/, { message: 'countryCode must be 2 upper-case letters (ISO 3166-1 alpha-2)' })
  countryCode: string;

  @ApiProperty({
    type: [String],
    minItems: 1,
    maxItems: BUYER_REQUEST_LIMITS.areas,
    example: ['Marbella', 'Estepona'],
    description:
      'Cities or communities; a listing fits when its city or community equals one (case and accents ignored).',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(BUYER_REQUEST_LIMITS.areas)
  @IsString({ each: true })
  @Length(1, BUYER_REQUEST_LIMITS.area, { each: true })
  areas: string[];

  @ApiProperty({ type: Number, minimum: 0, maximum: MAX_PRICE, description: 'In `currency`.' })
  @IsDecimalNumber(2)
  @Min(0)
  @Max(MAX_PRICE)
  priceMax: number;

  @ApiProperty({ pattern: '^[A-Z]{3}$', example: 'EUR', description: 'ISO 4217, upper case.' })
  @IsString()
  @Matches(/^[A-Z]{3}$/, { message: 'currency must be 3 upper-case letters (ISO 4217)' })
  currency: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: BUYER_REQUEST_LIMITS.bedroomsMax })
  @IsOmittable()
  @IsInt()
  @Min(0)
  @Max(BUYER_REQUEST_LIMITS.bedroomsMax)
  bedroomsMin?: number;

  @ApiPropertyOptional({
    maxLength: BUYER_REQUEST_LIMITS.notes,
    description: 'For the agency only: never shown, not even to the caller.',
  })
  @IsOmittable()
  @IsString()
  @MaxLength(BUYER_REQUEST_LIMITS.notes)
  notes?: string;
}

/** `GET /v1/buyer-requests`. */
export class ListBuyerRequestsQueryDto {
  @ApiPropertyOptional({
    format: 'uuid',
    description:
      'An ACTIVE listing the caller can read (one of the agency’s own, or another agency’s network listing): ' +
      'the open requests of agencies other than the caller’s that fit it. Left out: the caller’s own ' +
      'requests, every status.',
  })
  @IsOptional()
  @IsUUID('all', { message: 'listingId must be a UUID' })
  listingId?: string;
}
