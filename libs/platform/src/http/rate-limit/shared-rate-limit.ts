import { Reflector } from '@nestjs/core';
import { ApiExtension } from '@nestjs/swagger';

/** Named limits shared across endpoints, per key and per organization (semantic search). */
export const SHARED_LIMITS = {
  search: { perMinute: 30 },
} as const;
export type SharedLimitName = keyof typeof SHARED_LIMITS;

export const SHARED_LIMIT = Reflector.createDecorator<SharedLimitName>();

/** Also counts against the named shared limit (`search`: 30/min per key and per organization). */
export const SharedRateLimit =
  (name: SharedLimitName) => (target: object, key?: string | symbol, descriptor?: PropertyDescriptor) => {
    SHARED_LIMIT(name)(target, key as string, descriptor as PropertyDescriptor);
    ApiExtension('x-shared-rate-limit', { name, perMinute: SHARED_LIMITS[name].perMinute })(
      target,
      key as string,
      descriptor as PropertyDescriptor,
    );
  };
