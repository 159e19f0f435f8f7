import { validationFailed } from '@app/platform/core';
import { fromHundredths, roundedQuotient, toHundredths } from './money';

export const COMMISSION_MODES = ['exact', 'percentage'] as const;
export type CommissionMode = (typeof COMMISSION_MODES)[number];

export interface Commission {
  mode: CommissionMode;
  amount: string | null;
  percent: string | null;
}

/**
 * Spec (INTERFACES.md "Deals", Commission): the mode's own field is kept and the other derived on
 * every write. percentage → commissionAmount = round(amount × commissionPercent / 100, 2);
 * exact → commissionPercent = round(commissionAmount / amount × 100, 2); the derived field is null
 * when `amount` is null or 0 (or its source field is null). An exact commission above the amount
 * would derive a percent over 100: 400 VALIDATION_FAILED on `commissionAmount`.
 */
export function deriveCommission(dealAmount: string | null, commission: Commission): Commission {
  const amount = dealAmount === null ? 0n : toHundredths(dealAmount);
  if (commission.mode === 'percentage') {
    const percent = commission.percent;
    const derived =
      amount === 0n || percent === null
        ? null
        : fromHundredths(roundedQuotient(amount * toHundredths(percent), 10_000n));
    return { mode: 'percentage', percent, amount: derived };
  }
  const exact = commission.amount;
  if (exact === null || amount === 0n) return { mode: 'exact', amount: exact, percent: null };
  if (toHundredths(exact) > amount) {
    throw validationFailed([
      { path: 'commissionAmount', message: 'commissionAmount must not exceed the deal amount in exact mode' },
    ]);
  }
  return {
    mode: 'exact',
    amount: exact,
    percent: fromHundredths(roundedQuotient(toHundredths(exact) * 10_000n, amount)),
  };
}
