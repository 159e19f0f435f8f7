import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { IdentityModule } from '@app/identity';
import { BlobsModule } from '@app/platform';
import { ListingSearchQueries } from './application/listing-search.queries';
import { ListingCards } from './application/listing-cards';
import { ListingSources } from './application/listing-sources';
import { ListingsQueries } from './application/listings.queries';
import { ListingReadabilityAdapter } from './application/listing-readability';
import { ListingsService } from './application/listings.service';
import { MediaService } from './application/media.service';
import { PortalAllowance } from './application/portal-allowance';
import { PortalCache } from './application/portal-cache';
import { PropertySourcesService } from './application/property-sources.service';
import { ListingDescriptionService } from './application/publications-description.service';
import { ListingHistory } from './domain/listing-history.entity';
import { Listing } from './domain/listing.entity';
import { Media } from './domain/media.entity';
import { AgentsService } from './application/agents.service';
import { PropertyAgentsController } from './http/agents.controller';
import { ListingCatalogueController } from './http/catalogue.controller';
import { ListingDescriptionController } from './http/description.controller';
import { ListingMediaController, MediaFilesController } from './http/media.controller';
import { ListingSearchController } from './http/listing-search.controller';
import { ListingsController } from './http/listings.controller';
import { OrganizationAgentsController } from './http/organization-agents.controller';
import { PropertySourcesController } from './http/property-sources.controller';
import { ListingPublicationsController } from './http/publications.controller';
import { FeedJobsModule } from './feed-jobs.module';
import { PropertyFeedsService } from './application/property-feeds.service';
import { PropertyFeedsController } from './http/property-feeds.controller';
import { ListingJobsModule } from './listing-jobs.module';
import { MediaCleanupModule } from './media-cleanup.module';

export const LISTING_ENTITIES = [Listing, ListingHistory, Media];

/**
 * Listings: the agency's listings and property search (`/properties/*`), media, portal
 * publications, property sources (feeds and portals, the daily allowance) and the agent roster's
 * API-key read. API keys only; errors in the legacy shape.
 */
@Module({
  imports: [
    MikroOrmModule.forFeature(LISTING_ENTITIES),
    BlobsModule,
    IdentityModule,
    ListingJobsModule,
    FeedJobsModule,
    MediaCleanupModule,
  ],
  // the catalogue's static paths come before `/properties/{id}`
  controllers: [
    ListingMediaController,
    MediaFilesController,
    PropertyAgentsController,
    ListingCatalogueController,
    ListingSearchController,
    OrganizationAgentsController,
    PropertySourcesController,
    PropertyFeedsController,
    ListingPublicationsController,
    ListingDescriptionController,
    // `/properties/{id}` last: every static `/properties/<word>` path is matched first
    ListingsController,
  ],
  providers: [
    AgentsService,
    ListingCards,
    ListingDescriptionService,
    ListingSearchQueries,
    ListingSources,
    ListingReadabilityAdapter,
    ListingsQueries,
    ListingsService,
    MediaService,
    PortalAllowance,
    PortalCache,
    PropertyFeedsService,
    PropertySourcesService,
  ],
  // brochures and listing matches read listings of every source through it
  exports: [ListingCards, ListingSources],
})
export class ListingsModule {}
