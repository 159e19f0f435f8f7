import { Module } from '@nestjs/common';
import { CrmModule } from '@app/crm';
import { IdentityModule } from '@app/identity';
import { ListingsModule } from '@app/listings';
import { BuyerRequestsService } from './application/buyer-requests.service';
import { CollectionsService } from './application/collections.service';
import { ViewingsCalendarSource } from './application/viewings.calendar-source';
import { ViewingsIngestService } from './application/viewings-ingest.service';
import { ViewingsTimelineSource } from './application/viewings.timeline-source';
import { ViewingsIngestController } from './http/viewings-ingest.controller';
import { ViewingsQueries } from './application/viewings.queries';
import { ViewingsService } from './application/viewings.service';
import { ViewingsController } from './http/viewings.controller';
import { BuyerRequestsController } from './http/buyer-requests.controller';
import { CollectionsController } from './http/collections.controller';
import { NetworkBuyerRequestsController } from './http/network-buyer-requests.controller';
import { NetworkCollectionsController } from './http/network-collections.controller';

/**
 * The network: viewings, collections and buyer requests (open houses next). Viewings reach leads
 * through the CRM (lead link) and show on its timeline, calendar and free-times through its
 * extension points. `/v1` reads and writes of viewings (crm:write and a plan for writes).
 */
@Module({
  imports: [CrmModule, IdentityModule, ListingsModule],
  controllers: [
    ViewingsIngestController,
    ViewingsController,
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
    CollectionsService,
    BuyerRequestsService,
  ],
})
export class NetworkModule {}
