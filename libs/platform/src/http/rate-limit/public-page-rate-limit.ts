import { Reflector } from '@nestjs/core';
import { ApiExtension } from '@nestjs/swagger';

/**
 * Public pages (`GET /d/{token}`, `GET /b/{slug}`: INTERFACES.md "Public pages") are read by
 * anyone, so they are limited per client IP, across every route that carries the decorator.
 */
export const PUBLIC_PAGE_LIMIT = { perMinute: 60 } as const;

export const PUBLIC_PAGE_LIMITED = Reflector.createDecorator<true>();

/** The IP a call is counted against: Express's `req.ip` (the socket's peer unless `trust proxy` is set). */
export const clientIpOf = (req: { ip?: string; socket?: { remoteAddress?: string } }): string =>
  req.ip ?? req.socket?.remoteAddress ?? 'unknown';

/** 60 calls a minute per client IP, shared by every public page route; past it 429 RATE_LIMITED. */
export const PublicPageRateLimit =
  () => (target: object, key?: string | symbol, descriptor?: PropertyDescriptor) => {
    PUBLIC_PAGE_LIMITED(true)(target, key as string, descriptor as PropertyDescriptor);
    ApiExtension('x-rate-limit-per-ip', { perMinute: PUBLIC_PAGE_LIMIT.perMinute })(
      target,
      key as string,
      descriptor as PropertyDescriptor,
    );
  };
