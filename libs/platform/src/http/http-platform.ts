import { Provider } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { AccessGuard } from '../auth/access.guard';
import { AppConfig } from '../config/app-config';
import { NoBodyGuard } from './body-rules';
import { IdempotencyInterceptor } from './idempotency/idempotency.interceptor';
import { IdempotencyStore } from './idempotency/idempotency.store';
import { ErrorEnvelopeFilter } from './error-envelope.filter';
import { RateLimitGuard, RateLimiter } from './rate-limit/rate-limit.guard';
import { MemoryRateLimitStore, RateLimitStore, RedisRateLimitStore } from './rate-limit/rate-limit.store';
import { RequestValidationPipe } from './validation.pipe';

/**
 * The global pieces of the HTTP pipeline, for the API's root module. Guard order is provider
 * order: body rules, then access (credential, key rules, scopes, admin, plan), then rate limits.
 */
export const HTTP_PLATFORM_PROVIDERS: Provider[] = [
  { provide: APP_FILTER, useClass: ErrorEnvelopeFilter },
  { provide: APP_PIPE, useClass: RequestValidationPipe },
  { provide: APP_GUARD, useClass: NoBodyGuard },
  { provide: APP_GUARD, useClass: AccessGuard },
  { provide: APP_GUARD, useClass: RateLimitGuard },
  RateLimiter,
  { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
  IdempotencyStore,
  {
    provide: RateLimitStore,
    inject: [AppConfig],
    useFactory: (config: AppConfig) =>
      config.redisUrl ? new RedisRateLimitStore(config.redisUrl) : new MemoryRateLimitStore(),
  },
];
