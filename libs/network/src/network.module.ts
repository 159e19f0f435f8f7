import { Module } from '@nestjs/common';
import { CrmModule } from '@app/crm';
import { ViewingsCalendarSource } from './application/viewings.calendar-source';
import { ViewingsIngestService } from './application/viewings-ingest.service';
import { ViewingsTimelineSource } from './application/viewings.timeline-source';
import { ViewingsIngestController } from './http/viewings-ingest.controller';
import { ViewingsQueries } from './application/viewings.queries';
import { ViewingsService } from './application/viewings.service';
import { ViewingsController } from './http/viewings.controller';

/**
 * The network: viewings (open houses, collections and buyer requests later). Viewings reach leads
 * through the CRM (lead link) and show on its timeline, calendar and free-times through its
 * extension points. `/v1` reads and writes of viewings (crm:write and a plan for writes).
 */
@Module({
  imports: [CrmModule],
  controllers: [ViewingsIngestController, ViewingsController],
  providers: [
    ViewingsIngestService,
    ViewingsTimelineSource,
    ViewingsCalendarSource,
    ViewingsQueries,
    ViewingsService,
  ],
})
export class NetworkModule {}
