import { CanActivate, ExecutionContext, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { ApiExtension } from '@nestjs/swagger';
import { AuthedRequest } from '../../auth/access.decorators';
import { ApiKeyPrincipal } from '../../auth/principal';
import { Clock, MINUTE, HOUR } from '../../clock/clock';
import { DomainError } from '../../errors/domain-error';
import { RateLimitStore, WindowCount, WindowHit } from './rate-limit.store';

/** Spec Limits: per key per endpoint; a raised per-minute limit scales the other two. */
export const RATE_WINDOWS = [
  { name: 'short', windowMs: MINUTE, limit: 120 },
  { name: 'medium', windowMs: 10 * MINUTE, limit: 600 },
  { name: 'long', windowMs: HOUR, limit: 3000 },
] as const;

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

const limitsFor = (principal: ApiKeyPrincipal) => {
  const factor = (principal.rateLimitPerMinute ?? RATE_WINDOWS[0].limit) / RATE_WINDOWS[0].limit;
  return RATE_WINDOWS.map((window) => ({ ...window, limit: Math.max(1, Math.round(window.limit * factor)) }));
};

interface CallBudget {
  nowMs: number;
  windows: ReturnType<typeof limitsFor>;
  hits: WindowHit[];
  limits: number[];
}

/**
 * Per key and route template: three windows plus any named shared limit. Sets the
 * `X-RateLimit-*` headers on the answer; `consume` spends the call, `describe` only reports
 * (refused calls answer with the headers but spend nothing). A store that does not answer lets
 * the call through (logged): limits protect, they never break.
 */
@Injectable()
export class RateLimiter {
  private readonly log = new Logger('RateLimit');

  constructor(
    private readonly store: RateLimitStore,
    private readonly reflector: Reflector,
    private readonly clock: Clock,
  ) {}

  async consume(ctx: ExecutionContext, principal: ApiKeyPrincipal): Promise<void> {
    const budget = this.budget(ctx, principal);
    const counts = await this.store.hit(budget.hits, budget.nowMs).catch((err: unknown) => {
      this.log.warn({ err: String(err) }, 'rate-limit store unavailable; call let through');
      return null;
    });
    if (!counts) return;
    this.setHeaders(ctx, budget, counts);
    const over = counts.filter((count, i) => count.count > budget.limits[i]);
    if (over.length > 0) {
      const resetAtMs = Math.max(...over.map((c) => c.resetAtMs));
      throw new DomainError('RATE_LIMITED', 'Too many requests; wait Retry-After seconds.', undefined, {
        'Retry-After': String(Math.max(1, Math.ceil((resetAtMs - budget.nowMs) / 1000))),
        'X-RateLimit-Reset': String(Math.ceil(resetAtMs / 1000)),
      });
    }
  }

  async describe(ctx: ExecutionContext, principal: ApiKeyPrincipal): Promise<void> {
    const budget = this.budget(ctx, principal);
    const counts = await this.store.peek(budget.hits, budget.nowMs).catch(() => null);
    if (counts) this.setHeaders(ctx, budget, counts);
  }

  private budget(ctx: ExecutionContext, principal: ApiKeyPrincipal): CallBudget {
    const req = ctx.switchToHttp().getRequest<Request>();
    const endpoint = `${req.method} ${(req.route as { path?: string } | undefined)?.path ?? req.path}`;
    const windows = limitsFor(principal);
    const shared = this.reflector.get(SHARED_LIMIT, ctx.getHandler());
    const hits: WindowHit[] = windows.map((w) => ({
      key: `${principal.keyId}:${endpoint}:${w.name}`,
      windowMs: w.windowMs,
    }));
    const limits: number[] = windows.map((w) => w.limit);
    if (shared) {
      hits.push({ key: `shared:${shared}:key:${principal.keyId}`, windowMs: MINUTE });
      hits.push({ key: `shared:${shared}:org:${principal.organizationId}`, windowMs: MINUTE });
      limits.push(SHARED_LIMITS[shared].perMinute, SHARED_LIMITS[shared].perMinute);
    }
    return { nowMs: this.clock.now().getTime(), windows, hits, limits };
  }

  private setHeaders(ctx: ExecutionContext, budget: CallBudget, counts: WindowCount[]): void {
    const res = ctx.switchToHttp().getResponse<Response>();
    budget.windows.forEach((w, i) => {
      res.setHeader(`X-RateLimit-Limit-${w.name}`, String(w.limit));
      res.setHeader(`X-RateLimit-Remaining-${w.name}`, String(Math.max(0, w.limit - counts[i].count)));
    });
  }
}

/** Step 6 of the pipeline: every call a key is allowed to make spends its budget. */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(private readonly limiter: RateLimiter) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const principal = ctx.switchToHttp().getRequest<AuthedRequest>().principal;
    if (principal?.kind === 'apiKey') await this.limiter.consume(ctx, principal);
    return true;
  }
}
