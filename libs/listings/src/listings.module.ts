import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { IdentityModule } from '@app/identity';
import { BlobsModule } from '@app/platform';
import { ListingSearchQueries } from './application/listing-search.queries';
import { DemoPortalAdapter } from './application/portals/demo-portal.adapter';
import { PortalRegistry } from './application/portals/portal-registry';
import { ListingsQueries } from './application/listings.queries';
import { PublicationsService } from './application/publications.service';
import { ListingHistory } from './domain/listing-history.entity';
import { Listing } from './domain/listing.entity';
import { Media } from './domain/media.entity';
import { ListingCatalogueController } from './http/catalogue.controller';
import { ListingSearchController } from './http/listing-search.controller';

export const LISTING_ENTITIES = [Listing, ListingHistory, Media];

/**
 * Listings: the agency's listings and property search (`/properties/*`), media, portal
 * publications, property sources (feeds and portals, the daily allowance) and the agent roster's
 * API-key read. API keys only; errors in the legacy shape.
 */
@Module({
  imports: [MikroOrmModule.forFeature(LISTING_ENTITIES), BlobsModule, IdentityModule],
  // the catalogue's static paths come before `/properties/{id}`
  controllers: [ListingCatalogueController, ListingSearchController],
  providers: [DemoPortalAdapter, ListingSearchQueries, ListingsQueries, PortalRegistry, PublicationsService],
  exports: [],
})
export class ListingsModule {}
