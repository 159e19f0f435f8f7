import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { PublicationSender } from './application/publication-sender';
import { DemoPortalAdapter } from './application/portals/demo-portal.adapter';
import { PortalRegistry } from './application/portals/portal-registry';
import { Listing } from './domain/listing.entity';

/**
 * The portal publications' periodic work (the sender), without routes: apps/worker imports this;
 * ListingsModule brings it into the API.
 */
@Module({
  imports: [MikroOrmModule.forFeature([Listing])],
  providers: [DemoPortalAdapter, PortalRegistry, PublicationSender],
  // the portals, for the routes of ListingsModule too (one registry per process)
  exports: [DemoPortalAdapter, PortalRegistry, PublicationSender],
})
export class PublicationJobsModule {}
