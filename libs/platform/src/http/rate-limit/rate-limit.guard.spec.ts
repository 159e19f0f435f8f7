import { ExecutionContext, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { ManualClock } from '../../clock/clock';
import type { ApiKeyPrincipal, SessionPrincipal } from '../../auth/principal';
import { RateLimitGuard } from './rate-limit.guard';
import { RATE_LIMIT_THROTTLERS } from './rate-limit.module';
import { MemoryRateLimitStore, WindowHit } from './rate-limit.store';
import { SharedRateLimit } from './shared-rate-limit';
import { PublicPageRateLimit } from './public-page-rate-limit';

class Routes {
  plain(): void {}
  @SharedRateLimit('search')
  search(): void {}
  @PublicPageRateLimit()
  page(): void {}
}

const KEY: ApiKeyPrincipal = {
  kind: 'apiKey',
  keyId: 'k1',
  keyName: 'k',
  prefixHint: null,
  scopes: ['crm:read'],
  expiresAt: null,
  rateLimitPerMinute: null,
  userId: 'u1',
  organizationId: 'o1',
  role: 'admin',
  planActive: true,
};
const SESSION: SessionPrincipal = {
  kind: 'session',
  sessionId: 's1',
  expiresAt: new Date(),
  userId: 'u1',
  organizationId: 'o1',
  role: 'admin',
  planActive: true,
};

const call = (
  principal: ApiKeyPrincipal | SessionPrincipal | undefined,
  handler: keyof Routes = 'plain',
  ip = '203.0.113.7',
) => {
  const headers: Record<string, string> = {};
  const req = { method: 'GET', route: { path: '/v1/things/:id' }, path: '/v1/things/7', principal, ip };
  const res = { setHeader: (name: string, value: string) => (headers[name] = value) };
  const ctx = new ExecutionContextHost([req, res], Routes, Routes.prototype[handler]) as ExecutionContext;
  return { ctx, headers };
};

describe('RateLimitGuard', () => {
  let store: MemoryRateLimitStore;
  let guard: RateLimitGuard;
  let batches: WindowHit[][];

  beforeEach(async () => {
    store = new MemoryRateLimitStore(new ManualClock(new Date('2027-01-04T09:00:05Z')));
    batches = [];
    const incrementAll = store.incrementAll.bind(store);
    store.incrementAll = (hits) => {
      batches.push(hits);
      return incrementAll(hits);
    };
    guard = new RateLimitGuard({ throttlers: RATE_LIMIT_THROTTLERS }, store, new Reflector());
    await guard.onModuleInit();
  });

  it('counts every window of a call in one store call, per key and route template', async () => {
    const { ctx, headers } = call(KEY);
    await expect(guard.canActivate(ctx)).resolves.toBe(true);
    expect(batches).toHaveLength(1);
    expect(batches[0].map((hit) => hit.key).sort()).toEqual([
      'k1:GET /v1/things/:id:long',
      'k1:GET /v1/things/:id:medium',
      'k1:GET /v1/things/:id:short',
    ]);
    expect(headers).toEqual({
      'X-RateLimit-Limit-short': '120',
      'X-RateLimit-Remaining-short': '119',
      'X-RateLimit-Limit-medium': '600',
      'X-RateLimit-Remaining-medium': '599',
      'X-RateLimit-Limit-long': '3000',
      'X-RateLimit-Remaining-long': '2999',
    });
  });

  it('adds the shared limit, per key and per organization, on a route that names it, without headers', async () => {
    const { ctx, headers } = call(KEY, 'search');
    await guard.canActivate(ctx);
    expect(batches).toHaveLength(1);
    const shared = batches[0].filter((hit) => hit.key.startsWith('shared:'));
    expect(shared.map(({ key, ttl, limit }) => ({ key, ttl, limit }))).toEqual([
      { key: 'shared:search:key:k1', ttl: 60_000, limit: 30 },
      { key: 'shared:search:org:o1', ttl: 60_000, limit: 30 },
    ]);
    expect(Object.keys(headers)).toHaveLength(6);
  });

  it('leaves session callers alone', async () => {
    await expect(guard.canActivate(call(SESSION).ctx)).resolves.toBe(true);
    expect(batches).toHaveLength(0);
  });

  it('lets the call through when the store does not answer, and logs it', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    store.incrementAll = () => Promise.reject(new Error('connection refused'));
    const { ctx, headers } = call(KEY);
    await expect(guard.canActivate(ctx)).resolves.toBe(true);
    expect(headers).toEqual({});
    expect(warn).toHaveBeenCalledWith(expect.anything(), 'rate-limit store unavailable; call let through');
    warn.mockRestore();
  });

  it('reports the budget of a refused call without spending it', async () => {
    const { ctx, headers } = call(KEY);
    await guard.refused(ctx, KEY);
    await guard.refused(ctx, KEY);
    expect(headers['X-RateLimit-Remaining-short']).toBe('120');
    expect(batches).toHaveLength(0);
  });

  it('counts a public page per client IP only, without headers, and refuses the 61st call of the minute', async () => {
    const { ctx, headers } = call(undefined, 'page');
    await expect(guard.canActivate(ctx)).resolves.toBe(true);
    expect(batches[0].map(({ key, ttl, limit }) => ({ key, ttl, limit }))).toEqual([
      { key: 'public-page:ip:203.0.113.7', ttl: 60_000, limit: 60 },
    ]);
    expect(headers).toEqual({});
    for (let i = 1; i < 60; i += 1) await guard.canActivate(call(undefined, 'page').ctx);
    await expect(guard.canActivate(call(undefined, 'page').ctx)).rejects.toMatchObject({
      code: 'RATE_LIMITED',
    });
    await expect(guard.canActivate(call(undefined, 'page', '203.0.113.8').ctx)).resolves.toBe(true);
    // a public route without the decorator is not limited
    batches = [];
    await expect(guard.canActivate(call(undefined).ctx)).resolves.toBe(true);
    expect(batches).toHaveLength(0);
  });
});
