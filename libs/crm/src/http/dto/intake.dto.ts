import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsISO31661Alpha2,
  IsISO8601,
  IsString,
  IsUUID,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { IsOmittable } from '@app/platform';
import { ORIGIN_PATTERN } from '../../domain/contact-keys';
import { LEAD_TYPES } from '../../domain/lead.entity';
import type { LeadIntake } from '../../application/lead-intake.service';
import type { LeadLink } from '../../application/lead-links';

const BCP47 = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;
const PHONE = /\d/;

export class ListingRefDto {
  @ApiProperty({
    maxLength: 100,
    example: 'idealista',
    description: 'The listing source, as property search names it.',
  })
  @IsString()
  @Length(1, 100)
  source: string;

  @ApiProperty({ maxLength: 255, example: '109876543' })
  @IsString()
  @Length(1, 255)
  id: string;

  @ApiPropertyOptional({ example: 'es', description: 'For sources that need one (`es`, `it`, `pt`).' })
  @IsOmittable()
  @Matches(/^[a-z]{2}$/, { message: 'country must be two lower-case letters' })
  country?: string;
}

export class ConsentDto {
  @ApiProperty({ description: 'The person agreed to be contacted about this inquiry.' })
  @IsBoolean()
  contact: boolean;

  @ApiProperty({ description: 'The person agreed to marketing.' })
  @IsBoolean()
  marketing: boolean;

  @ApiProperty({ format: 'date-time' })
  @IsISO8601({ strict: true })
  capturedAt: string;

  @ApiPropertyOptional({ maxLength: 2000, description: 'The wording the person agreed to.' })
  @IsOmittable()
  @IsString()
  @MaxLength(2000)
  wording?: string;
}

const needsEmailOrPhone = (o: LeadIntakeDto) => o.email !== undefined || o.phoneNumber === undefined;

/** `PUT /integrations/v1/leads/{externalId}` (INTERFACES.md "Lead intake"); email or phone required. */
export class LeadIntakeDto implements LeadIntake {
  @ApiPropertyOptional({ maxLength: 100 }) @IsOmittable() @IsString() @MaxLength(100) firstName?: string;
  @ApiPropertyOptional({ maxLength: 100 }) @IsOmittable() @IsString() @MaxLength(100) lastName?: string;

  @ApiPropertyOptional({ maxLength: 320, description: 'Email or phoneNumber is required.' })
  @ValidateIf(needsEmailOrPhone)
  @IsString({ message: 'email or phoneNumber is required' })
  @MaxLength(320)
  @IsEmail({}, { message: 'email must be an email address' })
  email?: string;

  @ApiPropertyOptional({
    maxLength: 50,
    example: '+34 612 345 678',
    description: 'Email or phoneNumber is required.',
  })
  @IsOmittable()
  @IsString()
  @MaxLength(50)
  @Matches(PHONE, { message: 'phoneNumber must contain digits' })
  phoneNumber?: string;

  @ApiPropertyOptional({ example: 'en-GB', description: 'BCP 47' })
  @IsOmittable()
  @Matches(BCP47, { message: 'language must be a BCP 47 tag like en-GB' })
  language?: string;

  @ApiPropertyOptional({ enum: LEAD_TYPES })
  @IsOmittable()
  @IsIn(LEAD_TYPES)
  leadType?: string;

  @ApiProperty({ maxLength: 100, example: 'idealista', description: 'The lead’s `source`.' })
  @IsString()
  @Length(1, 100)
  source: string;

  @ApiPropertyOptional({
    pattern: ORIGIN_PATTERN.source,
    example: 'portal:idealista',
    description:
      'How the lead reached the agency; default `other:<connector>`. Portals send `portal:<portal>`.',
  })
  @IsOmittable()
  @Matches(ORIGIN_PATTERN, { message: `origin must match ${ORIGIN_PATTERN.source}` })
  origin?: string;

  @ApiPropertyOptional({ example: 'ES', description: 'ISO 3166-1 alpha-2' })
  @IsOmittable()
  @IsISO31661Alpha2()
  country?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOmittable()
  @IsUUID('all')
  growthAreaId?: string;

  @ApiPropertyOptional({ maxLength: 5000, description: 'What the person wrote; shown as untrusted content.' })
  @IsOmittable()
  @IsString()
  @MaxLength(5000)
  message?: string;

  @ApiPropertyOptional({ type: ListingRefDto, description: 'The listing the person asked about.' })
  @IsOmittable()
  @ValidateNested()
  @Type(() => ListingRefDto)
  listing?: ListingRefDto;

  @ApiPropertyOptional({ type: ConsentDto })
  @IsOmittable()
  @ValidateNested()
  @Type(() => ConsentDto)
  consent?: ConsentDto;
}

export class LeadContactDto {
  @ApiPropertyOptional({ maxLength: 320 }) @IsOmittable() @IsString() @MaxLength(320) email?: string;
  @ApiPropertyOptional({ maxLength: 50 }) @IsOmittable() @IsString() @MaxLength(50) phoneNumber?: string;

  @ApiPropertyOptional({ maxLength: 255, description: 'A chat handle; matches no lead yet.' })
  @IsOmittable()
  @IsString()
  @MaxLength(255)
  handle?: string;
}

const needsLeadIdOrContact = (o: LeadLinkDto) => o.leadId !== undefined || o.contact === undefined;

/**
 * The lead link of every connector record: `leadId`, or `contact` matched in the organization
 * (422 UNPROCESSABLE when nothing matches, unless `createLead`). Record DTOs extend it.
 */
export class LeadLinkDto implements LeadLink {
  @ApiPropertyOptional({
    type: 'integer',
    description: 'The lead; 404 outside the organization. Or send `contact`.',
  })
  @ValidateIf(needsLeadIdOrContact)
  @IsInt({ message: 'send leadId or contact' })
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  leadId?: number;

  @ApiPropertyOptional({
    type: LeadContactDto,
    description: 'Matched by email (ignoring case), then phone (E.164).',
  })
  @IsOmittable()
  @ValidateNested()
  @Type(() => LeadContactDto)
  contact?: LeadContactDto;

  @ApiPropertyOptional({
    description: 'With `contact`: create the lead (a lead intake) when nothing matches.',
  })
  @IsOmittable()
  @IsBoolean()
  createLead?: boolean;
}
