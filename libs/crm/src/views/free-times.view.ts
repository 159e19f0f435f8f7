import { ApiProperty } from '@nestjs/swagger';

export interface FreeSlotJson {
  startsAt: string;
  endsAt: string;
}

/** Spec: `{timeZone, durationMinutes, slots:[{startsAt, endsAt}]}`. */
export interface FreeTimesJson {
  timeZone: string;
  durationMinutes: number;
  slots: FreeSlotJson[];
}

export class FreeSlotView implements FreeSlotJson {
  @ApiProperty({ format: 'date-time', description: 'UTC; on :00 or :30 of `timeZone`.' }) startsAt: string;
  @ApiProperty({ format: 'date-time', description: 'UTC; `startsAt` + `durationMinutes`.' }) endsAt: string;
}

export class FreeTimesView implements FreeTimesJson {
  @ApiProperty({ example: 'Europe/Madrid', description: 'The `tz` asked.' }) timeZone: string;
  @ApiProperty({ type: 'integer', example: 30 }) durationMinutes: number;

  @ApiProperty({ type: [FreeSlotView], description: 'Earliest first.' })
  slots: FreeSlotView[];
}
