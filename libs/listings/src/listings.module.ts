import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { IdentityModule } from '@app/identity';
import { BlobsModule } from '@app/platform';
import { ListingSearchQueries } from './application/listing-search.queries';
import { DemoPortalAdapter } from './application/portals/demo-portal.adapter';
import { PortalRegistry } from './application/portals/portal-registry';
import { ListingsQueries } from './application/listings.queries';
import { ListingReadabilityAdapter } from './application/listing-readability';
import { ListingsService } from './application/listings.service';
import { ListingHistory } from './domain/listing-history.entity';
import { Listing } from './domain/listing.entity';
import { Media } from './domain/media.entity';
import { ListingCatalogueController } from './http/catalogue.controller';
import { ListingsController } from './http/listings.controller';
import { ListingJobsModule } from './listing-jobs.module';

export const LISTING_ENTITIES = [Listing, ListingHistory, Media];

/**
 * Listings: the agency's listings and property search (`/properties/*`), media, portal
 * publications, property sources (feeds and portals, the daily allowance) and the agent roster's
 * API-key read. API keys only; errors in the legacy shape.
 */
@Module({
  imports: [MikroOrmModule.forFeature(LISTING_ENTITIES), BlobsModule, IdentityModule, ListingJobsModule],
  // the catalogue's static paths come before `/properties/{id}`
  controllers: [ListingCatalogueController, ListingsController],
  providers: [
    DemoPortalAdapter,
    ListingReadabilityAdapter,
    ListingSearchQueries,
    ListingsQueries,
    ListingsService,
    PortalRegistry,
  ],
  exports: [],
})
export class ListingsModule {}
