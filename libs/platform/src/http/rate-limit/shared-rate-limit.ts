import { Reflector } from '@nestjs/core';
import { ApiExtension } from '@nestjs/swagger';

/** Named limits shared across endpoints, per key and per organization (semantic search). */
export const SHARED_LIMITS = {
  search: { perMinute: 30 },
} as const;
export type SharedLimitName = keyof typeof SHARED_LIMITS;

export const SHARED_LIMIT = Reflector.createDecorator<SharedLimitName>();

/**
 * Also counts against the named shared limit (`search`: 30/min per key and per organization,
 * unless operators set the organization's own figure with `npm run ops -- search-rate`).
 */
export const SharedRateLimit =
  (name: SharedLimitName) => (target: object, key?: string | symbol, descriptor?: PropertyDescriptor) => {
    SHARED_LIMIT(name)(target, key as string, descriptor as PropertyDescriptor);
    const perMinute = SHARED_LIMITS[name].perMinute;
    ApiExtension('x-shared-rate-limit', {
      name,
      perMinute,
      description:
        `Shared by every route of the "${name}" limit: ${perMinute} calls a minute per key and ${perMinute} ` +
        'per organization across its keys (an organization may have a figure of its own), counted after ' +
        'the per-endpoint limit; past it 429 RATE_LIMITED with Retry-After.',
    })(target, key as string, descriptor as PropertyDescriptor);
  };
