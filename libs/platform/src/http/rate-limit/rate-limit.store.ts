import { Logger, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';

export interface WindowHit {
  /** Counter name, without the window start. */
  key: string;
  windowMs: number;
}

export interface WindowCount {
  count: number;
  resetAtMs: number;
}

/** Fixed-window counters: one increment per window per call, all windows in one round trip. */
export abstract class RateLimitStore {
  abstract hit(hits: WindowHit[], nowMs: number): Promise<WindowCount[]>;
  /** The current counts, spending nothing (for answers to refused calls). */
  abstract peek(hits: WindowHit[], nowMs: number): Promise<WindowCount[]>;
}

const windowOf = (hit: WindowHit, nowMs: number) => {
  const start = Math.floor(nowMs / hit.windowMs) * hit.windowMs;
  return { name: `${hit.key}:${start}`, resetAtMs: start + hit.windowMs };
};

/** Single-node mode (no REDIS_URL). */
export class MemoryRateLimitStore extends RateLimitStore {
  private readonly counters = new Map<string, WindowCount>();
  private sweptAt = 0;

  async hit(hits: WindowHit[], nowMs: number): Promise<WindowCount[]> {
    this.sweep(nowMs);
    return hits.map((hit) => {
      const { name, resetAtMs } = windowOf(hit, nowMs);
      const counter = this.counters.get(name) ?? { count: 0, resetAtMs };
      counter.count += 1;
      this.counters.set(name, counter);
      return { ...counter };
    });
  }

  async peek(hits: WindowHit[], nowMs: number): Promise<WindowCount[]> {
    return hits.map((hit) => {
      const { name, resetAtMs } = windowOf(hit, nowMs);
      return { count: this.counters.get(name)?.count ?? 0, resetAtMs };
    });
  }

  private sweep(nowMs: number): void {
    if (nowMs - this.sweptAt < 60_000) return;
    this.sweptAt = nowMs;
    for (const [name, counter] of this.counters) if (counter.resetAtMs <= nowMs) this.counters.delete(name);
  }
}

const HIT_SCRIPT = `
local out = {}
for i, key in ipairs(KEYS) do
  local count = redis.call('INCR', key)
  if count == 1 then redis.call('PEXPIRE', key, ARGV[i]) end
  out[i] = count
end
return out`;

/** Shared counters, so every API process sees the same budget. */
export class RedisRateLimitStore extends RateLimitStore implements OnApplicationShutdown {
  private readonly redis: Redis;

  constructor(url: string) {
    super();
    this.redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false });
    this.redis.on('error', (err) => new Logger('RateLimit').warn(String(err)));
  }

  async hit(hits: WindowHit[], nowMs: number): Promise<WindowCount[]> {
    const windows = hits.map((hit) => windowOf(hit, nowMs));
    const counts = (await this.redis.eval(
      HIT_SCRIPT,
      windows.length,
      ...windows.map((w) => `rl:${w.name}`),
      ...hits.map((hit) => String(hit.windowMs)),
    )) as number[];
    return windows.map((w, i) => ({ count: Number(counts[i]), resetAtMs: w.resetAtMs }));
  }

  async peek(hits: WindowHit[], nowMs: number): Promise<WindowCount[]> {
    const windows = hits.map((hit) => windowOf(hit, nowMs));
    const counts = await this.redis.mget(...windows.map((w) => `rl:${w.name}`));
    return windows.map((w, i) => ({ count: Number(counts[i] ?? 0), resetAtMs: w.resetAtMs }));
  }

  onApplicationShutdown(): void {
    this.redis.disconnect();
  }
}
