import { Module } from '@nestjs/common';
import { WebhookDispatcher } from './application/webhook-dispatcher';
import { WebhookResolver, WebhookTransport } from './application/webhook-transport';

/**
 * Webhook delivery without routes (the relay, the attempts, the purge): apps/worker imports this;
 * WebhooksModule brings it into the API (whose in-process timer runs it without REDIS_URL).
 */
@Module({
  providers: [WebhookDispatcher, WebhookTransport, WebhookResolver],
  exports: [WebhookDispatcher, WebhookTransport, WebhookResolver],
})
export class WebhookJobsModule {}
