import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { ApiNullable, IntegerQuery, IsOmittable, OffsetQueryDto } from '@app/platform';
import type { ViewingListFilters } from '../../application/viewing-list.sql';
import type { ChangeViewing, CreateViewing, MoveViewing } from '../../application/viewings.service';
import {
  OTHER_LEADS_MAX,
  VIEWING_KINDS,
  VIEWING_NOTES_MAX,
  VIEWING_STATUSES,
  type ViewingKind,
  type ViewingStatus,
} from '../../domain/viewing';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:?\d{2})?)$/i;
const momentMessage = (field: string) => ({
  message: `${field} must be an ISO 8601 date-time with Z or an offset`,
});

/** An ISO 8601 date-time with `Z` or an offset. */
const Moment = (field: string) =>
  applyDecorators(
    IsString(momentMessage(field)),
    Matches(TIMESTAMP, momentMessage(field)),
    IsISO8601({ strict: true }, momentMessage(field)),
  );

const kindMessage = { message: `kind must be one of ${VIEWING_KINDS.join(', ')}` };
const statusMessage = { message: `status must be one of ${VIEWING_STATUSES.join(', ')}` };
const LEAD_ID = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;
const LeadIdValue = (each = false) =>
  applyDecorators(IsInt({ each }), Min(1, { each }), Max(Number.MAX_SAFE_INTEGER, { each }));

/** `GET /v1/viewings`. */
export class ListViewingsQueryDto extends OffsetQueryDto({ max: 100, default: 20 }) {
  @ApiPropertyOptional({ format: 'date-time', description: 'Inclusive: `viewingAt` at or after.' })
  @IsOptional()
  @Moment('from')
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Exclusive: `viewingAt` before.' })
  @IsOptional()
  @Moment('to')
  to?: string;

  @ApiPropertyOptional({ enum: VIEWING_STATUSES })
  @IsOptional()
  @IsIn(VIEWING_STATUSES, statusMessage)
  status?: ViewingStatus;

  @ApiPropertyOptional({ enum: VIEWING_KINDS })
  @IsOptional()
  @IsIn(VIEWING_KINDS, kindMessage)
  kind?: ViewingKind;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID('all')
  propertyListingId?: string;

  @IntegerQuery({ min: 1, max: Number.MAX_SAFE_INTEGER })
  leadId?: number;

  @IntegerQuery({ min: 1, max: Number.MAX_SAFE_INTEGER })
  collaboratorLeadId?: number;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID('all')
  dealId?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID('all')
  agentUserId?: string;

  /** The filters, ids lower-cased. */
  filters(): ViewingListFilters {
    return {
      from: this.from === undefined ? undefined : new Date(this.from),
      to: this.to === undefined ? undefined : new Date(this.to),
      status: this.status,
      kind: this.kind,
      propertyListingId: this.propertyListingId?.toLowerCase(),
      leadId: this.leadId,
      collaboratorLeadId: this.collaboratorLeadId,
      dealId: this.dealId?.toLowerCase(),
      agentUserId: this.agentUserId?.toLowerCase(),
    };
  }
}

/** `POST /v1/viewings`. */
export class CreateViewingDto implements CreateViewing {
  @ApiProperty({ format: 'uuid', description: 'A listing the agency may read (else 400).' })
  @IsUUID('all')
  propertyListingId: string;

  @ApiProperty({ ...LEAD_ID, description: 'A lead the caller reaches (else 404 `Lead not found.`).' })
  @LeadIdValue()
  leadId: number;

  @ApiPropertyOptional({
    type: [Number],
    maxItems: OTHER_LEADS_MAX,
    description: 'Other clients of the same viewing: leads the caller reaches.',
  })
  @IsOmittable()
  @IsArray()
  @ArrayMaxSize(OTHER_LEADS_MAX)
  @LeadIdValue(true)
  otherLeadIds?: number[];

  @ApiPropertyOptional({ ...LEAD_ID, description: 'A lead the caller reaches.' })
  @IsOmittable()
  @LeadIdValue()
  collaboratorLeadId?: number;

  @ApiPropertyOptional({ format: 'uuid', description: 'A deal of `leadId` (else 400).' })
  @IsOmittable()
  @IsUUID('all')
  dealId?: string;

  @ApiPropertyOptional({
    format: 'uuid',
    description: "A member of the agency; default the key's person (another person: admins only).",
  })
  @IsOmittable()
  @IsUUID('all')
  agentUserId?: string;

  @ApiProperty({ format: 'date-time', description: 'ISO 8601 with `Z` or an offset.' })
  @Moment('viewingAt')
  viewingAt: string;

  @ApiProperty({ enum: VIEWING_KINDS }) @IsIn(VIEWING_KINDS, kindMessage) kind: ViewingKind;

  @ApiPropertyOptional({ maxLength: VIEWING_NOTES_MAX })
  @IsOmittable()
  @IsString()
  @MaxLength(VIEWING_NOTES_MAX)
  notes?: string;
}

/** `PATCH /v1/viewings/{id}`: any create field; null clears an optional one. */
export class ChangeViewingDto implements ChangeViewing {
  @ApiPropertyOptional({ format: 'uuid', description: 'A listing the agency may read (else 400).' })
  @IsOmittable()
  @IsUUID('all')
  propertyListingId?: string;

  @ApiPropertyOptional({ ...LEAD_ID, description: 'A lead the caller reaches.' })
  @IsOmittable()
  @LeadIdValue()
  leadId?: number;

  @ApiPropertyOptional({ type: [Number], maxItems: OTHER_LEADS_MAX, description: 'Replaces the list.' })
  @IsOmittable()
  @IsArray()
  @ArrayMaxSize(OTHER_LEADS_MAX)
  @LeadIdValue(true)
  otherLeadIds?: number[];

  @ApiPropertyOptional({ ...LEAD_ID, nullable: true, description: 'A lead the caller reaches; null clears.' })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @LeadIdValue()
  collaboratorLeadId?: number | null;

  @ApiNullable(String, { format: 'uuid', description: 'A deal of the lead; null clears.' })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsUUID('all')
  dealId?: string | null;

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'A member; another person than the caller: admins only.',
  })
  @IsOmittable()
  @IsUUID('all')
  agentUserId?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'ISO 8601 with `Z` or an offset.' })
  @IsOmittable()
  @Moment('viewingAt')
  viewingAt?: string;

  @ApiPropertyOptional({ enum: VIEWING_KINDS })
  @IsOmittable()
  @IsIn(VIEWING_KINDS, kindMessage)
  kind?: ViewingKind;

  @ApiNullable(String, { maxLength: VIEWING_NOTES_MAX, description: 'Null clears.' })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(VIEWING_NOTES_MAX)
  notes?: string | null;
}

/** `PUT /v1/viewings/{id}/status`. */
export class ViewingStatusDto implements MoveViewing {
  @ApiProperty({ enum: VIEWING_STATUSES }) @IsIn(VIEWING_STATUSES, statusMessage) status: ViewingStatus;

  @ApiPropertyOptional({
    format: 'date-time',
    description:
      'The new time: required when a cancelled or no-show viewing is scheduled again, else refused.',
  })
  @IsOmittable()
  @Moment('viewingAt')
  viewingAt?: string;
}
