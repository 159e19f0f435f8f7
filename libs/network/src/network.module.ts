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
import { BuyerRequestsController } from './http/buyer-requests.controller';
import { CollectionsController } from './http/collections.controller';
import { NetworkBuyerRequestsController } from './http/network-buyer-requests.controller';
import { NetworkCollectionsController } from './http/network-collections.controller';

/**
 * The network: viewings (open houses, collections and buyer requests later). Viewings reach leads
 * through the CRM (lead link) and show on its timeline, calendar and free-times through its
 * extension points. Their `/v1` routes come with the viewings issue.
 */
@Module({
  imports: [CrmModule, IdentityModule, ListingsModule],
  controllers: [
    ViewingsIngestController,
    CollectionsController,
    NetworkCollectionsController,
    BuyerRequestsController,
    NetworkBuyerRequestsController,
  ],
  providers: [
    ViewingsIngestService,
    ViewingsTimelineSource,
    ViewingsCalendarSource,
    CollectionsService,
    BuyerRequestsService,
  ],
})
export class NetworkModule {}
