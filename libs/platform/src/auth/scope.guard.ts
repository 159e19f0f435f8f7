import { ExecutionContext, Injectable, Optional } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DomainError } from '../errors/domain-error';
import { ACCESS } from './access.decorators';
import { GrantGuard, GrantRefusalListener } from './grant.guard';
import { Principal } from './principal';

/** An API key must hold every scope the route names in `@RequireScopes` (403, `details.missing`). */
@Injectable()
export class ScopeGuard extends GrantGuard {
  constructor(
    private readonly reflector: Reflector,
    @Optional() listener?: GrantRefusalListener,
  ) {
    super(listener);
  }

  protected refusal(ctx: ExecutionContext, principal: Principal): DomainError | null {
    const access = this.reflector.getAllAndOverride(ACCESS, [ctx.getHandler(), ctx.getClass()]);
    if (principal.kind !== 'apiKey' || access?.kind !== 'apiKey') return null;
    const missing = access.scopes.filter((scope) => !principal.scopes.includes(scope));
    if (missing.length === 0) return null;
    return new DomainError('API_KEY_SCOPE_MISSING', 'The key lacks a scope this operation needs.', {
      missing,
    });
  }
}
