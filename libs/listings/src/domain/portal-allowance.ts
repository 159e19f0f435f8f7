import { DAY, DomainError } from '@app/platform/core';

/**
 * The daily portal allowance (spec "Daily portal allowance", INTERFACES.md "Listings"): 300
 * upstream portal calls per organization per UTC day, shared by every key and route; cached
 * answers, `internal` and feeds never count. Pure: the day, its reset and the refusal.
 */
export const PORTAL_DAILY_ALLOWANCE = 300;

/** The allowance day `now` falls in: its UTC date, `YYYY-MM-DD`. */
export const allowanceDay = (now: Date): string => now.toISOString().slice(0, 10);

/** The next UTC midnight after `now`, when a new allowance day starts. */
export const allowanceResetsAt = (now: Date): Date =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + DAY);

/** What an answer shows of the allowance. */
export interface AllowanceState {
  used: number;
  limit: number;
  /** ISO 8601, the next UTC midnight. */
  resetsAt: string;
}

export const allowanceState = (used: number, now: Date): AllowanceState => ({
  used,
  limit: PORTAL_DAILY_ALLOWANCE,
  resetsAt: allowanceResetsAt(now).toISOString(),
});

/**
 * The allowance cannot cover the upstream calls a request needs; none of them was reserved. It is
 * 429 DAILY_LIMIT_REACHED (with `Retry-After` until the reset), the `/v1` answer; the
 * `/property-sources` routes answer it as 400 PROPERTY_PORTAL_QUOTA_EXHAUSTED instead.
 */
export class PortalAllowanceExhausted extends DomainError {
  constructor(
    readonly used: number,
    readonly needed: number,
    now: Date,
  ) {
    const resetsAt = allowanceResetsAt(now);
    super(
      'DAILY_LIMIT_REACHED',
      `The daily portal allowance of ${PORTAL_DAILY_ALLOWANCE} calls is used up; it resets at ${resetsAt.toISOString()}.`,
      { used, limit: PORTAL_DAILY_ALLOWANCE, needed, resetsAt: resetsAt.toISOString() },
      { 'Retry-After': String(Math.max(1, Math.ceil((resetsAt.getTime() - now.getTime()) / 1000))) },
    );
    this.name = 'PortalAllowanceExhausted';
  }
}
