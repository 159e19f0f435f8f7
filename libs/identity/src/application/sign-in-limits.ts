import { Injectable, Optional } from '@nestjs/common';
import {
  AttemptLimits,
  DomainError,
  MINUTE,
  rateLimited,
  sha256,
  type AttemptWindow,
  type TakenAttempt,
} from '@app/platform';
import { normalizeEmail } from '../domain/user.entity';

/** Failed sign-ins counted in fixed 15-minute windows (docs/decisions/0010-failed-sign-in-limits.md). */
export const SIGN_IN_LIMITS = {
  windowMs: 15 * MINUTE,
  /** Failures for one email from one address: one person's typos, or one attacker's guesses. */
  perEmailAndAddress: 10,
  /** Failures from one address, whatever the emails: a shared office address has room for a few people. */
  perAddress: 30,
  /** Failures for one email from every address; past it, an address that has failed for it waits. */
  perEmail: 100,
} as const;

/** Which limit refused a sign-in, for the log line. */
export type SignInLimit = 'email-and-address' | 'address' | 'email';

export const TOO_MANY_FAILED_SIGN_INS = 'Too many failed sign-ins; wait Retry-After seconds.';

/** A sign-in under way: counted as failed from the start, so two at once cannot both slip past a limit. */
export interface SignInAttempt {
  failed(): Promise<void>;
  succeeded(): Promise<void>;
}

const UNCOUNTED: SignInAttempt = { failed: async () => undefined, succeeded: async () => undefined };

/** A sign-in refused before the password is read: which limit (for the log line) and the 429. */
export interface SignInRefusal {
  refusedBy: SignInLimit;
  error: DomainError;
}

/**
 * Failed sign-ins, limited per email and address, per address and per email (`SIGN_IN_LIMITS`).
 * Only failures count, and every limit refuses only an address that has itself failed: the right
 * password from an address that has not failed is never refused, so nobody can lock a person out.
 * Counted in the platform's rate-limit store (Redis with `REDIS_URL`); the email only as a hash.
 */
@Injectable()
export class SignInLimits {
  // the API always has the store; a process without it (the worker, the CLI) serves no sign-in
  constructor(@Optional() private readonly attempts?: AttemptLimits) {}

  /** The attempt, counted as failed until it succeeds; or the refusal when this address may not try this email now. */
  async begin(email: string, address: string): Promise<SignInAttempt | SignInRefusal> {
    if (!this.attempts) return UNCOUNTED;
    const emailKey = sha256(normalizeEmail(email));
    const ttl = SIGN_IN_LIMITS.windowMs;
    const pair: AttemptWindow = {
      key: `sign-in-failed:email-address:${emailKey}:${address}`,
      ttl,
      limit: SIGN_IN_LIMITS.perEmailAndAddress,
    };
    const fromAddress: AttemptWindow = {
      key: `sign-in-failed:address:${address}`,
      ttl,
      limit: SIGN_IN_LIMITS.perAddress,
    };
    const forEmail: AttemptWindow = {
      key: `sign-in-failed:email:${emailKey}`,
      ttl,
      limit: SIGN_IN_LIMITS.perEmail,
    };
    const [taken, emailRecords] = await Promise.all([
      this.attempts.take([pair, fromAddress]),
      this.attempts.peek([forEmail]),
    ]);
    if (!taken) return UNCOUNTED;
    const refusedBy = this.refusal(taken, emailRecords?.[0]?.totalHits ?? 0);
    if (refusedBy) {
      // a refused attempt read no password: it is no failure
      await taken.giveBack();
      const record =
        refusedBy === 'email' && emailRecords
          ? emailRecords[0]
          : taken.records[refusedBy === 'address' ? 1 : 0];
      return { refusedBy, error: rateLimited(record, TOO_MANY_FAILED_SIGN_INS) };
    }
    return {
      failed: async () => {
        await this.attempts?.take([forEmail]);
      },
      succeeded: () => taken.giveBack(),
    };
  }

  /**
   * Counts include this attempt. The email's ceiling holds back only an address that failed for
   * that email before (its pair count was already 1 or more).
   */
  private refusal(taken: TakenAttempt, emailFailures: number): SignInLimit | null {
    const [pairCount, addressCount] = taken.counts;
    if (pairCount > SIGN_IN_LIMITS.perEmailAndAddress) return 'email-and-address';
    if (addressCount > SIGN_IN_LIMITS.perAddress) return 'address';
    if (emailFailures >= SIGN_IN_LIMITS.perEmail && pairCount > 1) return 'email';
    return null;
  }
}
