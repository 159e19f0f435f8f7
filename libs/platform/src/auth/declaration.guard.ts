import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DomainError } from '../errors/domain-error';
import { ACCESS } from './access.decorators';

/** Fails closed: a route that declares no access (`@RequireScopes`, `@Session`, `@Public`) is refused. */
@Injectable()
export class DeclarationGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(ctx: ExecutionContext): boolean {
    if (!this.reflector.getAllAndOverride(ACCESS, [ctx.getHandler(), ctx.getClass()])) {
      throw new DomainError(
        'API_OPERATION_NOT_DECLARED',
        'This operation declares no access and is refused.',
      );
    }
    return true;
  }
}
