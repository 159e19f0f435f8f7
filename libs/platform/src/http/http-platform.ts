import { Provider } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { AccessGuard } from '../auth/access.guard';
import { NoBodyGuard } from './body-rules';
import { ErrorEnvelopeFilter } from './error-envelope.filter';
import { RequestValidationPipe } from './validation.pipe';

/**
 * The global pieces of the HTTP pipeline, for the API's root module. Guard order is provider
 * order: body rules, then access (credential, key rules, scopes, admin, plan).
 */
export const HTTP_PLATFORM_PROVIDERS: Provider[] = [
  { provide: APP_FILTER, useClass: ErrorEnvelopeFilter },
  { provide: APP_PIPE, useClass: RequestValidationPipe },
  { provide: APP_GUARD, useClass: NoBodyGuard },
  { provide: APP_GUARD, useClass: AccessGuard },
];
