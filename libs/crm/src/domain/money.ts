import { validationFailed } from '@app/platform/core';

/**
 * Spec (INTERFACES.md "Deals"): money and percents leave the API as decimal strings with two
 * decimals and come in as a JSON number or a decimal string, ≥ 0, at most 2 decimals, at most
 * 999,999,999,999.99 (`numeric(14,2)`; percents 0-100, `numeric(5,2)`). Anything else is 400
 * VALIDATION_FAILED, never rounded. The rule's one home: the DTOs ask `decimalIssue`, the
 * services `parseMoney`/`parsePercent`, the views `formatDecimal`.
 */

export type DecimalKind = 'money' | 'percent';

/** The largest amount `numeric(14,2)` holds, in cents. */
const MAX_MONEY_CENTS = 99_999_999_999_999n;
const MAX_PERCENT_HUNDREDTHS = 10_000n;
const DECIMAL = /^(\d{1,12})(?:\.(\d{1,2}))?$/;

/** The documented pattern of a decimal string in answers. */
export const DECIMAL_PATTERN = '^\\d{1,12}\\.\\d{2}$';
export const PERCENT_PATTERN = '^\\d{1,3}\\.\\d{2}$';

/** The value in hundredths (cents, or hundredths of a percent), or a message saying why not. */
function hundredthsOf(value: unknown, kind: DecimalKind): bigint | string {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  const bound = kind === 'money' ? 'between 0 and 999999999999.99' : 'between 0 and 100';
  const shape = `must be a number or decimal string ${bound} with at most 2 decimals`;
  if (typeof text !== 'string') return shape;
  const match = DECIMAL.exec(text);
  if (!match) return shape;
  const hundredths = BigInt(match[1]) * 100n + BigInt((match[2] ?? '').padEnd(2, '0'));
  if (hundredths > (kind === 'money' ? MAX_MONEY_CENTS : MAX_PERCENT_HUNDREDTHS)) return shape;
  return hundredths;
}

/** Why `value` is not an acceptable amount or percent, or null when it is. */
export function decimalIssue(value: unknown, kind: DecimalKind): string | null {
  const parsed = hundredthsOf(value, kind);
  return typeof parsed === 'string' ? parsed : null;
}

/** Hundredths as the two-decimal string `numeric(_, 2)` stores and the API answers. */
export function fromHundredths(hundredths: bigint): string {
  const whole = hundredths / 100n;
  const cents = hundredths % 100n;
  return `${whole}.${cents.toString().padStart(2, '0')}`;
}

/** A stored decimal string (or one we formatted) back in hundredths. */
export function toHundredths(value: string): bigint {
  const [whole, fraction = ''] = value.split('.');
  return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0').slice(0, 2));
}

function parse(value: unknown, kind: DecimalKind, field: string): string {
  const parsed = hundredthsOf(value, kind);
  if (typeof parsed === 'string') throw validationFailed([{ path: field, message: `${field} ${parsed}` }]);
  return fromHundredths(parsed);
}

/** An amount as `"250000.00"`; 400 VALIDATION_FAILED naming `field` otherwise. */
export const parseMoney = (value: unknown, field: string): string => parse(value, 'money', field);

/** A percent 0-100 as `"3.50"`; 400 VALIDATION_FAILED naming `field` otherwise. */
export const parsePercent = (value: unknown, field: string): string => parse(value, 'percent', field);

/** What the API answers: a two-decimal string, or null. PostgreSQL already gives `numeric(_, 2)` so. */
export const formatDecimal = (value: string | null): string | null =>
  value === null ? null : fromHundredths(toHundredths(value));

/** round(numerator / denominator) to the nearest whole, halves away from zero (all values ≥ 0). */
export const roundedQuotient = (numerator: bigint, denominator: bigint): bigint =>
  (numerator * 2n + denominator) / (denominator * 2n);
