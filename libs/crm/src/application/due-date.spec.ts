import { parseDueDate } from './due-date';

describe('parseDueDate', () => {
  it('reads a date as midnight UTC of that date', () => {
    expect(parseDueDate('2026-12-01').toISOString()).toBe('2026-12-01T00:00:00.000Z');
  });

  it('reads a timestamp with an offset as that exact moment', () => {
    expect(parseDueDate('2026-12-01T10:30:00+02:00').toISOString()).toBe('2026-12-01T08:30:00.000Z');
    expect(parseDueDate('2026-12-01T10:30:00.250Z').toISOString()).toBe('2026-12-01T10:30:00.250Z');
  });

  it.each(['2026-02-30', '2026-12-01T10:30:00', '01/12/2026', 'tomorrow', ''])(
    'refuses %s with VALIDATION_FAILED',
    (value) => {
      expect(() => parseDueDate(value)).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
    },
  );
});
