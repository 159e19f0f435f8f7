import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';
import { IntegerQuery, RequiredIntegerQuery } from '@app/platform';

/** Presence and type here; the days, the zone and the window are checked by `calendarWindow`. */
export class CalendarQueryDto {
  @ApiProperty({ example: '2026-12-01', description: 'First day, YYYY-MM-DD in `tz`.' })
  @IsString()
  from: string;

  @ApiProperty({
    example: '2026-12-08',
    description: 'Day after the last, YYYY-MM-DD in `tz` (exclusive); after `from`, at most 42 days later.',
  })
  @IsString()
  to: string;

  @ApiProperty({ example: 'Europe/Madrid', minLength: 1, maxLength: 64, description: 'IANA time zone.' })
  @IsString()
  @Length(1, 64)
  tz: string;
}

/** `GET /v1/calendar/free-times`: the window (at most 14 days) as for the calendar, a duration, a lead. */
export class FreeTimesQueryDto extends CalendarQueryDto {
  @ApiProperty({
    example: '2026-12-08',
    description: 'Day after the last, YYYY-MM-DD in `tz` (exclusive); after `from`, at most 14 days later.',
  })
  @IsString()
  declare to: string;

  @RequiredIntegerQuery({ min: 15, max: 480, example: 30 })
  durationMinutes: number;

  @IntegerQuery({ min: 1, max: Number.MAX_SAFE_INTEGER })
  leadId?: number;
}
