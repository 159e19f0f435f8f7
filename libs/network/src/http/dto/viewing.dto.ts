import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsISO8601,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { LeadLinkDto } from '@app/crm';
import { IsOmittable } from '@app/platform';
import type { ViewingInput } from '../../application/viewings-ingest.service';
import {
  OTHER_LEADS_MAX,
  VIEWING_KINDS,
  VIEWING_NOTES_MAX,
  VIEWING_STATUSES,
  type ViewingKind,
  type ViewingStatus,
} from '../../domain/viewing';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:?\d{2})?)$/i;

/** `PUT /integrations/v1/viewings/{externalId}`. */
export class ViewingUpsertDto extends LeadLinkDto implements ViewingInput {
  @ApiPropertyOptional({ format: 'uuid', description: 'The listing shown.' })
  @IsOmittable()
  @IsUUID('all')
  propertyListingId?: string;

  @ApiPropertyOptional({
    type: [Number],
    maxItems: OTHER_LEADS_MAX,
    description: 'Other clients at the same viewing: leads of the organization (else 404 `Lead not found.`).',
  })
  @IsOmittable()
  @IsArray()
  @ArrayMaxSize(OTHER_LEADS_MAX)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(Number.MAX_SAFE_INTEGER, { each: true })
  otherLeadIds?: number[];

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'The agent (or `agentEmail`); not a member: no agent.',
  })
  @IsOmittable()
  @IsUUID('all')
  agentUserId?: string;

  @ApiPropertyOptional({ maxLength: 320 }) @IsOmittable() @IsString() @MaxLength(320) agentEmail?: string;

  @ApiProperty({ format: 'date-time', description: 'ISO 8601 with `Z` or an offset.' })
  @IsString()
  @Matches(TIMESTAMP, { message: 'viewingAt must be an ISO 8601 date-time with Z or an offset' })
  @IsISO8601({ strict: true }, { message: 'viewingAt must be an ISO 8601 date-time with Z or an offset' })
  viewingAt: string;

  @ApiProperty({ enum: VIEWING_KINDS }) @IsIn(VIEWING_KINDS) kind: ViewingKind;
  @ApiProperty({ enum: VIEWING_STATUSES }) @IsIn(VIEWING_STATUSES) status: ViewingStatus;

  @ApiPropertyOptional({ maxLength: VIEWING_NOTES_MAX })
  @IsOmittable()
  @IsString()
  @MaxLength(VIEWING_NOTES_MAX)
  notes?: string;
}
