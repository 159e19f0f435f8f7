import { applyDecorators, ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiExtension, ApiResponse } from '@nestjs/swagger';
import type { ThrottlerOptions } from '@nestjs/throttler';
import { sha256 } from '../../auth/secrets';
import { ErrorEnvelopeView } from '../../errors/error-envelope.view';
import { limitedAddressOf } from './client-origin';
import { clientIpOf } from './public-page-rate-limit';

/** One window: `limit` calls per `ttl` ms. */
export interface CallWindow {
  limit: number;
  ttl: number;
}

/**
 * Limits of a public route that anyone may call and that costs the server or opens a door
 * (sign-up, accepting an invitation): every call counted, whatever its answer.
 */
export interface PublicRouteLimit {
  /** The counters' name (one per route). */
  name: string;
  /** Per client address (`limitedAddressOf`: an IPv6 address by its /64). */
  perAddress: CallWindow;
  /** Also per value of a body field (its hash; a value that is no string counts as one). */
  perBodyField?: CallWindow & { field: string };
}

export const PUBLIC_ROUTE_LIMIT = Reflector.createDecorator<PublicRouteLimit>();

const reflector = new Reflector();
const limitOf = (ctx: ExecutionContext): PublicRouteLimit | undefined =>
  reflector.get(PUBLIC_ROUTE_LIMIT, ctx.getHandler());
// the throttlers run only where skipIf found the limit
const routeLimit = (ctx: ExecutionContext): PublicRouteLimit => limitOf(ctx)!;

const minutes = (ms: number) => `${Math.round(ms / 60_000)} minutes`;

/** Counts every call of the route against `limit` (see `PublicRouteLimit`); past it 429 RATE_LIMITED. */
export const PublicRouteRateLimit = (limit: PublicRouteLimit) => {
  const { perAddress, perBodyField } = limit;
  const field = perBodyField
    ? ` and ${perBodyField.limit} per \`${perBodyField.field}\` per ${minutes(perBodyField.ttl)}`
    : '';
  return applyDecorators(
    PUBLIC_ROUTE_LIMIT(limit),
    ApiExtension('x-rate-limit-per-client', {
      limit: perAddress.limit,
      windowSeconds: perAddress.ttl / 1000,
      ...(perBodyField
        ? {
            perField: {
              field: perBodyField.field,
              limit: perBodyField.limit,
              windowSeconds: perBodyField.ttl / 1000,
            },
          }
        : {}),
    }),
    ApiResponse({
      status: 429,
      description:
        `RATE_LIMITED: over ${perAddress.limit} calls per ${minutes(perAddress.ttl)} from one IP (an IPv6 ` +
        `address counts by its /64)${field}, whatever their answers; wait \`Retry-After\` seconds.`,
      type: ErrorEnvelopeView,
    }),
  );
};

/** The throttlers of `@PublicRouteRateLimit` routes, skipped everywhere else; no budget headers. */
export const PUBLIC_ROUTE_THROTTLERS: ThrottlerOptions[] = [
  {
    name: 'public-route-ip',
    ttl: (ctx) => routeLimit(ctx).perAddress.ttl,
    limit: (ctx) => routeLimit(ctx).perAddress.limit,
    setHeaders: false,
    skipIf: (ctx) => !limitOf(ctx),
    getTracker: (req) => limitedAddressOf(clientIpOf(req)),
    generateKey: (ctx, tracker) => `public-route:${routeLimit(ctx).name}:ip:${tracker}`,
  },
  {
    name: 'public-route-field',
    ttl: (ctx) => routeLimit(ctx).perBodyField!.ttl,
    limit: (ctx) => routeLimit(ctx).perBodyField!.limit,
    setHeaders: false,
    skipIf: (ctx) => !limitOf(ctx)?.perBodyField,
    getTracker: (req, ctx) => {
      const value = (req.body as Record<string, unknown> | undefined)?.[routeLimit(ctx).perBodyField!.field];
      // the value may be a secret (an invitation token): only its hash is kept
      return typeof value === 'string' ? sha256(value) : 'not-a-string';
    },
    generateKey: (ctx, tracker) =>
      `public-route:${routeLimit(ctx).name}:${routeLimit(ctx).perBodyField!.field}:${tracker}`,
  },
];
