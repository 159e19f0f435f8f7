import { DomainError } from '@app/platform/core';
import { occurredWindow } from './occurred-window';

describe('occurredWindow', () => {
  it('a date covers its UTC day', () => {
    expect(occurredWindow('2026-03-01', '2026-03-01')).toEqual({
      from: new Date('2026-03-01T00:00:00Z'),
      to: new Date('2026-03-02T00:00:00Z'),
    });
  });

  it('a date-time is that instant, both ends inclusive', () => {
    expect(occurredWindow('2026-03-01T10:00:00+01:00', '2026-03-01T12:00:00Z')).toEqual({
      from: new Date('2026-03-01T09:00:00Z'),
      to: new Date('2026-03-01T12:00:00.001Z'),
    });
    expect(occurredWindow()).toEqual({ from: undefined, to: undefined });
  });

  it('a date-time from inside the `to` date keeps the rest of that day', () => {
    expect(occurredWindow('2026-03-01T15:00:00Z', '2026-03-01')).toEqual({
      from: new Date('2026-03-01T15:00:00Z'),
      to: new Date('2026-03-02T00:00:00Z'),
    });
    expect(occurredWindow('2026-03-01T12:00:00Z', '2026-03-01T12:00:00Z').to).toEqual(
      new Date('2026-03-01T12:00:00.001Z'),
    );
  });

  it('refuses bad values and from after to', () => {
    for (const [from, to] of [
      ['2026-02-30', undefined],
      ['yesterday', undefined],
      [undefined, '2026-03-01T10:00'],
      ['2026-03-02', '2026-03-01'],
      ['2026-03-02T00:00:00Z', '2026-03-01'],
      ['2026-03-01T12:00:00.001Z', '2026-03-01T12:00:00Z'],
    ])
      expect(() => occurredWindow(from, to)).toThrow(DomainError);
  });
});
