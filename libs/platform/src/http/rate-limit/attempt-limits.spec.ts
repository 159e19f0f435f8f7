import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { Logger } from '@nestjs/common';
import type Redis from 'ioredis';
import { ManualClock, MINUTE } from '../../clock/clock';
import { AttemptLimits, rateLimited } from './attempt-limits';
import { limitedAddressOf } from './client-origin';
import { MemoryRateLimitStore, RateLimitStore, RedisRateLimitStore } from './rate-limit.store';

const AT = new Date('2027-01-04T09:07:30Z');

describe.each([
  ['memory', (clock: ManualClock) => new MemoryRateLimitStore(clock)],
  ['Redis', (clock: ManualClock) => new RedisRateLimitStore('redis://127.0.0.1:6379', clock)],
])('AttemptLimits over the %s store', (_, storeOf) => {
  let clock: ManualClock;
  let store: RateLimitStore;
  let limits: AttemptLimits;
  // a name of this run's own, so counters left in Redis by another run never meet it
  const windows = () => {
    const run = randomUUID();
    return [
      { key: `spec:${run}:short`, ttl: 15 * MINUTE, limit: 3 },
      { key: `spec:${run}:long`, ttl: 60 * MINUTE, limit: 5 },
    ];
  };

  beforeEach(async () => {
    clock = new ManualClock(AT);
    store = storeOf(clock);
    limits = new AttemptLimits(store);
    // the store falls back to memory until Redis answers: wait for it, so Redis is what is tested
    const redis = (store as unknown as { redis?: Redis }).redis;
    if (redis && redis.status !== 'ready') await once(redis, 'ready');
  });
  afterEach(() => (store as Partial<RedisRateLimitStore>).onApplicationShutdown?.());

  it('counts an attempt in every window and gives it back', async () => {
    const hits = windows();
    const first = await limits.take(hits);
    const second = await limits.take(hits);
    expect(second?.counts).toEqual([2, 2]);
    await second!.giveBack();
    expect((await limits.peek(hits))?.map((r) => r.totalHits)).toEqual([1, 1]);
    await first!.giveBack();
    await first!.giveBack(); // never below zero
    expect((await limits.peek(hits))?.map((r) => r.totalHits)).toEqual([0, 0]);
  });

  it('gives back into the window it was counted in, even after that window has passed', async () => {
    const hits = windows();
    const taken = await limits.take(hits);
    expect(taken?.records[0].resetAtMs).toBe(new Date('2027-01-04T09:15:00Z').getTime());
    clock.advance(8 * MINUTE); // the 15-minute window ended, the hour goes on
    await limits.take(hits);
    await taken!.giveBack();
    expect((await limits.peek(hits))?.map((r) => r.totalHits)).toEqual([1, 1]);
  });

  it('answers a refusal with Retry-After up to the end of the window', async () => {
    const hits = windows();
    const taken = await limits.take(hits);
    const err = rateLimited(taken!.records[0]);
    expect(err).toMatchObject({
      code: 'RATE_LIMITED',
      headers: {
        'Retry-After': '450',
        'X-RateLimit-Reset': String(Date.parse('2027-01-04T09:15:00Z') / 1000),
      },
    });
  });
});

describe('AttemptLimits when the store does not answer', () => {
  it('lets the attempt through, and logs it', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const store = new MemoryRateLimitStore(new ManualClock(AT));
    store.incrementAll = () => Promise.reject(new Error('connection refused'));
    const limits = new AttemptLimits(store);
    await expect(limits.take([{ key: 'k', ttl: MINUTE, limit: 1 }])).resolves.toBeNull();
    expect(warn).toHaveBeenCalledWith(expect.anything(), 'rate-limit store unavailable; attempt let through');
    warn.mockRestore();
  });
});

describe('limitedAddressOf', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::FFFF:203.0.113.7', '203.0.113.7'],
    ['2001:db8:85a3:8d3:1319:8a2e:370:7348', '2001:db8:85a3:8d3::/64'],
    ['2001:0db8:85a3:08d3:ffff:ffff:ffff:ffff', '2001:db8:85a3:8d3::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['2001:db8:0:0:1::', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['unknown', 'unknown'],
  ])('counts %s as %s', (ip, expected) => {
    expect(limitedAddressOf(ip)).toBe(expected);
  });

  it('gives every address of one /64 one counter', () => {
    const addresses = new Set(
      Array.from({ length: 50 }, (_, i) => limitedAddressOf(`2001:db8:1:2:${i.toString(16)}::${i + 1}`)),
    );
    expect([...addresses]).toEqual(['2001:db8:1:2::/64']);
  });
});
