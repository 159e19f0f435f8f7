import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { DomainError, unauthenticated } from '../errors/domain-error';
import { RateLimiter } from '../http/rate-limit/rate-limit.guard';
import { ACCESS, AccessDeclaration, ADMIN_ONLY, AuthedRequest, PLAN_REQUIRED } from './access.decorators';
import { ApiKeyAuthenticator, SessionAuthenticator } from './authenticators';
import { Credential, extractCredential } from './credentials';
import { Principal, Scope } from './principal';

/**
 * Steps 3-5 of the request pipeline, in the order that decides which refusal wins: declaration
 * (fail closed), credential kind for the route family, the key rules, scopes, admin, plan.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: SessionAuthenticator,
    private readonly apiKeys: ApiKeyAuthenticator,
    private readonly rateLimits: RateLimiter,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const access = this.reflector.getAllAndOverride(ACCESS, [ctx.getHandler(), ctx.getClass()]);
    if (!access) {
      throw new DomainError(
        'API_OPERATION_NOT_DECLARED',
        'This operation declares no access and is refused.',
      );
    }
    if (access.kind === 'public') return true;

    const req = ctx.switchToHttp().getRequest<Request & AuthedRequest>();
    const credential = extractCredential(req.headers);
    if (!credential) throw unauthenticated('A credential is required.');
    const principal = await this.authenticate(access, credential, req);
    try {
      this.checkGrants(ctx, access.kind === 'apiKey' ? access.scopes : [], principal);
    } catch (refusal) {
      // spec: rate headers on every /v1 answer; a refused call reports its budget but spends none
      if (principal.kind === 'apiKey') await this.rateLimits.describe(ctx, principal);
      throw refusal;
    }
    req.principal = principal;
    return true;
  }

  /** The credential must be of the route family's kind; the authenticators apply their rules. */
  private authenticate(access: AccessDeclaration, credential: Credential, req: Request): Promise<Principal> {
    if (access.kind === 'session') {
      if (credential.kind !== 'session') throw unauthenticated('This route takes a session token.');
      return this.sessions.authenticate(credential.secret);
    }
    if (credential.kind !== 'apiKey') throw unauthenticated('This route takes an API key.');
    return this.apiKeys.authenticate(credential.secret, {
      origin: req.headers.origin,
      ip: req.ip,
      userAgent: req.headers['user-agent'],
    });
  }

  /** Scopes (API keys), then admin, then plan. */
  private checkGrants(ctx: ExecutionContext, scopes: readonly Scope[], principal: Principal): void {
    if (principal.kind === 'apiKey') {
      const missing = scopes.filter((scope) => !principal.scopes.includes(scope));
      if (missing.length > 0) {
        throw new DomainError('API_KEY_SCOPE_MISSING', 'The key lacks a scope this operation needs.', {
          missing,
        });
      }
    }
    const targets = [ctx.getHandler(), ctx.getClass()];
    if (this.reflector.getAllAndOverride(ADMIN_ONLY, targets) && principal.role !== 'admin') {
      throw new DomainError('ORG_ADMIN_REQUIRED', 'Only an organization admin can do this.');
    }
    if (this.reflector.getAllAndOverride(PLAN_REQUIRED, targets) && !principal.planActive) {
      throw new DomainError('SUBSCRIPTION_REQUIRED', 'This needs an active plan.');
    }
  }
}
