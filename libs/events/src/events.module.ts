import { Module } from '@nestjs/common';
import { CrmModule } from '@app/crm';
import { EventRetention } from './log/application/event-retention';
import { EventsQueries } from './log/application/events.queries';
import { EventsController } from './log/http/events.controller';

/**
 * The event log's periodic work (the 30-day retention), without routes: apps/worker imports this;
 * EventsModule brings it into the API.
 */
@Module({
  providers: [EventRetention],
  exports: [EventRetention],
})
export class EventJobsModule {}

/**
 * Events (issue 19): the log the platform's `Outbox` writes in each change's transaction, read by
 * `GET /v1/events` (lead reach through the CRM's `LeadAccess`), and its retention job.
 */
@Module({
  imports: [CrmModule, EventJobsModule],
  controllers: [EventsController],
  providers: [EventsQueries],
})
export class EventsModule {}
