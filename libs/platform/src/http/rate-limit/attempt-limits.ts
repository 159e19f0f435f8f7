import { Injectable, Logger } from '@nestjs/common';
import { InjectThrottlerStorage } from '@nestjs/throttler';
import { DomainError } from '../../errors/domain-error';
import { RateLimitStore, WindowHit, WindowRecord } from './rate-limit.store';

/** One counter of attempts: its name (no secret, no personal data in it), window length (ms) and limit. */
export type AttemptWindow = WindowHit;

/** The counts of one `take`, and how to take them back. */
export interface TakenAttempt {
  /** Each window's count with this attempt in it, in the order given. */
  readonly counts: number[];
  /** Each window's record (`resetAtMs`, seconds to its end). */
  readonly records: WindowRecord[];
  /** Takes this attempt back out of every window it was counted in (it turned out not to count). */
  giveBack(): Promise<void>;
}

/** 429 RATE_LIMITED with `Retry-After` and `X-RateLimit-Reset`, as the rate-limit guard answers. */
export const rateLimited = (
  record: Pick<WindowRecord, 'timeToExpire' | 'resetAtMs'>,
  message = 'Too many requests; wait Retry-After seconds.',
): DomainError =>
  new DomainError('RATE_LIMITED', message, undefined, {
    'Retry-After': String(record.timeToExpire),
    'X-RateLimit-Reset': String(Math.ceil(record.resetAtMs / 1000)),
  });

/**
 * Counters of attempts in fixed windows, for limits a context decides after the outcome (failed
 * sign-ins): in the rate-limit store, so in Redis with `REDIS_URL` (shared by every process) and in
 * memory otherwise. An attempt is counted before it runs (two at once cannot both see a free
 * window) and given back when it turns out not to count. A store that does not answer lets the
 * attempt through (logged): limits protect, they never break.
 */
@Injectable()
export class AttemptLimits {
  private readonly log = new Logger('RateLimit');

  constructor(@InjectThrottlerStorage() private readonly store: RateLimitStore) {}

  /** Counts one attempt in every window, one round trip; null when the store does not answer. */
  async take(windows: AttemptWindow[]): Promise<TakenAttempt | null> {
    const records = await this.store.incrementAll(windows).catch((err: unknown) => this.unavailable(err));
    if (!records) return null;
    return {
      counts: records.map((record) => record.totalHits),
      records,
      giveBack: () =>
        this.store.decrementAll(windows, records).catch((err: unknown) => {
          this.unavailable(err);
        }),
    };
  }

  /** The current counts, spending nothing; null when the store does not answer. */
  async peek(windows: AttemptWindow[]): Promise<WindowRecord[] | null> {
    return this.store.peekAll(windows).catch((err: unknown) => this.unavailable(err));
  }

  private unavailable(err: unknown): null {
    this.log.warn({ err: String(err) }, 'rate-limit store unavailable; attempt let through');
    return null;
  }
}
