import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { IsOmittable } from '@app/platform';
import { MEETING_STATUSES, type MeetingStatus } from '../../domain/meeting.entity';
import { WORKING_DAYS_MAX } from '../../domain/working-hours.entity';
import { LeadIdField, UuidList } from './lead.dto';

const INSTANT_DOC = { format: 'date-time', description: 'ISO 8601 timestamp with an offset.' };
const ENDS_DOC = {
  format: 'date-time',
  description: 'ISO 8601 timestamp with an offset; after `startsAt`, at most 24 h later.',
};
const LEAD_DOC: ApiPropertyOptions = {
  type: 'integer',
  nullable: true,
  description: 'A lead the caller reaches (else 404 `Lead not found.`); null clears it on PATCH.',
};
const ATTENDEES_DOC: ApiPropertyOptions = {
  type: [String],
  maxItems: 50,
  description: 'User ids of people of the agency (else 400); the creator need not be listed.',
};

export class CreateMeetingDto {
  @ApiProperty({ minLength: 1, maxLength: 200 }) @IsString() @Length(1, 200) title: string;
  @ApiProperty(INSTANT_DOC) @IsString() startsAt: string;
  @ApiProperty(ENDS_DOC) @IsString() endsAt: string;

  @ApiPropertyOptional(LEAD_DOC)
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @LeadIdField()
  leadId?: number | null;

  @ApiPropertyOptional(ATTENDEES_DOC) @IsOmittable() @UuidList(50) attendeeUserIds?: string[];
}

export class ChangeMeetingDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 200 })
  @IsOmittable()
  @IsString()
  @Length(1, 200)
  title?: string;

  @ApiPropertyOptional(INSTANT_DOC) @IsOmittable() @IsString() startsAt?: string;
  @ApiPropertyOptional(ENDS_DOC) @IsOmittable() @IsString() endsAt?: string;

  @ApiPropertyOptional(LEAD_DOC)
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @LeadIdField()
  leadId?: number | null;

  @ApiPropertyOptional({
    type: [String],
    maxItems: 50,
    description: 'The full new list (people of the agency).',
  })
  @IsOmittable()
  @UuidList(50)
  attendeeUserIds?: string[];

  @ApiPropertyOptional({
    enum: MEETING_STATUSES,
    description: '`cancelled` cancels (it stays on calendars, never blocks); `scheduled` restores.',
  })
  @IsOmittable()
  @IsIn(MEETING_STATUSES)
  status?: MeetingStatus;
}

const FROM = /^([01]\d|2[0-3]):[0-5]\d$/;
const TO = /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/;

export class WorkingDayDto {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 7, description: '1 Monday … 7 Sunday.' })
  @IsInt()
  @Min(1)
  @Max(7)
  day: number;

  @ApiProperty({ example: '09:00', pattern: FROM.source })
  @IsString()
  @Matches(FROM, { message: 'from must be HH:MM' })
  from: string;

  @ApiProperty({ example: '18:00', pattern: TO.source, description: 'After `from`; `24:00` ends the day.' })
  @IsString()
  @Matches(TO, { message: 'to must be HH:MM' })
  to: string;
}

/** `PUT /calendar/working-hours`: the zone's checked by the aggregate (a known IANA zone). */
export class WorkingHoursDto {
  @ApiProperty({ example: 'Europe/Madrid', minLength: 1, maxLength: 64, description: 'IANA time zone.' })
  @IsString()
  @Length(1, 64)
  zone: string;

  @ApiProperty({ type: [WorkingDayDto], maxItems: WORKING_DAYS_MAX })
  @IsArray()
  @ArrayMaxSize(WORKING_DAYS_MAX)
  @ValidateNested({ each: true })
  @Type(() => WorkingDayDto)
  days: WorkingDayDto[];
}
