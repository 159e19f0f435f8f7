/**
 * Wall-clock time in an IANA zone, DST-correct, from the runtime's own time zone data (`Intl`):
 * no dependency. A "wall" value is the zone's local date and time written as if it were UTC
 * (milliseconds since the epoch), so plain UTC arithmetic walks local days and minutes.
 */

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(tz: string): Intl.DateTimeFormat {
  let format = formatters.get(tz);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(tz, format);
  }
  return format;
}

/** A known IANA zone of 1-64 characters (an offset such as `+01:00` is none). */
export function isKnownZone(tz: string): boolean {
  if (tz.length < 1 || tz.length > 64 || /^[+-]/.test(tz)) return false;
  try {
    formatter(tz);
    return true;
  } catch {
    return false;
  }
}

/** How far `tz`'s wall clock is ahead of UTC at the instant `at`. */
export function offsetMs(tz: string, at: number): number {
  if (tz === 'UTC') return 0;
  const values: Record<string, number> = {};
  for (const part of formatter(tz).formatToParts(new Date(at))) values[part.type] = Number(part.value);
  const wall = Date.UTC(values.year, values.month - 1, values.day, values.hour, values.minute, values.second);
  return wall - (at - (((at % 1000) + 1000) % 1000));
}

/** The wall clock of `tz` at the instant `at`. */
export const wallAt = (at: number, tz: string): number => at + offsetMs(tz, at);

/**
 * The instant when `tz`'s wall clock shows `wall`. A wall time skipped by a DST jump gives an
 * instant next to the jump; one shown twice gives one of its two instants.
 */
export function instantOf(wall: number, tz: string): number {
  const guess = wall - offsetMs(tz, wall);
  return wall - offsetMs(tz, guess); // the offset can differ across the first guess (DST)
}

/** ISO weekday (1 Monday … 7 Sunday) of a wall value. */
export const isoWeekday = (wall: number): number => ((new Date(wall).getUTCDay() + 6) % 7) + 1;
