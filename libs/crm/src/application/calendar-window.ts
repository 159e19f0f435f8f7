import { validationFailed } from '@app/platform';
import { DAY_MS, instantOf, isKnownZone } from '@app/platform/core';

/** INTERFACES.md: `to` after `from`, at most 42 days later. */
export const CALENDAR_MAX_DAYS = 42;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

export interface CalendarWindow {
  from: string;
  to: string;
  tz: string;
  /** `from` 00:00 and `to` 00:00 in `tz`, as UTC instants. */
  startsAt: Date;
  endsAt: Date;
}

/** Midnight UTC of a YYYY-MM-DD day, or null when it is no calendar day. */
function utcDay(value: string): Date | null {
  const match = DAY.exec(value);
  if (!match) return null;
  const at = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return at.toISOString().startsWith(value) ? at : null;
}

/** The UTC instant of 00:00 of `day` (midnight UTC of that date) in `tz`. */
export const zonedMidnight = (day: Date, tz: string): Date => new Date(instantOf(day.getTime(), tz));

/**
 * The window [`from` 00:00, `to` 00:00) in `tz`, `to` after `from` and at most `maxDays` later;
 * anything else is 400 VALIDATION_FAILED naming the field.
 */
export function calendarWindow(
  query: { from: string; to: string; tz: string },
  maxDays = CALENDAR_MAX_DAYS,
): CalendarWindow {
  const from = utcDay(query.from);
  const to = utcDay(query.to);
  const zone = isKnownZone(query.tz);
  const issues = [
    ...(from ? [] : [{ path: 'from', message: 'from must be a date YYYY-MM-DD' }]),
    ...(to ? [] : [{ path: 'to', message: 'to must be a date YYYY-MM-DD' }]),
    ...(zone ? [] : [{ path: 'tz', message: 'tz must be a known IANA time zone' }]),
  ];
  if (from && to && to <= from) issues.push({ path: 'to', message: 'to must be after from' });
  if (from && to && to.getTime() - from.getTime() > maxDays * DAY_MS) {
    issues.push({ path: 'to', message: `to must be at most ${maxDays} days after from` });
  }
  if (issues.length > 0 || !from || !to) throw validationFailed(issues);
  return {
    from: query.from,
    to: query.to,
    tz: query.tz,
    startsAt: zonedMidnight(from, query.tz),
    endsAt: zonedMidnight(to, query.tz),
  };
}
