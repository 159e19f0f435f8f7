import { Module } from '@nestjs/common';
import { OutboundModule } from '@app/platform';
import { WebhookDispatcher } from './application/webhook-dispatcher';
import { WebhookTransport } from './application/webhook-transport';

/**
 * Webhook delivery without routes (the relay, the attempts, the purge): apps/worker imports this;
 * WebhooksModule brings it into the API (whose in-process timer runs it without REDIS_URL).
 */
@Module({
  imports: [OutboundModule],
  providers: [WebhookDispatcher, WebhookTransport],
  exports: [WebhookDispatcher, WebhookTransport],
})
export class WebhookJobsModule {}
