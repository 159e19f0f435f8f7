import { Global, Module } from '@nestjs/common';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyStore } from './idempotency.store';

/**
 * Idempotency for the API: the store, and the interceptor `@Idempotent()` puts on each creating
 * route. Global, so a context's controller module resolves the interceptor's dependencies; the
 * interceptor is not global, so reads never pass through an interceptor chain.
 */
@Global()
@Module({
  providers: [IdempotencyStore, IdempotencyInterceptor],
  exports: [IdempotencyStore, IdempotencyInterceptor],
})
export class IdempotencyModule {}
