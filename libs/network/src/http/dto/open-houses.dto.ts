import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
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
import { IntegerQuery, IsOmittable, validationFailed } from '@app/platform';
import type { OpenHouseInput } from '../../application/open-houses.service';
import {
  OPEN_HOUSE_SCOPES,
  type OpenHouseListQuery,
  type OpenHouseScope,
} from '../../application/open-houses.sql';
import {
  CAPACITY_MAX,
  COMMISSION_NOTES_MAX,
  CONTACT_NAME_MAX,
  CONTACT_PHONE_MAX,
  INVITATION_MESSAGE_MAX,
  OPEN_HOUSE_VISIBILITIES,
  type OpenHouseVisibility,
  RSVP_STATUSES,
  type RsvpStatus,
} from '../../domain/open-house.entity';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;
const TIMESTAMP_MESSAGE = (field: string) => ({
  message: `${field} must be an ISO 8601 date-time with Z or an offset`,
});
const INSTANT_DOC = { format: 'date-time', description: 'ISO 8601 with `Z` or an offset.' };
/** Allows `null` (clears the field on PATCH). */
const Nullable = () => ValidateIf((_, value) => value !== null && value !== undefined);

export class InvitationDto {
  @ApiProperty({ maxLength: INVITATION_MESSAGE_MAX, description: 'The invitation text.' })
  @IsString()
  @MaxLength(INVITATION_MESSAGE_MAX)
  message: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: CAPACITY_MAX,
    nullable: true,
    description: 'How many may answer `going`; no limit when absent.',
  })
  @Nullable()
  @IsInt()
  @Min(1)
  @Max(CAPACITY_MAX)
  capacity?: number | null;

  @ApiPropertyOptional({ ...INSTANT_DOC, type: String, nullable: true, description: 'RSVPs close then.' })
  @Nullable()
  @IsString()
  @Matches(TIMESTAMP, TIMESTAMP_MESSAGE('rsvpDeadline'))
  rsvpDeadline?: string | null;
}

const NOTES_DOC = {
  type: String,
  nullable: true,
  maxLength: COMMISSION_NOTES_MAX,
  description: 'Shown to agencies that see it.',
};

/** `POST /network/open-houses`. */
export class CreateOpenHouseDto implements OpenHouseInput {
  @ApiProperty({ format: 'uuid', description: 'An ACTIVE listing of your agency (else 400).' })
  @IsUUID('all')
  propertyListingId: string;

  @ApiProperty(INSTANT_DOC) @IsString() @Matches(TIMESTAMP, TIMESTAMP_MESSAGE('startsAt')) startsAt: string;
  @ApiProperty({ ...INSTANT_DOC, description: 'After `startsAt`, at most 12 h later.' })
  @IsString()
  @Matches(TIMESTAMP, TIMESTAMP_MESSAGE('endsAt'))
  endsAt: string;

  @ApiProperty({ example: 'Europe/Madrid', maxLength: 64, description: 'A known IANA zone.' })
  @IsString()
  @Length(1, 64)
  timezone: string;

  @ApiPropertyOptional({ enum: OPEN_HOUSE_VISIBILITIES, default: 'network' })
  @IsOmittable()
  @IsIn(OPEN_HOUSE_VISIBILITIES)
  visibility?: OpenHouseVisibility;

  @ApiPropertyOptional({ format: 'uuid', description: 'A member of your agency; default you.' })
  @IsOmittable()
  @IsUUID('all')
  hostUserId?: string;

  @ApiPropertyOptional(NOTES_DOC)
  @Nullable()
  @IsString()
  @MaxLength(COMMISSION_NOTES_MAX)
  commissionNotes?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: CONTACT_NAME_MAX })
  @Nullable()
  @IsString()
  @MaxLength(CONTACT_NAME_MAX)
  contactName?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: CONTACT_PHONE_MAX })
  @Nullable()
  @IsString()
  @MaxLength(CONTACT_PHONE_MAX)
  contactPhone?: string | null;

  @ApiPropertyOptional({ type: InvitationDto })
  @IsOmittable()
  @IsObject()
  @ValidateNested()
  @Type(() => InvitationDto)
  invitation?: InvitationDto;
}

/** `PATCH /network/open-houses/{id}`: any create field. */
export class ChangeOpenHouseDto implements OpenHouseInput {
  @ApiPropertyOptional({ format: 'uuid', description: 'An ACTIVE listing of your agency (else 400).' })
  @IsOmittable()
  @IsUUID('all')
  propertyListingId?: string;

  @ApiPropertyOptional(INSTANT_DOC)
  @IsOmittable()
  @IsString()
  @Matches(TIMESTAMP, TIMESTAMP_MESSAGE('startsAt'))
  startsAt?: string;

  @ApiPropertyOptional({ ...INSTANT_DOC, description: 'After `startsAt`, at most 12 h later.' })
  @IsOmittable()
  @IsString()
  @Matches(TIMESTAMP, TIMESTAMP_MESSAGE('endsAt'))
  endsAt?: string;

  @ApiPropertyOptional({ example: 'Europe/Madrid', maxLength: 64 })
  @IsOmittable()
  @IsString()
  @Length(1, 64)
  timezone?: string;

  @ApiPropertyOptional({ enum: OPEN_HOUSE_VISIBILITIES })
  @IsOmittable()
  @IsIn(OPEN_HOUSE_VISIBILITIES)
  visibility?: OpenHouseVisibility;

  @ApiPropertyOptional({ format: 'uuid' }) @IsOmittable() @IsUUID('all') hostUserId?: string;

  @ApiPropertyOptional(NOTES_DOC)
  @Nullable()
  @IsString()
  @MaxLength(COMMISSION_NOTES_MAX)
  commissionNotes?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: CONTACT_NAME_MAX })
  @Nullable()
  @IsString()
  @MaxLength(CONTACT_NAME_MAX)
  contactName?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: CONTACT_PHONE_MAX })
  @Nullable()
  @IsString()
  @MaxLength(CONTACT_PHONE_MAX)
  contactPhone?: string | null;

  @ApiPropertyOptional({ type: InvitationDto, description: 'Replaces the whole invitation.' })
  @IsOmittable()
  @IsObject()
  @ValidateNested()
  @Type(() => InvitationDto)
  invitation?: InvitationDto;
}

/** `PUT /network/open-houses/{id}/rsvp`. */
export class RsvpDto {
  @ApiProperty({ enum: RSVP_STATUSES }) @IsIn(RSVP_STATUSES) status: RsvpStatus;
}

/** `GET /v1/open-houses`. */
export class ListOpenHousesQueryDto {
  @ApiPropertyOptional({
    enum: OPEN_HOUSE_SCOPES,
    default: 'network',
    description: '`network`: other agencies’ upcoming network events; `mine`: your agency’s, any status.',
  })
  @IsOptional()
  @IsIn(OPEN_HOUSE_SCOPES)
  scope?: OpenHouseScope;

  @ApiPropertyOptional({ ...INSTANT_DOC, description: 'Events ending after it (network: default now).' })
  @IsOptional()
  @IsString()
  @Matches(TIMESTAMP, TIMESTAMP_MESSAGE('from'))
  from?: string;

  @ApiPropertyOptional({ ...INSTANT_DOC, description: 'Events starting before it.' })
  @IsOptional()
  @IsString()
  @Matches(TIMESTAMP, TIMESTAMP_MESSAGE('to'))
  to?: string;

  @ApiPropertyOptional({
    maxLength: 100,
    description: 'A prefix of the listing’s city or community (case- and accent-insensitive).',
  })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  area?: string;

  @ApiPropertyOptional({ maxLength: 50, example: 'internal', description: 'The listing’s source.' })
  @IsOptional()
  @IsString()
  @Length(1, 50)
  source?: string;

  @ApiPropertyOptional({
    maxLength: 50,
    description: 'With `listingId` only (else 400).',
    example: 'internal',
  })
  @IsOptional()
  @IsString()
  @Length(1, 50)
  listingSource?: string;

  @ApiPropertyOptional({ maxLength: 255, description: 'With `listingSource` only (else 400).' })
  @IsOptional()
  @IsString()
  @Length(1, 255)
  listingId?: string;

  @ApiPropertyOptional({ example: 'ES', description: 'ISO 3166-1 alpha-2 code of the listing’s country.' })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z]{2}$/, { message: 'listingCountry must be a two-letter country code' })
  listingCountry?: string;

  @IntegerQuery({ min: 1, max: 25, default: 10 })
  limit: number = 10;

  listQuery(): OpenHouseListQuery {
    if ((this.listingSource === undefined) !== (this.listingId === undefined)) {
      const path = this.listingSource === undefined ? 'listingSource' : 'listingId';
      throw validationFailed([{ path, message: 'listingSource and listingId go together' }]);
    }
    const instant = (value: string | undefined, path: string): Date | null => {
      if (value === undefined) return null;
      const date = new Date(value);
      if (Number.isNaN(date.getTime()))
        throw validationFailed([{ path, message: `${path} is not a valid date-time` }]);
      return date;
    };
    return {
      scope: this.scope ?? 'network',
      from: instant(this.from, 'from'),
      to: instant(this.to, 'to'),
      area: this.area ?? null,
      source: this.source ?? null,
      listingSource: this.listingSource ?? null,
      listingId: this.listingId ?? null,
      listingCountry: this.listingCountry ?? null,
      limit: this.limit,
    };
  }
}
