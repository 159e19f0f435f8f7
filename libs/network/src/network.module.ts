import { Module } from '@nestjs/common';
import { CrmModule } from '@app/crm';
import { ViewingsCalendarSource } from './application/viewings.calendar-source';
import { ViewingsIngestService } from './application/viewings-ingest.service';
import { ViewingsTimelineSource } from './application/viewings.timeline-source';
import { ViewingsIngestController } from './http/viewings-ingest.controller';

/**
 * The network: viewings (open houses, collections and buyer requests later). Viewings reach leads
 * through the CRM (lead link) and show on its timeline, calendar and free-times through its
 * extension points. Their `/v1` routes come with the viewings issue.
 */
@Module({
  imports: [CrmModule],
  controllers: [ViewingsIngestController],
  providers: [ViewingsIngestService, ViewingsTimelineSource, ViewingsCalendarSource],
})
export class NetworkModule {}
