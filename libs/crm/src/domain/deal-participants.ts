import type { ValidationIssue } from '@app/platform/core';
import { decimalIssue, fromHundredths, toHundredths } from './money';

export const PARTICIPANT_ROLES = ['listing', 'selling', 'referral', 'other'] as const;
export type ParticipantRole = (typeof PARTICIPANT_ROLES)[number];
export const MAX_PARTICIPANTS = 10;

export interface ParticipantInput {
  userId: string;
  role: ParticipantRole;
  /** Already a two-decimal string (money.ts `parsePercent`). */
  percent: string;
}

/**
 * Spec (INTERFACES.md "Deals", participants): the full new list, at most 10 rows, no repeated
 * `(userId, role)`, the percents adding up to at most 100; `memberIds` are those of the rows'
 * people who belong to the organization. The issues, empty when the list is acceptable.
 */
export function participantIssues(rows: ParticipantInput[], memberIds: Set<string>): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (rows.length > MAX_PARTICIPANTS) {
    issues.push({ path: 'participants', message: `participants must have at most ${MAX_PARTICIPANTS} rows` });
  }
  const seen = new Set<string>();
  rows.forEach((row, i) => {
    if (!memberIds.has(row.userId)) {
      issues.push({ path: `participants.${i}.userId`, message: 'is not a member of this organization' });
    }
    const pair = `${row.userId}/${row.role}`;
    if (seen.has(pair)) {
      issues.push({ path: `participants.${i}`, message: 'repeats the userId and role of an earlier row' });
    }
    seen.add(pair);
  });
  const sum = rows.reduce((total, row) => total + toHundredths(row.percent), 0n);
  if (sum > 10_000n) {
    issues.push({
      path: 'participants',
      message: `participants' percents add up to ${fromHundredths(sum)}, more than 100`,
    });
  }
  return issues;
}

/** For the DTO: a row's percent is a decimal 0-100 with at most 2 decimals. */
export const participantPercentIssue = (value: unknown): string | null => decimalIssue(value, 'percent');
