/**
 * Wall-clock reading of an IANA zone for schedules and the `dailyCap` day, from the runtime's own
 * time zone data (`Intl`), DST-correct. A tiny copy of the idea in crm's `zoned-time.ts`: a domain
 * file may not import another context (dependency-cruiser `domain-is-pure`) and `@app/crm` does not
 * export it, so routing keeps the three reads it needs here.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      weekday: 'short',
    });
    formatters.set(zone, format);
  }
  return format;
}

/** A known IANA zone of 1-64 characters (an offset such as `+01:00` is none). */
export function isKnownZone(zone: string): boolean {
  if (zone.length < 1 || zone.length > 64 || /^[+-]/.test(zone)) return false;
  try {
    formatter(zone);
    return true;
  } catch {
    return false;
  }
}

export interface WallTime {
  /** `YYYY-MM-DD` in the zone. */
  day: string;
  /** ISO weekday, 1 Monday … 7 Sunday. */
  weekday: number;
  /** Minutes since the zone's local midnight. */
  minute: number;
}

const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };
const pad = (value: string): string => value.padStart(2, '0');

/** The wall clock of `zone` (UTC when null) at `at`. */
export function wallTime(at: Date, zone: string | null): WallTime {
  const parts: Record<string, string> = {};
  for (const part of formatter(zone ?? 'UTC').formatToParts(at)) parts[part.type] = part.value;
  return {
    day: `${parts.year}-${pad(parts.month)}-${pad(parts.day)}`,
    weekday: WEEKDAYS[parts.weekday],
    minute: Number(parts.hour) * 60 + Number(parts.minute),
  };
}

/** `HH:MM` (00:00-24:00) → minutes since midnight; null when malformed. */
export function clockMinutes(value: string): number | null {
  const match = /^([01]\d|2[0-4]):([0-5]\d)$/.exec(value);
  if (!match) return null;
  const minutes = Number(match[1]) * 60 + Number(match[2]);
  return minutes > 24 * 60 ? null : minutes;
}
