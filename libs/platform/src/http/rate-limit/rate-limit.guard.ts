import { ExecutionContext, Injectable, Logger, Optional } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  ThrottlerLimitDetail,
  ThrottlerModuleOptions,
  ThrottlerOptions,
} from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { AuthedRequest } from '../../auth/access.decorators';
import { GrantRefusalListener } from '../../auth/grant.guard';
import { ApiKeyPrincipal, Principal } from '../../auth/principal';
import { Metrics } from '../../metrics/metrics';
import { RateLimitStore, WindowHit, WindowRecord } from './rate-limit.store';
import { clientIpOf, PUBLIC_PAGE_LIMITED } from './public-page-rate-limit';
import { PUBLIC_ROUTE_LIMIT } from './public-route-rate-limit';
import { rateLimited } from './attempt-limits';

interface CallWindow extends WindowHit {
  throttler: ThrottlerOptions;
  tracker: string;
}

type RateLimitedDetail = ThrottlerLimitDetail & { resetAtMs: number };

/** The key a call is counted against: an API key's or an integration key's id; null for others. */
const limitedKeyOf = (req: AuthedRequest): string | null => {
  if (req.integration) return req.integration.keyId;
  return req.principal?.kind === 'apiKey' ? (req.principal as ApiKeyPrincipal).keyId : null;
};

/**
 * The last step of the pipeline: the throttler, per API key and route template (`GET /v1/leads/:id`),
 * and per integration key across its routes; public pages (`@PublicPageRateLimit()`) per client IP;
 * `@PublicRouteRateLimit` routes per client address and body field; other session and public
 * routes are not limited. Every named throttler of the call
 * (short, medium, long, and a shared limit on routes that name one) is counted in one store round
 * trip; every window is spent even when one refuses, as fixed windows do. Sets
 * `X-RateLimit-Limit-<name>` and `X-RateLimit-Remaining-<name>`; past a limit, 429 RATE_LIMITED
 * with `Retry-After` and `X-RateLimit-Reset` of the window that frees last. A store that does not
 * answer lets the call through (logged): limits protect, they never break.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard implements GrantRefusalListener {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() private readonly store: RateLimitStore,
    reflector: Reflector,
    @Optional() private readonly metrics?: Metrics,
  ) {
    super(options, store, reflector);
  }

  protected override logger = new Logger('RateLimit');

  override async canActivate(ctx: ExecutionContext): Promise<boolean> {
    if (await this.shouldSkip(ctx)) return true;
    const windows = await this.windowsOf(ctx);
    if (windows.length === 0) return true;
    const records = await this.store.incrementAll(windows).catch((err: unknown) => {
      this.logger.warn({ err: String(err) }, 'rate-limit store unavailable; call let through');
      return null;
    });
    if (!records) return true;
    this.setBudgetHeaders(ctx, windows, records);
    const refusals = windows
      .map((window, i) => ({ window, record: records[i] }))
      .filter(({ record }) => record.isBlocked);
    if (refusals.length > 0) {
      const { window, record } = refusals.reduce((a, b) => (b.record.resetAtMs > a.record.resetAtMs ? b : a));
      const detail: RateLimitedDetail = {
        ...record,
        ttl: window.ttl,
        limit: window.limit,
        key: window.key,
        tracker: window.tracker,
      };
      this.metrics?.rateLimitRefusals.inc({ window: window.throttler.name ?? 'default' });
      await this.throwThrottlingException(ctx, detail);
    }
    return true;
  }

  /** A call refused for its scopes, role or plan answers with its budget, spending none of it. */
  async refused(ctx: ExecutionContext, principal: Principal): Promise<void> {
    if (principal.kind !== 'apiKey') return;
    const windows = await this.windowsOf(ctx);
    const records = await this.store.peekAll(windows).catch(() => null);
    if (records) this.setBudgetHeaders(ctx, windows, records);
  }

  protected override async shouldSkip(ctx: ExecutionContext): Promise<boolean> {
    if (this.reflector.get(PUBLIC_PAGE_LIMITED, ctx.getHandler()) === true) return false;
    if (this.reflector.get(PUBLIC_ROUTE_LIMIT, ctx.getHandler())) return false;
    return limitedKeyOf(ctx.switchToHttp().getRequest<AuthedRequest>()) === null;
  }

  protected override async getTracker(req: AuthedRequest & Request): Promise<string> {
    return limitedKeyOf(req) ?? clientIpOf(req);
  }

  /** Per API key and route template, whatever the path parameters; per integration key across its routes. */
  protected override generateKey(ctx: ExecutionContext, tracker: string, name: string): string {
    const req = ctx.switchToHttp().getRequest<Request & AuthedRequest>();
    if (req.integration) return `integration:${tracker}:${name}`;
    const route = (req.route as { path?: string } | undefined)?.path ?? req.path;
    return `${tracker}:${req.method} ${route}:${name}`;
  }

  protected override async throwThrottlingException(
    _ctx: ExecutionContext,
    detail: RateLimitedDetail,
  ): Promise<void> {
    throw rateLimited({ timeToExpire: detail.timeToBlockExpire, resetAtMs: detail.resetAtMs });
  }

  /** The named throttlers that apply to this call, resolved as the throttler resolves them. */
  private async windowsOf(ctx: ExecutionContext): Promise<CallWindow[]> {
    const req = ctx.switchToHttp().getRequest<AuthedRequest>();
    const windows: CallWindow[] = [];
    for (const throttler of this.throttlers) {
      if ((throttler.skipIf ?? this.commonOptions.skipIf)?.(ctx)) continue;
      const getTracker = throttler.getTracker ?? this.commonOptions.getTracker!;
      const generateKey = throttler.generateKey ?? this.commonOptions.generateKey!;
      const tracker = await getTracker(req, ctx);
      windows.push({
        throttler,
        tracker,
        key: generateKey(ctx, tracker, throttler.name!),
        ttl: await resolve(ctx, throttler.ttl),
        limit: await resolve(ctx, throttler.limit),
      });
    }
    return windows;
  }

  private setBudgetHeaders(ctx: ExecutionContext, windows: CallWindow[], records: WindowRecord[]): void {
    const res = ctx.switchToHttp().getResponse<Response>();
    windows.forEach(({ throttler, limit }, i) => {
      if (!(throttler.setHeaders ?? this.commonOptions.setHeaders ?? true)) return;
      res.setHeader(`${this.headerPrefix}-Limit-${throttler.name}`, String(limit));
      res.setHeader(
        `${this.headerPrefix}-Remaining-${throttler.name}`,
        String(Math.max(0, limit - records[i].totalHits)),
      );
    });
  }
}

const resolve = async (ctx: ExecutionContext, value: ThrottlerOptions['limit']): Promise<number> =>
  typeof value === 'function' ? value(ctx) : value;
