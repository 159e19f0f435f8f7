import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { CrmModule } from '@app/crm';
import { ListingsModule } from '@app/listings';
import { OpenHousesCalendarSource } from './application/open-houses.calendar-source';
import { OpenHousesQueries } from './application/open-houses.queries';
import { OpenHousesService } from './application/open-houses.service';
import { OpenHouse } from './domain/open-house.entity';
import { NetworkOpenHousesController } from './http/network-open-houses.controller';
import { OpenHousesController } from './http/open-houses.controller';
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
  imports: [CrmModule, MikroOrmModule.forFeature([OpenHouse]), ListingsModule],
  controllers: [ViewingsIngestController, OpenHousesController, NetworkOpenHousesController],
  providers: [
    ViewingsIngestService,
    ViewingsTimelineSource,
    ViewingsCalendarSource,
    OpenHousesService,
    OpenHousesQueries,
    OpenHousesCalendarSource,
  ],
})
export class NetworkModule {}
