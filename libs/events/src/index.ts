/**
 * Events (issue 19): the event log (`GET /v1/events`, retention) over the rows the platform's
 * `Outbox` writes; webhooks deliver them.
 */
export { EventsModule, EventJobsModule } from './events.module';
export { EventsQueries, isExpired, type EventsRequest } from './log/application/events.queries';
export { EventRetention, EVENT_RETENTION_MS } from './log/application/event-retention';
export { parseEventTypes, EVENT_KINDS } from './log/application/event-types-filter';
export { eventPageStatement, type EventPageRow } from './log/application/events.sql';
export { toEventJson, EventView, type EventJson, type EventPageJson } from './log/views/event.view';
export {
  WebhooksModule,
  WebhookJobsModule,
  WebhookDispatcher,
  MAX_ATTEMPTS,
  RETRY_SCHEDULE_MS,
  WEBHOOK_LIMITS,
} from './webhooks';
