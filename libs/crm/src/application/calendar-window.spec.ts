import { calendarWindow, zonedMidnight } from './calendar-window';

const day = (value: string) => new Date(`${value}T00:00:00.000Z`);

describe('zonedMidnight', () => {
  it.each([
    ['2026-07-01', 'Europe/Madrid', '2026-06-30T22:00:00.000Z'],
    ['2026-12-01', 'Europe/Madrid', '2026-11-30T23:00:00.000Z'],
    ['2026-03-29', 'Europe/Madrid', '2026-03-28T23:00:00.000Z'],
    ['2026-12-01', 'America/New_York', '2026-12-01T05:00:00.000Z'],
    ['2026-12-01', 'Asia/Kolkata', '2026-11-30T18:30:00.000Z'],
    ['2026-12-01', 'UTC', '2026-12-01T00:00:00.000Z'],
  ])('reads 00:00 of %s in %s as %s', (value, tz, expected) => {
    expect(zonedMidnight(day(value), tz).toISOString()).toBe(expected);
  });
});

describe('calendarWindow', () => {
  it('spans from 00:00 to to 00:00 in the zone', () => {
    const window = calendarWindow({ from: '2026-12-01', to: '2026-12-08', tz: 'Europe/Madrid' });
    expect([window.startsAt.toISOString(), window.endsAt.toISOString()]).toEqual([
      '2026-11-30T23:00:00.000Z',
      '2026-12-07T23:00:00.000Z',
    ]);
  });

  it('takes 42 days, not 43', () => {
    expect(() => calendarWindow({ from: '2026-12-01', to: '2027-01-12', tz: 'UTC' })).not.toThrow();
    expect(() => calendarWindow({ from: '2026-12-01', to: '2027-01-13', tz: 'UTC' })).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED' }),
    );
  });

  it.each([
    [{ from: '2026-02-30', to: '2026-03-02', tz: 'UTC' }, 'from'],
    [{ from: '2026-03-01', to: '03/02/2026', tz: 'UTC' }, 'to'],
    [{ from: '2026-03-02', to: '2026-03-02', tz: 'UTC' }, 'to'],
    [{ from: '2026-03-02', to: '2026-03-01', tz: 'UTC' }, 'to'],
    [{ from: '2026-03-01', to: '2026-03-02', tz: 'Mars/Base' }, 'tz'],
    [{ from: '2026-03-01', to: '2026-03-02', tz: '+01:00' }, 'tz'],
  ])('refuses %j naming %s', (query, field) => {
    expect(() => calendarWindow(query)).toThrow(
      expect.objectContaining({ details: { issues: [expect.objectContaining({ path: field })] } }),
    );
  });
});
