import { Provider } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { AdminGuard } from '../auth/admin.guard';
import { AuthenticationGuard } from '../auth/authentication.guard';
import { DeclarationGuard } from '../auth/declaration.guard';
import { GrantRefusalListener } from '../auth/grant.guard';
import { PlanGuard } from '../auth/plan.guard';
import { ScopeGuard } from '../auth/scope.guard';
import { NoBodyGuard } from './body-rules';
import { ErrorEnvelopeFilter } from './error-envelope.filter';
import { OrgWriteGuard } from './org-write.guard';
import { RateLimitGuard } from './rate-limit/rate-limit.guard';
import { RequestValidationPipe } from './validation.pipe';

/**
 * The global pieces of the HTTP pipeline, for the API's root module (with RateLimitModule and
 * IdempotencyModule in its imports; no global interceptor, so a read runs none). Guard order is provider order, and decides which refusal wins: body rules, the access
 * declaration (fail closed), authentication (credential kind, key rules), scopes, admin, plan,
 * rate limits, then an agency's share of the pool for a write (`OrgWriteGuard`).
 */
export const HTTP_PLATFORM_PROVIDERS: Provider[] = [
  { provide: APP_FILTER, useClass: ErrorEnvelopeFilter },
  { provide: APP_PIPE, useClass: RequestValidationPipe },
  { provide: APP_GUARD, useClass: NoBodyGuard },
  { provide: APP_GUARD, useClass: DeclarationGuard },
  { provide: APP_GUARD, useClass: AuthenticationGuard },
  { provide: APP_GUARD, useClass: ScopeGuard },
  { provide: APP_GUARD, useClass: AdminGuard },
  { provide: APP_GUARD, useClass: PlanGuard },
  RateLimitGuard,
  { provide: APP_GUARD, useExisting: RateLimitGuard },
  { provide: GrantRefusalListener, useExisting: RateLimitGuard },
  OrgWriteGuard,
  { provide: APP_GUARD, useExisting: OrgWriteGuard },
];
