import { ExecutionContext, Injectable, Optional } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DomainError } from '../errors/domain-error';
import { ADMIN_ONLY } from './access.decorators';
import { GrantGuard, GrantRefusalListener } from './grant.guard';
import { isAdmin, Principal } from './principal';

/** `@AdminOnly()`: a member's credential gets 403 ORG_ADMIN_REQUIRED. */
@Injectable()
export class AdminGuard extends GrantGuard {
  constructor(
    private readonly reflector: Reflector,
    @Optional() listener?: GrantRefusalListener,
  ) {
    super(listener);
  }

  protected refusal(ctx: ExecutionContext, principal: Principal): DomainError | null {
    const adminOnly = this.reflector.getAllAndOverride(ADMIN_ONLY, [ctx.getHandler(), ctx.getClass()]);
    if (!adminOnly || isAdmin(principal)) return null;
    return new DomainError('ORG_ADMIN_REQUIRED', 'Only an organization admin can do this.');
  }
}
