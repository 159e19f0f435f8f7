import { Logger, OnApplicationShutdown } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import Redis from 'ioredis';
import { Clock } from '../../clock/clock';

/** One window of one named throttler, as the guard resolved it for a call. */
export interface WindowHit {
  /** Counter name, without the window start. */
  key: string;
  /** Window length, ms. */
  ttl: number;
  limit: number;
}

/** What the throttler's storage answers for one window (the package does not export the name). */
type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

export interface WindowRecord extends ThrottlerStorageRecord {
  /** When the window ends (epoch ms): `X-RateLimit-Reset`. */
  resetAtMs: number;
}

/**
 * The throttler's storage, with fixed windows (a refused key waits for its window to end, so
 * `blockDuration` is the rest of the window). The guard counts every window of a call with one
 * `incrementAll`, one round trip; `increment` is the throttler's one-window form of it.
 */
export abstract class RateLimitStore implements ThrottlerStorage {
  constructor(private readonly clock: Clock) {}

  /** Counts the call in every window. */
  abstract incrementAll(hits: WindowHit[]): Promise<WindowRecord[]>;
  /** The current counts, spending nothing (for answers to refused calls). */
  abstract peekAll(hits: WindowHit[]): Promise<WindowRecord[]>;
  /**
   * Takes one count back from each window `incrementAll` answered `counted` for (an attempt
   * counted before its outcome was known that turned out not to count); a window gone stays gone.
   */
  abstract decrementAll(hits: WindowHit[], counted: WindowRecord[]): Promise<void>;

  async increment(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    const [record] = await this.incrementAll([{ key, ttl, limit }]);
    return record;
  }

  /** Each hit's counter name in the current window, and when that window ends. */
  protected windows(hits: WindowHit[]): { nowMs: number; names: string[]; resetsAtMs: number[] } {
    const nowMs = this.clock.now().getTime();
    const starts = hits.map((hit) => Math.floor(nowMs / hit.ttl) * hit.ttl);
    return {
      nowMs,
      names: hits.map((hit, i) => `${hit.key}:${starts[i]}`),
      resetsAtMs: hits.map((hit, i) => starts[i] + hit.ttl),
    };
  }

  /** The counter names of the windows `incrementAll` answered `counted` for. */
  protected countedNames(hits: WindowHit[], counted: WindowRecord[]): string[] {
    return hits.map((hit, i) => `${hit.key}:${counted[i].resetAtMs - hit.ttl}`);
  }

  protected record(hit: WindowHit, totalHits: number, resetAtMs: number, nowMs: number): WindowRecord {
    const timeToExpire = Math.max(1, Math.ceil((resetAtMs - nowMs) / 1000));
    const isBlocked = totalHits > hit.limit;
    return { totalHits, timeToExpire, isBlocked, timeToBlockExpire: isBlocked ? timeToExpire : 0, resetAtMs };
  }
}

/** Single-node mode (no REDIS_URL). */
export class MemoryRateLimitStore extends RateLimitStore {
  private readonly counters = new Map<string, { count: number; resetAtMs: number }>();
  private sweptAt = 0;

  async incrementAll(hits: WindowHit[]): Promise<WindowRecord[]> {
    const { nowMs, names, resetsAtMs } = this.windows(hits);
    this.sweep(nowMs);
    return hits.map((hit, i) => {
      const counter = this.counters.get(names[i]) ?? { count: 0, resetAtMs: resetsAtMs[i] };
      counter.count += 1;
      this.counters.set(names[i], counter);
      return this.record(hit, counter.count, resetsAtMs[i], nowMs);
    });
  }

  async peekAll(hits: WindowHit[]): Promise<WindowRecord[]> {
    const { nowMs, names, resetsAtMs } = this.windows(hits);
    return hits.map((hit, i) =>
      this.record(hit, this.counters.get(names[i])?.count ?? 0, resetsAtMs[i], nowMs),
    );
  }

  async decrementAll(hits: WindowHit[], counted: WindowRecord[]): Promise<void> {
    for (const name of this.countedNames(hits, counted)) {
      const counter = this.counters.get(name);
      if (counter && counter.count > 0) counter.count -= 1;
    }
  }

  private sweep(nowMs: number): void {
    if (nowMs - this.sweptAt < 60_000) return;
    this.sweptAt = nowMs;
    for (const [name, counter] of this.counters) if (counter.resetAtMs <= nowMs) this.counters.delete(name);
  }
}

const INCREMENT_ALL = `
local out = {}
for i, key in ipairs(KEYS) do
  local count = redis.call('INCR', key)
  if count == 1 then redis.call('PEXPIRE', key, ARGV[i]) end
  out[i] = count
end
return out`;

const DECREMENT_ALL = `
for _, key in ipairs(KEYS) do
  if tonumber(redis.call('GET', key) or '0') > 0 then redis.call('DECR', key) end
end
return 0`;

/** A Redis command that takes longer is given up: the door never waits on Redis for more. */
export const REDIS_COMMAND_TIMEOUT_MS = 250;

/**
 * Shared counters, so every API process sees the same budget: one Lua script per call. When Redis
 * does not answer within REDIS_COMMAND_TIMEOUT_MS (down, paused, out of memory), this process
 * counts in memory until it answers again: limits stay per process for that time instead of
 * stalling or dropping. Logged once when it starts and once when it ends; each call counted in
 * memory is counted in `rate_limit_store_fallbacks_total`.
 */
export class RedisRateLimitStore extends RateLimitStore implements OnApplicationShutdown {
  private readonly redis: Redis;
  private readonly fallback: MemoryRateLimitStore;
  private readonly log = new Logger('RateLimit');
  private degradedSince: number | null = null;

  constructor(
    url: string,
    clock: Clock,
    private readonly onFallback: () => void = () => undefined,
  ) {
    super(clock);
    this.fallback = new MemoryRateLimitStore(clock);
    this.redis = new Redis(url, {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
      lazyConnect: false,
    });
    // connection errors surface as failed commands (below); the client reconnects by itself
    this.redis.on('error', () => undefined);
  }

  incrementAll(hits: WindowHit[]): Promise<WindowRecord[]> {
    return this.orInMemory(
      async () => {
        const { nowMs, names, resetsAtMs } = this.windows(hits);
        const counts = (await this.redis.eval(
          INCREMENT_ALL,
          names.length,
          ...names.map((name) => `rl:${name}`),
          ...hits.map((hit) => String(hit.ttl)),
        )) as number[];
        return hits.map((hit, i) => this.record(hit, Number(counts[i]), resetsAtMs[i], nowMs));
      },
      () => this.fallback.incrementAll(hits),
    );
  }

  peekAll(hits: WindowHit[]): Promise<WindowRecord[]> {
    return this.orInMemory(
      async () => {
        const { nowMs, names, resetsAtMs } = this.windows(hits);
        const counts = await this.redis.mget(...names.map((name) => `rl:${name}`));
        return hits.map((hit, i) => this.record(hit, Number(counts[i] ?? 0), resetsAtMs[i], nowMs));
      },
      () => this.fallback.peekAll(hits),
    );
  }

  decrementAll(hits: WindowHit[], counted: WindowRecord[]): Promise<void> {
    return this.orInMemory(
      async () => {
        const names = this.countedNames(hits, counted);
        await this.redis.eval(DECREMENT_ALL, names.length, ...names.map((name) => `rl:${name}`));
      },
      () => this.fallback.decrementAll(hits, counted),
    );
  }

  onApplicationShutdown(): void {
    this.redis.disconnect();
  }

  private async orInMemory<T>(shared: () => Promise<T>, local: () => Promise<T>): Promise<T> {
    try {
      const result = await shared();
      if (this.degradedSince !== null) {
        this.log.warn(
          { seconds: Math.round((Date.now() - this.degradedSince) / 1000) },
          'Redis answers again; rate limits shared again',
        );
        this.degradedSince = null;
      }
      return result;
    } catch (err) {
      if (this.degradedSince === null) {
        this.degradedSince = Date.now();
        this.log.warn({ err: String(err) }, 'Redis does not answer; rate limits counted in this process');
      }
      this.onFallback();
      return local();
    }
  }
}
