import { validationFailed } from '@app/platform';

/** INTERFACES.md: `to` after `from`, at most 42 days later. */
export const CALENDAR_MAX_DAYS = 42;
const DAY_MS = 86_400_000;
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

function knownZone(tz: string): boolean {
  if (tz.length < 1 || tz.length > 64 || /^[+-]/.test(tz)) return false; // an offset is no IANA zone
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** How far `tz`'s wall clock is ahead of UTC at `at`. */
function offsetMs(tz: string, at: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: tz,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(at));
  const values = Object.fromEntries(parts.map((p) => [p.type, Number(p.value)]));
  const part = (type: Intl.DateTimeFormatPartTypes) => values[type];
  const wall = Date.UTC(
    part('year'),
    part('month') - 1,
    part('day'),
    part('hour'),
    part('minute'),
    part('second'),
  );
  return wall - (at - (((at % 1000) + 1000) % 1000));
}

/** The UTC instant of 00:00 of `day` (midnight UTC of that date) in `tz`. */
export function zonedMidnight(day: Date, tz: string): Date {
  const wall = day.getTime();
  let at = wall - offsetMs(tz, wall);
  const corrected = wall - offsetMs(tz, at); // the offset can differ across the first guess (DST)
  if (corrected !== at) at = corrected;
  return new Date(at);
}

/** The window [`from` 00:00, `to` 00:00) in `tz`; anything else is 400 VALIDATION_FAILED naming the field. */
export function calendarWindow(query: { from: string; to: string; tz: string }): CalendarWindow {
  const from = utcDay(query.from);
  const to = utcDay(query.to);
  const zone = knownZone(query.tz);
  const issues = [
    ...(from ? [] : [{ path: 'from', message: 'from must be a date YYYY-MM-DD' }]),
    ...(to ? [] : [{ path: 'to', message: 'to must be a date YYYY-MM-DD' }]),
    ...(zone ? [] : [{ path: 'tz', message: 'tz must be a known IANA time zone' }]),
  ];
  if (from && to && to <= from) issues.push({ path: 'to', message: 'to must be after from' });
  if (from && to && to.getTime() - from.getTime() > CALENDAR_MAX_DAYS * DAY_MS) {
    issues.push({ path: 'to', message: `to must be at most ${CALENDAR_MAX_DAYS} days after from` });
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
