import { toEventJson, type EventJson, type EventPageRow } from '../../log/views/event.view';

/** An `event` row as the relay reads it (the log's columns). */
export type EventRow = Omit<EventPageRow, 'purged_through'>;

/** The body of a webhook: the event exactly as `GET /v1/events` answers it. */
export const eventJsonOf = (row: EventRow): EventJson => toEventJson({ ...row, purged_through: 0 });
