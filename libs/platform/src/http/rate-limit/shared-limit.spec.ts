import type { ExecutionContext } from '@nestjs/common';
import { RATE_LIMIT_THROTTLERS, sharedLimitOf } from './rate-limit.module';

const callBy = (principal: Record<string, unknown>) =>
  ({ switchToHttp: () => ({ getRequest: () => ({ principal }) }) }) as unknown as ExecutionContext;

describe('the shared search limit', () => {
  const key = { kind: 'apiKey', keyId: 'k1', organizationId: 'o1', rateLimitPerMinute: null };

  it("is 30 a minute unless the key's organization has a figure of its own", () => {
    expect(sharedLimitOf('search')(callBy(key))).toBe(30);
    expect(sharedLimitOf('search')(callBy({ ...key, searchRatePerMinute: null }))).toBe(30);
    expect(sharedLimitOf('search')(callBy({ ...key, searchRatePerMinute: 600 }))).toBe(600);
  });

  it('both search throttlers, per key and per organization, take that figure', async () => {
    const search = RATE_LIMIT_THROTTLERS.filter((t) => t.name?.startsWith('search-'));
    expect(search.map((t) => t.name)).toEqual(['search-key', 'search-org']);
    for (const throttler of search) {
      const limit = throttler.limit as (ctx: ExecutionContext) => number;
      expect(limit(callBy({ ...key, searchRatePerMinute: 240 }))).toBe(240);
      expect(limit(callBy(key))).toBe(30);
    }
  });
});
