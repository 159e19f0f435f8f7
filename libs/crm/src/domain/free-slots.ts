import { DAY_MS, instantOf, isoWeekday, MINUTE_MS, offsetMs, wallAt } from '@app/platform/core';

/** A span of time as UTC milliseconds, `[start, end)`. */
export interface Span {
  start: number;
  end: number;
}

/** One working interval of a weekday: `day` 1 (Monday) … 7 (Sunday), `HH:MM` local times, from < to. */
export interface WorkingDay {
  day: number;
  from: string;
  to: string;
}

export interface WorkingHoursRule {
  zone: string;
  days: WorkingDay[];
}

/** INTERFACES.md: without their own, 09:00-18:00 Monday to Friday in the requested zone. */
export const defaultWorkingHours = (tz: string): WorkingHoursRule => ({
  zone: tz,
  days: [1, 2, 3, 4, 5].map((day) => ({ day, from: '09:00', to: '18:00' })),
});

/** Minutes after local midnight of `HH:MM` (`24:00` is the end of the day). */
export const minutesOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * The working intervals that overlap `window`, as instants: each entry of `hours` on each local
 * day of its zone around the window (the zone may be another than the one asked in).
 */
export function workingSpans(hours: WorkingHoursRule, window: Span): Span[] {
  const firstDay = Math.floor(wallAt(window.start, hours.zone) / DAY_MS) * DAY_MS - DAY_MS;
  const lastDay = Math.floor(wallAt(window.end, hours.zone) / DAY_MS) * DAY_MS + DAY_MS;
  const spans: Span[] = [];
  for (let day = firstDay; day <= lastDay; day += DAY_MS) {
    const weekday = isoWeekday(day);
    for (const entry of hours.days) {
      if (entry.day !== weekday) continue;
      const start = instantOf(day + minutesOf(entry.from) * MINUTE_MS, hours.zone);
      const end = instantOf(day + minutesOf(entry.to) * MINUTE_MS, hours.zone);
      if (end > start && start < window.end && end > window.start) spans.push({ start, end });
    }
  }
  return spans.sort((a, b) => a.start - b.start);
}

export interface FreeSlotsInput {
  /** [`from` 00:00, `to` 00:00) in `tz`. */
  window: Span;
  /** Where starts are aligned: every :00 and :30 of this zone's wall clock. */
  tz: string;
  durationMinutes: number;
  working: Span[];
  busy: Span[];
  now: number;
}

const STEP_MS = 15 * MINUTE_MS; // every zone's offset is a whole number of quarter hours

/**
 * INTERFACES.md free-times: candidate starts on :00 and :30 of `tz`; a slot `[start, start +
 * duration)` is kept when it lies inside the window and inside one working interval, starts after
 * `now` and overlaps no busy span. Earliest first.
 */
export function freeSlots(input: FreeSlotsInput): Span[] {
  const duration = input.durationMinutes * MINUTE_MS;
  const busy = [...input.busy].sort((a, b) => a.start - b.start);
  const starts = new Set<number>();
  for (const span of input.working) {
    const from = Math.max(span.start, input.window.start, input.now + 1);
    const until = Math.min(span.end, input.window.end) - duration;
    for (let start = Math.ceil(from / STEP_MS) * STEP_MS; start <= until; start += STEP_MS) {
      const localMinute = (start + offsetMs(input.tz, start)) / MINUTE_MS;
      if (localMinute % 30 !== 0) continue;
      const end = start + duration;
      if (!busy.some((b) => b.start < end && b.end > start)) starts.add(start);
    }
  }
  return [...starts].sort((a, b) => a - b).map((start) => ({ start, end: start + duration }));
}
