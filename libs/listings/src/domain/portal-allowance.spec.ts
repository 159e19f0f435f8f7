import {
  allowanceDay,
  allowanceResetsAt,
  allowanceState,
  PortalAllowanceExhausted,
} from './portal-allowance';

describe('the daily portal allowance', () => {
  it('a day is the UTC date; it resets at the next UTC midnight', () => {
    const late = new Date('2026-11-24T23:59:59.999Z');
    expect(allowanceDay(late)).toBe('2026-11-24');
    expect(allowanceResetsAt(late).toISOString()).toBe('2026-11-25T00:00:00.000Z');
    expect(allowanceDay(new Date('2026-11-25T00:00:00Z'))).toBe('2026-11-25');
    expect(allowanceResetsAt(new Date('2026-12-31T12:00:00Z')).toISOString()).toBe(
      '2027-01-01T00:00:00.000Z',
    );
    expect(allowanceState(7, late)).toEqual({ used: 7, limit: 300, resetsAt: '2026-11-25T00:00:00.000Z' });
  });

  it('exhausted: 429 DAILY_LIMIT_REACHED with what was asked and Retry-After until the reset', () => {
    const error = new PortalAllowanceExhausted(299, 2, new Date('2026-11-24T23:00:00Z'));
    expect(error.code).toBe('DAILY_LIMIT_REACHED');
    expect(error.details).toEqual({ used: 299, limit: 300, needed: 2, resetsAt: '2026-11-25T00:00:00.000Z' });
    expect(error.headers).toEqual({ 'Retry-After': '3600' });
  });
});
