/**
 * Queues (issue 13): the definition model and its validation, the filter grammar compiled to SQL,
 * the preview's lanes and order as SQL, the description and the system queue (pure, domain/);
 * the Nest module with the queue routes and the preview.
 */
export * from './domain/queue-grammar';
export * from './domain/queue-definition';
export * from './domain/filter-compiler';
export * from './domain/queue-preview.sql';
export * from './domain/queue-description';
export * from './domain/queue-reason';
export * from './domain/system-queue';
export { QueuesModule, QUEUE_ENTITIES } from './queues.module';
export { QueueJobsModule } from './queue-jobs.module';
export { OfferGenerator } from './application/offer-generator';
export { QueuesService, QUEUES_PER_PERSON } from './application/queues.service';
export { QueuePreviewService, PREVIEW_STATEMENT_TIMEOUT_MS } from './application/queue-preview.service';
export type { QueueJson, QueuePreviewJson } from './views/queue.view';
export { OffersService, OFFERS_LISTED, FOLLOW_UP_TITLE } from './application/offers.service';
export type { OfferJson } from './views/offer.view';
export * from './domain/offer-trigger.sql';
// the MCP tool `preview_queue` (issue 19) reads its input with the route's DTO
export { PreviewQueueDto } from './http/dto/queue.dto';
