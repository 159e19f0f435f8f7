import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { ListingExpiry } from './application/listing-expiry';
import { PublicationSender } from './application/publication-sender';
import { PublicationsService } from './application/publications.service';
import { DemoPortalAdapter } from './application/portals/demo-portal.adapter';
import { PortalRegistry } from './application/portals/portal-registry';
import { ListingHistory } from './domain/listing-history.entity';
import { Listing } from './domain/listing.entity';
import { Media } from './domain/media.entity';

/**
 * The listings' periodic work without routes (the expiry sweep, the portal publication sender):
 * apps/worker imports this; ListingsModule brings it into the API. It provides the portals and
 * `PublicationsService` (an expiry undoes a listing's publications in its transaction), which
 * ListingsModule takes from here: one registry per process.
 */
@Module({
  imports: [MikroOrmModule.forFeature([Listing, ListingHistory, Media])],
  providers: [DemoPortalAdapter, ListingExpiry, PortalRegistry, PublicationSender, PublicationsService],
  exports: [DemoPortalAdapter, ListingExpiry, PortalRegistry, PublicationSender, PublicationsService],
})
export class ListingJobsModule {}
