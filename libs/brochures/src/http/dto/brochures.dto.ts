import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { ApiNullable, IsOmittable, PageQueryDto } from '@app/platform';
import { BROCHURE_THEMES, type ListingRef } from '@app/listings';
import {
  BROCHURE_LIST_STATUSES,
  type BrochureListQuery,
  type BrochureListStatus,
} from '../../application/brochures.queries';
import { HIDDEN_FIELDS, type HiddenField } from '../../domain/brochure-listing.entity';
import { BROCHURE_LIMITS } from '../../domain/brochure.entity';

const THEME_NAMES = BROCHURE_THEMES.map((theme) => theme.name);
const COUNTRIES = ['es', 'it', 'pt'];
const HEX_COLOR = /^#[0-9A-Fa-f]{6}$/;
const themeMessage = { message: `themeName must be one of ${THEME_NAMES.join(', ')}` };
const colorMessage = { message: 'accentColorOverride must be a #RRGGBB color' };

export class ListBrochuresQueryDto extends PageQueryDto({ max: BROCHURE_LIMITS.listLimit, default: 20 }) {
  @ApiPropertyOptional({ enum: BROCHURE_LIST_STATUSES, default: 'all' })
  @IsOptional()
  @IsIn(BROCHURE_LIST_STATUSES, { message: `status must be one of ${BROCHURE_LIST_STATUSES.join(', ')}` })
  status?: BrochureListStatus;

  @ApiPropertyOptional({
    maxLength: 255,
    description: 'Case-insensitive starts-with on the title, the recipient’s name or the slug.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  q?: string;

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'Only brochures this person created. Admins only (a member: 403 ORG_ADMIN_REQUIRED).',
  })
  @IsOptional()
  @IsUUID('all', { message: 'createdById must be a UUID' })
  createdById?: string;

  listQuery(): BrochureListQuery {
    const q = this.q?.trim();
    return {
      page: this.page,
      limit: this.limit,
      status: this.status ?? 'all',
      q: q ? q : undefined,
      createdById: this.createdById,
    };
  }
}

/** A listing reference exactly as property search returns it. */
export class BrochureListingRefDto implements ListingRef {
  @ApiProperty({ example: 'internal', description: '`internal`, a feed source or a portal.' })
  @IsString()
  @MinLength(1)
  @MaxLength(50)
  source: string;

  @ApiProperty({ description: 'The listing id within its source.' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  id: string;

  @ApiPropertyOptional({ enum: COUNTRIES, description: 'Portal listings only (required for them).' })
  @IsOptional()
  @IsIn(COUNTRIES, { message: 'country must be one of es, it, pt' })
  country?: string;
}

export class CreateBrochureDto {
  @ApiProperty({
    type: [BrochureListingRefDto],
    minItems: 1,
    maxItems: BROCHURE_LIMITS.listings,
    description: 'Read once through their sources and stored as copies (never `commission`).',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(BROCHURE_LIMITS.listings)
  @ValidateNested({ each: true })
  @Type(() => BrochureListingRefDto)
  listings: BrochureListingRefDto[];

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: BROCHURE_LIMITS.title,
    description: 'Default: the first listing’s title.',
  })
  @IsOmittable()
  @IsString()
  @MinLength(1)
  @MaxLength(BROCHURE_LIMITS.title)
  title?: string;

  @ApiNullable(String, { maxLength: BROCHURE_LIMITS.recipientName })
  @IsOptional()
  @IsString()
  @MaxLength(BROCHURE_LIMITS.recipientName)
  recipientName?: string | null;

  @ApiNullable(String, { maxLength: BROCHURE_LIMITS.recipientNote })
  @IsOptional()
  @IsString()
  @MaxLength(BROCHURE_LIMITS.recipientNote)
  recipientNote?: string | null;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: BROCHURE_LIMITS.expiresInDaysMin,
    maximum: BROCHURE_LIMITS.expiresInDaysMax,
    default: BROCHURE_LIMITS.defaultExpiresInDays,
  })
  @IsOmittable()
  @IsInt()
  @Min(BROCHURE_LIMITS.expiresInDaysMin)
  @Max(BROCHURE_LIMITS.expiresInDaysMax)
  expiresInDays?: number;

  @ApiPropertyOptional({ default: true, description: 'Whether the public page shows locations.' })
  @IsOmittable()
  @IsBoolean()
  showLocations?: boolean;

  @ApiPropertyOptional({
    enum: THEME_NAMES,
    default: 'classic',
    description: 'One of `GET /properties/themes`.',
  })
  @IsOmittable()
  @IsIn(THEME_NAMES, themeMessage)
  themeName?: string;

  @ApiNullable(String, { example: '#0E7490', description: '`#RRGGBB`; null: the theme’s accent.' })
  @IsOptional()
  @IsString()
  @Matches(HEX_COLOR, colorMessage)
  accentColorOverride?: string | null;

  @ApiPropertyOptional({
    format: 'uuid',
    description:
      'The agent shown on the page; default the key’s person. Another person: admins only (403 FORBIDDEN).',
  })
  @IsOmittable()
  @IsUUID('all', { message: 'agentUserId must be a UUID' })
  agentUserId?: string;

  @ApiPropertyOptional({
    type: [Number],
    maxItems: 100,
    description:
      'Leads it is sent to (each must be reachable, else 404); each gets a `brochure` timeline entry.',
  })
  @IsOmittable()
  @IsArray()
  @ArrayMaxSize(100)
  @IsInt({ each: true })
  @Min(1, { each: true })
  leadIds?: number[];
}

export class ChangeBrochureDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: BROCHURE_LIMITS.title, description: 'The slug stays.' })
  @IsOmittable()
  @IsString()
  @MinLength(1)
  @MaxLength(BROCHURE_LIMITS.title)
  title?: string;

  @ApiNullable(String, { maxLength: BROCHURE_LIMITS.recipientName })
  @IsOptional()
  @IsString()
  @MaxLength(BROCHURE_LIMITS.recipientName)
  recipientName?: string | null;

  @ApiNullable(String, { maxLength: BROCHURE_LIMITS.recipientNote })
  @IsOptional()
  @IsString()
  @MaxLength(BROCHURE_LIMITS.recipientNote)
  recipientNote?: string | null;

  @ApiPropertyOptional({ enum: THEME_NAMES })
  @IsOmittable()
  @IsIn(THEME_NAMES, themeMessage)
  themeName?: string;

  @ApiNullable(String, { example: '#0E7490' })
  @IsOptional()
  @IsString()
  @Matches(HEX_COLOR, colorMessage)
  accentColorOverride?: string | null;

  @ApiPropertyOptional()
  @IsOmittable()
  @IsBoolean()
  showLocations?: boolean;
}

export class AddBrochureListingDto extends BrochureListingRefDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    description: 'Zero-based; default the end. Later listings shift down.',
  })
  @IsOmittable()
  @IsInt()
  @Min(0)
  position?: number;
}

export class EditBrochureListingDto {
  @ApiNullable(String, {
    maxLength: 200,
    description: 'The title the brochure shows instead of the listing’s; null drops the edit.',
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  title?: string | null;

  @ApiPropertyOptional({
    enum: HIDDEN_FIELDS,
    isArray: true,
    description: 'Fields the public page leaves out for this listing (replaces the set).',
  })
  @IsOmittable()
  @IsArray()
  @IsIn(HIDDEN_FIELDS, { each: true, message: `hiddenFields must be among ${HIDDEN_FIELDS.join(', ')}` })
  hiddenFields?: HiddenField[];
}

export class OrderBrochureListingsDto {
  @ApiProperty({
    type: [String],
    format: 'uuid',
    description: 'Every brochure-listing id of the brochure, each once, in the new order.',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(BROCHURE_LIMITS.listings)
  @IsUUID('all', { each: true, message: 'listingIds must be UUIDs' })
  listingIds: string[];
}

export class RenewBrochureDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: BROCHURE_LIMITS.expiresInDaysMin,
    maximum: BROCHURE_LIMITS.expiresInDaysMax,
    default: BROCHURE_LIMITS.defaultExpiresInDays,
  })
  @IsOmittable()
  @IsInt()
  @Min(BROCHURE_LIMITS.expiresInDaysMin)
  @Max(BROCHURE_LIMITS.expiresInDaysMax)
  expiresInDays?: number;

  @ApiPropertyOptional({
    default: false,
    description: 'Read every listing again (failures in `failedRefreshes`, their old copy kept).',
  })
  @IsOmittable()
  @IsBoolean()
  refreshListings?: boolean;
}

/** `{}`: the route takes an empty JSON object (or no body); unknown fields are ignored. */
export class EmptyBodyDto {}
