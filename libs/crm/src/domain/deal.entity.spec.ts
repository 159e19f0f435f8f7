import { DomainError } from '@app/platform/core';
import { deriveCommission } from './commission';
import { Deal, DealStage } from './deal.entity';
import { participantIssues } from './deal-participants';
import { decimalIssue, formatDecimal, parseMoney, parsePercent } from './money';

const T0 = new Date('2026-11-20T10:00:00.000Z');
const T1 = new Date('2026-11-21T10:00:00.000Z');
const T2 = new Date('2026-11-22T10:00:00.000Z');

const deal = (stage?: DealStage) =>
  new Deal(
    {
      organizationId: 'org',
      leadId: 1,
      createdBy: 'u1',
      title: 'Flat on Calle Mayor',
      stage,
      currency: 'EUR',
      assigneeIds: ['u1'],
    },
    T0,
  );

const closedFields = (d: Deal) => ({
  status: d.status,
  wonAt: d.wonAt,
  lostAt: d.lostAt,
  lostReason: d.lostReason,
});

describe('Deal (spec: Deal state table)', () => {
  it('(none) → create: open at the given stage or qualified', () => {
    expect([deal().status, deal().stage, deal().stageChangedAt]).toEqual(['open', 'qualified', T0]);
    expect(deal('offer').stage).toBe('offer');
  });

  it('open → change stage: the new stage and stageChangedAt; the same stage changes nothing', () => {
    const d = deal();
    expect(d.changeStage('viewing', T1)).toBe('stage-changed');
    expect([d.status, d.stage, d.stageChangedAt, d.updatedAt]).toEqual(['open', 'viewing', T1, T1]);
    expect(d.changeStage('viewing', T2)).toBe('none');
    expect([d.stageChangedAt, d.updatedAt]).toEqual([T1, T1]);
  });

  it('won or lost → change stage: reopens at that stage, closing fields cleared', () => {
    for (const close of [(d: Deal) => d.markWon(T1), (d: Deal) => d.markLost('price', T1)]) {
      const d = deal('offer');
      close(d);
      expect(d.changeStage('reserved', T2)).toBe('reopened');
      expect(closedFields(d)).toEqual({ status: 'open', wonAt: null, lostAt: null, lostReason: null });
      expect([d.stage, d.stageChangedAt]).toEqual(['reserved', T2]);
      close(d);
      expect(d.changeStage('reserved', T2)).toBe('reopened'); // same stage on a closed deal still reopens
      expect(d.status).toBe('open');
    }
  });

  it('any → close as won: wonAt (default now), lost fields cleared, stage kept', () => {
    const d = deal('offer');
    d.markLost('price', T0);
    d.markWon(T1);
    expect(closedFields(d)).toEqual({ status: 'won', wonAt: T1, lostAt: null, lostReason: null });
    d.markWon(T2, T1);
    expect([d.wonAt, d.updatedAt, d.stage]).toEqual([T1, T2, 'offer']);
  });

  it('any → close as lost: lostAt (default now), won fields cleared', () => {
    const d = deal();
    d.markWon(T0);
    d.markLost('price', T1);
    expect(closedFields(d)).toEqual({ status: 'lost', wonAt: null, lostAt: T1, lostReason: 'price' });
    d.markLost(null, T2, T0);
    expect([d.lostAt, d.lostReason]).toEqual([T0, null]);
  });

  it('won or lost → reopen: the named stage or the previous one; an open deal → 409 CONFLICT', () => {
    const d = deal('reserved');
    d.markLost('price', T1);
    d.reopen(T2);
    expect(closedFields(d)).toEqual({ status: 'open', wonAt: null, lostAt: null, lostReason: null });
    expect([d.stage, d.stageChangedAt]).toEqual(['reserved', T0]);
    d.markWon(T2);
    d.reopen(T2, 'viewing');
    expect([d.status, d.stage, d.stageChangedAt]).toEqual(['open', 'viewing', T2]);
    expect(() => d.reopen(T2)).toThrow(expect.objectContaining({ code: 'CONFLICT' }) as DomainError);
  });

  it('PATCH never changes stage or status; derives the other commission field', () => {
    const d = deal('offer');
    d.edit({ amount: '250000.00', commissionPercent: '3.50' }, T1);
    expect([d.stage, d.status, d.commissionMode, d.commissionAmount]).toEqual([
      'offer',
      'open',
      'percentage',
      '8750.00',
    ]);
    d.edit({ commissionMode: 'exact', commissionAmount: '5000.00' }, T1);
    expect([d.commissionAmount, d.commissionPercent]).toEqual(['5000.00', '2.00']);
    d.edit({ amount: null }, T1);
    expect([d.commissionAmount, d.commissionPercent]).toEqual(['5000.00', null]);
  });
});

describe('money.ts', () => {
  it('takes numbers and decimal strings ≥ 0 with at most 2 decimals, up to 999999999999.99, never rounding', () => {
    expect(parseMoney(250000, 'amount')).toBe('250000.00');
    expect(parseMoney('1.5', 'amount')).toBe('1.50');
    expect(parseMoney(999999999999.99, 'amount')).toBe('999999999999.99');
    expect(parsePercent('100', 'p')).toBe('100.00');
    for (const bad of [
      -1,
      '1.234',
      1.234,
      '1e3',
      '',
      ' 1',
      '-0.01',
      '1000000000000',
      'abc',
      null,
      true,
      NaN,
    ]) {
      expect(decimalIssue(bad, 'money')).toEqual(expect.any(String));
    }
    expect(decimalIssue(100.01, 'percent')).toEqual(expect.any(String));
    expect(() => parseMoney('1.234', 'amount')).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED' }) as DomainError,
    );
    expect(formatDecimal('3.5')).toBe('3.50');
  });
});

describe('commission.ts', () => {
  it('percentage: amount = round(amount × percent / 100, 2); exact: percent = round(amount / deal × 100, 2)', () => {
    expect(deriveCommission('100.00', { mode: 'percentage', amount: null, percent: '33.33' }).amount).toBe(
      '33.33',
    );
    expect(deriveCommission('0.05', { mode: 'percentage', amount: null, percent: '50.00' }).amount).toBe(
      '0.03',
    );
    expect(deriveCommission('300.00', { mode: 'exact', amount: '100.00', percent: null }).percent).toBe(
      '33.33',
    );
    expect(deriveCommission('300.00', { mode: 'exact', amount: '200.00', percent: null }).percent).toBe(
      '66.67',
    );
    expect(deriveCommission('0.00', { mode: 'exact', amount: '0.00', percent: '1.00' }).percent).toBeNull();
    expect(deriveCommission(null, { mode: 'percentage', amount: '9.00', percent: '3.00' }).amount).toBeNull();
    expect(() => deriveCommission('100.00', { mode: 'exact', amount: '100.01', percent: null })).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED' }) as DomainError,
    );
  });
});

describe('deal-participants.ts', () => {
  it('at most 10 rows, members only, no repeated (userId, role), percents adding up to at most 100', () => {
    const members = new Set(['a', 'b']);
    expect(
      participantIssues(
        [
          { userId: 'a', role: 'listing', percent: '60.00' },
          { userId: 'a', role: 'selling', percent: '40.00' },
        ],
        members,
      ),
    ).toEqual([]);
    const paths = (rows: Parameters<typeof participantIssues>[0]) =>
      participantIssues(rows, members).map((i) => i.path);
    expect(paths([{ userId: 'x', role: 'other', percent: '1.00' }])).toEqual(['participants.0.userId']);
    expect(
      paths([
        { userId: 'a', role: 'other', percent: '1.00' },
        { userId: 'a', role: 'other', percent: '1.00' },
      ]),
    ).toEqual(['participants.1']);
    expect(
      paths([
        { userId: 'a', role: 'other', percent: '60.00' },
        { userId: 'b', role: 'other', percent: '40.01' },
      ]),
    ).toEqual(['participants']);
    expect(
      paths(Array.from({ length: 11 }, () => ({ userId: 'a', role: 'other' as const, percent: '0.00' }))),
    ).toContain('participants');
  });
});
