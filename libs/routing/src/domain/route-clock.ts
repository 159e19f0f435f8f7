import { isKnownZone, isoWeekday, wallAt } from '@app/platform/core';

/**
 * Wall-clock reading of an IANA zone for schedules and the `dailyCap` day, through the platform's
 * zoned time (`Intl` data, DST-correct).
 */

export { isKnownZone };

export interface WallTime {
  /** `YYYY-MM-DD` in the zone. */
  day: string;
  /** ISO weekday, 1 Monday … 7 Sunday. */
  weekday: number;
  /** Minutes since the zone's local midnight. */
  minute: number;
}

/** The wall clock of `zone` (UTC when null) at `at`. */
export function wallTime(at: Date, zone: string | null): WallTime {
  const wall = wallAt(at.getTime(), zone ?? 'UTC');
  const clock = new Date(wall);
  return {
    day: clock.toISOString().slice(0, 10),
    weekday: isoWeekday(wall),
    minute: clock.getUTCHours() * 60 + clock.getUTCMinutes(),
  };
}

/** `HH:MM` (00:00-24:00) → minutes since midnight; null when malformed. */
export function clockMinutes(value: string): number | null {
  const match = /^([01]\d|2[0-4]):([0-5]\d)$/.exec(value);
  if (!match) return null;
  const minutes = Number(match[1]) * 60 + Number(match[2]);
  return minutes > 24 * 60 ? null : minutes;
}
