import { CanActivate, ExecutionContext } from '@nestjs/common';
import { DomainError } from '../errors/domain-error';
import { AuthedRequest } from './access.decorators';
import { Principal } from './principal';

/**
 * Told of an authenticated call refused for its scopes, role or plan, before the refusal is
 * thrown. The rate limiter implements it (spec: a refused call answers with the headers of its
 * budget but spends none of it); auth knows nothing of rate limits.
 */
export abstract class GrantRefusalListener {
  abstract refused(ctx: ExecutionContext, principal: Principal): Promise<void>;
}

/** A check on what the authenticated caller may do; public routes carry no principal and pass. */
export abstract class GrantGuard implements CanActivate {
  constructor(private readonly listener?: GrantRefusalListener) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const principal = ctx.switchToHttp().getRequest<AuthedRequest>().principal;
    if (!principal) return true;
    const refusal = this.refusal(ctx, principal);
    if (!refusal) return true;
    await this.listener?.refused(ctx, principal);
    throw refusal;
  }

  /** The error to answer with, or null when the caller may go on. */
  protected abstract refusal(ctx: ExecutionContext, principal: Principal): DomainError | null;
}
