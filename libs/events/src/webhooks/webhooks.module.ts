import { Module } from '@nestjs/common';
import { WebhookEndpointsService } from './application/webhook-endpoints.service';
import { WebhookEndpointsController } from './http/webhook-endpoints.controller';
import { WebhookJobsModule } from './webhook-jobs.module';

/**
 * Webhooks (issue 19 items 3-5): `/v1/webhook-endpoints`, signed deliveries of the event log with
 * retries and auto-disable, the relay from the log to the deliveries.
 */
@Module({
  imports: [WebhookJobsModule],
  controllers: [WebhookEndpointsController],
  providers: [WebhookEndpointsService],
})
export class WebhooksModule {}
