import { ApiProperty } from '@nestjs/swagger';
import type { WorkingDay, WorkingHoursRule } from '../domain/free-slots';
import type { WorkingHours } from '../domain/working-hours.entity';

export type WorkingHoursJson = WorkingHoursRule;

export const toWorkingHoursJson = (hours: WorkingHours): WorkingHoursJson => ({
  zone: hours.zone,
  days: hours.days.map(({ day, from, to }) => ({ day, from, to })),
});

/** One working interval of a weekday, in the zone of the working hours. */
export class WorkingDayView implements WorkingDay {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 7, description: '1 Monday … 7 Sunday.' })
  day: number;

  @ApiProperty({ example: '09:00', pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:MM local.' })
  from: string;

  @ApiProperty({
    example: '18:00',
    pattern: '^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$',
    description: 'HH:MM local, after `from` (`24:00`: the end of the day).',
  })
  to: string;
}

/** A person's own working hours: free times fall inside them. */
export class WorkingHoursView implements WorkingHoursJson {
  @ApiProperty({ example: 'Europe/Madrid', minLength: 1, maxLength: 64, description: 'IANA time zone.' })
  zone: string;

  @ApiProperty({
    type: [WorkingDayView],
    maxItems: 14,
    description: 'By day, then `from`. Entries of one day do not overlap; a day without entries is off.',
  })
  days: WorkingDayView[];
}
