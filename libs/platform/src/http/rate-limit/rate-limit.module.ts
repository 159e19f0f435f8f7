import { DynamicModule, ExecutionContext, Module } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ThrottlerModule, ThrottlerOptions } from '@nestjs/throttler';
import { Clock, HOUR, MINUTE } from '../../clock/clock';
import { Metrics } from '../../metrics/metrics';
import { AppConfig } from '../../config/app-config';
import { AuthedRequest } from '../../auth/access.decorators';
import { ApiKeyPrincipal } from '../../auth/principal';
import { MemoryRateLimitStore, RedisRateLimitStore } from './rate-limit.store';
import { SHARED_LIMIT, SHARED_LIMITS, SharedLimitName } from './shared-rate-limit';
import { clientIpOf, PUBLIC_PAGE_LIMIT, PUBLIC_PAGE_LIMITED } from './public-page-rate-limit';
import { PUBLIC_ROUTE_THROTTLERS } from './public-route-rate-limit';
import { AttemptLimits } from './attempt-limits';

/** Spec Limits: per key per endpoint, 120/min, 600/10 min, 3,000/h. */
export const RATE_WINDOWS = [
  { name: 'short', ttl: MINUTE, limit: 120 },
  { name: 'medium', ttl: 10 * MINUTE, limit: 600 },
  { name: 'long', ttl: HOUR, limit: 3000 },
] as const;

/**
 * INTERFACES.md "Ingestion": per integration key across all its routes, 600/min, 3,000/10 min,
 * 15,000/h; the same window names, so the same headers.
 */
export const INTEGRATION_RATE_WINDOWS = [
  { name: 'short', ttl: MINUTE, limit: 600 },
  { name: 'medium', ttl: 10 * MINUTE, limit: 3000 },
  { name: 'long', ttl: HOUR, limit: 15000 },
] as const;

/** The guard skips every call that is neither a key's nor a public page's; a key's throttlers skip public pages. */
const keyOf = (req: AuthedRequest): ApiKeyPrincipal => req.principal as ApiKeyPrincipal;
const keyless = (ctx: ExecutionContext): boolean => {
  const req = ctx.switchToHttp().getRequest<AuthedRequest>();
  return !req.integration && req.principal?.kind !== 'apiKey';
};

/** A key's raised per-minute limit scales all three windows; an integration key has its own. */
const scaled = (limit: number, integrationLimit: number) => (ctx: ExecutionContext) => {
  const req = ctx.switchToHttp().getRequest<AuthedRequest>();
  if (req.integration) return integrationLimit;
  const perMinute = keyOf(req).rateLimitPerMinute;
  const factor = (perMinute ?? RATE_WINDOWS[0].limit) / RATE_WINDOWS[0].limit;
  return Math.max(1, Math.round(limit * factor));
};

const reflector = new Reflector();

/**
 * A shared limit's figure for this call: `search` takes the organization's when operators set one
 * (`npm run ops -- search-rate`, carried on the key's principal), else the default.
 */
export const sharedLimitOf =
  (name: SharedLimitName) =>
  (ctx: ExecutionContext): number => {
    const req = ctx.switchToHttp().getRequest<AuthedRequest>();
    const raised = name === 'search' ? keyOf(req)?.searchRatePerMinute : undefined;
    return raised ?? SHARED_LIMITS[name].perMinute;
  };

/** A shared limit counts on the routes that name it, across them, once per key and once per agency. */
const sharedThrottlers = (name: SharedLimitName): ThrottlerOptions[] => {
  const shared = {
    ttl: MINUTE,
    limit: sharedLimitOf(name),
    setHeaders: false,
    skipIf: (ctx: ExecutionContext) => keyless(ctx) || reflector.get(SHARED_LIMIT, ctx.getHandler()) !== name,
  };
  return [
    {
      ...shared,
      name: `${name}-key`,
      getTracker: (req: AuthedRequest) => keyOf(req).keyId,
      generateKey: (_ctx, tracker) => `shared:${name}:key:${tracker}`,
    },
    {
      ...shared,
      name: `${name}-org`,
      getTracker: (req: AuthedRequest) => keyOf(req).organizationId,
      generateKey: (_ctx, tracker) => `shared:${name}:org:${tracker}`,
    },
  ];
};

/** `@PublicPageRateLimit()` routes: one window per client IP across all of them, no budget headers. */
const publicPageThrottler: ThrottlerOptions = {
  name: 'public-page',
  ttl: MINUTE,
  limit: PUBLIC_PAGE_LIMIT.perMinute,
  setHeaders: false,
  skipIf: (ctx: ExecutionContext) => reflector.get(PUBLIC_PAGE_LIMITED, ctx.getHandler()) !== true,
  getTracker: (req: Parameters<typeof clientIpOf>[0]) => clientIpOf(req),
  generateKey: (_ctx, tracker) => `public-page:ip:${tracker}`,
};

export const RATE_LIMIT_THROTTLERS: ThrottlerOptions[] = [
  ...RATE_WINDOWS.map(({ name, ttl, limit }, i) => ({
    name,
    ttl,
    limit: scaled(limit, INTEGRATION_RATE_WINDOWS[i].limit),
    skipIf: keyless,
  })),
  ...(Object.keys(SHARED_LIMITS) as SharedLimitName[]).flatMap(sharedThrottlers),
  publicPageThrottler,
  ...PUBLIC_ROUTE_THROTTLERS,
];

/**
 * The throttler's configuration and storage: Redis with REDIS_URL, memory otherwise; `AttemptLimits`
 * counts in the same storage, for any context (global).
 */
@Module({})
export class RateLimitModule {
  static forRoot(): DynamicModule {
    return {
      module: RateLimitModule,
      global: true,
      providers: [AttemptLimits],
      exports: [AttemptLimits],
      imports: [
        ThrottlerModule.forRootAsync({
          inject: [AppConfig, Clock, Metrics],
          useFactory: (config: AppConfig, clock: Clock, metrics: Metrics) => ({
            throttlers: RATE_LIMIT_THROTTLERS,
            storage: config.redisUrl
              ? new RedisRateLimitStore(config.redisUrl, clock, () => metrics.rateLimitFallbacks.inc())
              : new MemoryRateLimitStore(clock),
          }),
        }),
      ],
    };
  }
}
