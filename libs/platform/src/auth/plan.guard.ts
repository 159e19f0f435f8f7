import { ExecutionContext, Injectable, Optional } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DomainError } from '../errors/domain-error';
import { PLAN_REQUIRED } from './access.decorators';
import { GrantGuard, GrantRefusalListener } from './grant.guard';
import { Principal } from './principal';

/** `@RequiresPlan()`: an agency without an active plan gets 403 SUBSCRIPTION_REQUIRED. */
@Injectable()
export class PlanGuard extends GrantGuard {
  constructor(
    private readonly reflector: Reflector,
    @Optional() listener?: GrantRefusalListener,
  ) {
    super(listener);
  }

  protected refusal(ctx: ExecutionContext, principal: Principal): DomainError | null {
    const needsPlan = this.reflector.getAllAndOverride(PLAN_REQUIRED, [ctx.getHandler(), ctx.getClass()]);
    if (!needsPlan || principal.planActive) return null;
    return new DomainError('SUBSCRIPTION_REQUIRED', 'This needs an active plan.');
  }
}
