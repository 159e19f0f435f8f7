/** Webhooks (issue 19 items 3-5): the module with its routes, and the jobs' module for apps/worker. */
export { WebhooksModule } from './webhooks.module';
export { WebhookJobsModule } from './webhook-jobs.module';
export { WebhookDispatcher } from './application/webhook-dispatcher';
export { WEBHOOK_LIMITS, RETRY_SCHEDULE_MS, MAX_ATTEMPTS, signature } from './domain/webhook-rules';
