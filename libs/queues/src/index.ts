/**
 * Queues (issue 13): the definition model and its validation, the filter grammar compiled to SQL,
 * the preview's lanes and order as SQL, the description and the system queue. Pure code for now;
 * the routes, storage and offers build on it.
 */
export * from './domain/queue-grammar';
export * from './domain/queue-definition';
export * from './domain/filter-compiler';
export * from './domain/queue-preview.sql';
export * from './domain/queue-description';
export * from './domain/system-queue';
