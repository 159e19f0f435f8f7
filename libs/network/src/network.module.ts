import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { CrmModule } from '@app/crm';
import { IdentityModule } from '@app/identity';
import { ListingsModule } from '@app/listings';
import { BuyerRequestsService } from './application/buyer-requests.service';
import { CollectionsService } from './application/collections.service';
import { OpenHousesCalendarSource } from './application/open-houses.calendar-source';
import { OpenHousesQueries } from './application/open-houses.queries';
import { OpenHousesService } from './application/open-houses.service';
import { ViewingsCalendarSource } from './application/viewings.calendar-source';
import { ViewingsIngestService } from './application/viewings-ingest.service';
import { ViewingsQueries } from './application/viewings.queries';
import { ViewingsService } from './application/viewings.service';
import { ViewingsTimelineSource } from './application/viewings.timeline-source';
import { OpenHouse } from './domain/open-house.entity';
import { BuyerRequestsController } from './http/buyer-requests.controller';
import { CollectionsController } from './http/collections.controller';
import { NetworkBuyerRequestsController } from './http/network-buyer-requests.controller';
import { NetworkCollectionsController } from './http/network-collections.controller';
import { NetworkOpenHousesController } from './http/network-open-houses.controller';
import { OpenHousesController } from './http/open-houses.controller';
import { ViewingsIngestController } from './http/viewings-ingest.controller';
import { ViewingsController } from './http/viewings.controller';

/**
 * The network: viewings, open houses, collections and buyer requests. Viewings reach leads through
 * the CRM (lead link) and show on its timeline, calendar and free-times through its extension
 * points; open houses show on their host's calendar. `/v1` reads (properties:read) and viewing
 * writes (crm:write and a plan); open houses, collections and buyer requests are written on
 * session routes (`/network/*`). Listings are read through `ListingCards`/`ListingSources`.
 */
@Module({
  imports: [CrmModule, IdentityModule, ListingsModule, MikroOrmModule.forFeature([OpenHouse])],
  controllers: [
    ViewingsIngestController,
    ViewingsController,
    OpenHousesController,
    NetworkOpenHousesController,
    CollectionsController,
    NetworkCollectionsController,
    BuyerRequestsController,
    NetworkBuyerRequestsController,
  ],
  providers: [
    ViewingsIngestService,
    ViewingsTimelineSource,
    ViewingsCalendarSource,
    ViewingsQueries,
    ViewingsService,
    OpenHousesService,
    OpenHousesQueries,
    OpenHousesCalendarSource,
    CollectionsService,
    BuyerRequestsService,
  ],
})
export class NetworkModule {}
