import { defaultWorkingHours, freeSlots, Span, workingSpans } from './free-slots';
import { instantOf, isKnownZone, offsetMs } from '@app/platform/core';

const at = (iso: string) => Date.parse(iso);
const span = (start: string, end: string): Span => ({ start: at(start), end: at(end) });
const iso = (spans: Span[]) =>
  spans.map((s) => [new Date(s.start).toISOString(), new Date(s.end).toISOString()]);

describe('zoned time', () => {
  it('knows IANA zones, not offsets or made-up names', () => {
    expect(['UTC', 'Europe/Madrid', 'Asia/Kolkata'].map(isKnownZone)).toEqual([true, true, true]);
    expect(['', '+01:00', 'Mars/Base', 'A'.repeat(65)].map(isKnownZone)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it('follows DST: Madrid is +1 in winter, +2 from 29 March 2026 02:00', () => {
    expect(offsetMs('Europe/Madrid', at('2026-03-29T00:59:00Z')) / 3_600_000).toBe(1);
    expect(offsetMs('Europe/Madrid', at('2026-03-29T01:00:00Z')) / 3_600_000).toBe(2);
    expect(new Date(instantOf(at('2026-03-29T09:00:00Z'), 'Europe/Madrid')).toISOString()).toBe(
      '2026-03-29T07:00:00.000Z',
    );
  });
});

describe('workingSpans', () => {
  it('gives 09:00-18:00 Monday to Friday in the zone by default', () => {
    // Monday 30 November to Monday 7 December 2026, Madrid (+1)
    const window = span('2026-11-29T23:00:00Z', '2026-12-06T23:00:00Z');
    expect(iso(workingSpans(defaultWorkingHours('Europe/Madrid'), window))).toEqual(
      ['11-30', '12-01', '12-02', '12-03', '12-04'].map((d) => [
        `2026-${d}T08:00:00.000Z`,
        `2026-${d}T17:00:00.000Z`,
      ]),
    );
  });

  it('reads own hours in their own zone, several intervals a day', () => {
    const hours = {
      zone: 'America/New_York',
      days: [
        { day: 6, from: '08:00', to: '12:00' },
        { day: 6, from: '13:00', to: '24:00' },
      ],
    };
    // Saturday 5 December 2026, asked in UTC; New York is -5
    const spans = workingSpans(hours, span('2026-12-05T00:00:00Z', '2026-12-06T00:00:00Z'));
    expect(iso(spans)).toEqual([
      ['2026-12-05T13:00:00.000Z', '2026-12-05T17:00:00.000Z'],
      ['2026-12-05T18:00:00.000Z', '2026-12-06T05:00:00.000Z'],
    ]);
  });
});

describe('freeSlots', () => {
  const base = {
    window: span('2026-12-01T00:00:00Z', '2026-12-02T00:00:00Z'),
    tz: 'UTC',
    durationMinutes: 60,
    working: [span('2026-12-01T09:00:00Z', '2026-12-01T12:00:00Z')],
    busy: [] as Span[],
    now: at('2026-11-24T00:00:00Z'),
  };

  it('starts every :00 and :30 and keeps whole slots inside one working interval', () => {
    expect(iso(freeSlots(base)).map(([s]) => s.slice(11, 16))).toEqual([
      '09:00',
      '09:30',
      '10:00',
      '10:30',
      '11:00',
    ]);
    expect(freeSlots({ ...base, durationMinutes: 180 })).toHaveLength(1);
    expect(freeSlots({ ...base, durationMinutes: 181 })).toEqual([]);
  });

  it('aligns to the half hours of a +05:30 zone', () => {
    const slots = freeSlots({ ...base, tz: 'Asia/Kolkata' });
    // 09:00 UTC is 14:30 in Kolkata: every :00/:30 there is :00/:30 in UTC too
    expect(iso(slots).map(([s]) => s.slice(11, 16))).toEqual(['09:00', '09:30', '10:00', '10:30', '11:00']);
    const nepal = freeSlots({ ...base, tz: 'Asia/Kathmandu' }); // +05:45
    expect(iso(nepal).map(([s]) => s.slice(11, 16))).toEqual(['09:15', '09:45', '10:15', '10:45']);
  });

  it('leaves out busy times (touching is fine), the past and what spills out of the window', () => {
    const busy = [span('2026-12-01T10:00:00Z', '2026-12-01T10:15:00Z')];
    expect(iso(freeSlots({ ...base, busy })).map(([s]) => s.slice(11, 16))).toEqual([
      '09:00',
      '10:30',
      '11:00',
    ]);
    const now = at('2026-12-01T09:30:00Z');
    expect(iso(freeSlots({ ...base, now })).map(([s]) => s.slice(11, 16))).toEqual([
      '10:00',
      '10:30',
      '11:00',
    ]);
    const window = span('2026-12-01T00:00:00Z', '2026-12-01T11:30:00Z');
    expect(iso(freeSlots({ ...base, window })).map(([s]) => s.slice(11, 16))).toEqual([
      '09:00',
      '09:30',
      '10:00',
      '10:30',
    ]);
  });

  it('keeps both 01:00 and 01:30 of a day the clocks go back', () => {
    // New York, 1 November 2026: 01:00-02:00 happens twice (-4, then -5)
    const slots = freeSlots({
      ...base,
      tz: 'America/New_York',
      durationMinutes: 30,
      window: span('2026-11-01T04:00:00Z', '2026-11-02T05:00:00Z'),
      working: [span('2026-11-01T05:00:00Z', '2026-11-01T07:00:00Z')],
      now: at('2026-10-01T00:00:00Z'),
    });
    expect(iso(slots).map(([s]) => s)).toEqual([
      '2026-11-01T05:00:00.000Z', // 01:00 EDT
      '2026-11-01T05:30:00.000Z', // 01:30 EDT
      '2026-11-01T06:00:00.000Z', // 01:00 EST
      '2026-11-01T06:30:00.000Z', // 01:30 EST
    ]);
  });
});
