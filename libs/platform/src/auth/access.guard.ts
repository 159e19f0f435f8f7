import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { DomainError, unauthenticated } from '../http/domain-error';
import { ACCESS, ADMIN_ONLY, AuthedRequest, PLAN_REQUIRED } from './access.decorators';
import { ApiKeyAuthenticator, SessionAuthenticator } from './authenticators';
import { extractCredential } from './credentials';
import { Principal } from './principal';

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
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const targets = [ctx.getHandler(), ctx.getClass()];
    const access = this.reflector.getAllAndOverride(ACCESS, targets);
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

    let principal: Principal;
    if (access.kind === 'session') {
      if (credential.kind !== 'session') throw unauthenticated('This route takes a session token.');
      principal = await this.sessions.authenticate(credential.secret);
    } else {
      if (credential.kind !== 'apiKey') throw unauthenticated('This route takes an API key.');
      const keyPrincipal = await this.apiKeys.authenticate(credential.secret, {
        origin: req.headers.origin,
        ip: req.ip,
        userAgent: req.headers['user-agent'],
      });
      const missing = access.scopes.filter((scope) => !keyPrincipal.scopes.includes(scope));
      if (missing.length > 0) {
        throw new DomainError('API_KEY_SCOPE_MISSING', 'The key lacks a scope this operation needs.', {
          missing,
        });
      }
      principal = keyPrincipal;
    }
    req.principal = principal;

    if (this.reflector.getAllAndOverride(ADMIN_ONLY, targets) && principal.role !== 'admin') {
      throw new DomainError('ORG_ADMIN_REQUIRED', 'Only an organization admin can do this.');
    }
    if (this.reflector.getAllAndOverride(PLAN_REQUIRED, targets) && !principal.planActive) {
      throw new DomainError('SUBSCRIPTION_REQUIRED', 'This needs an active plan.');
    }
    return true;
  }
}
