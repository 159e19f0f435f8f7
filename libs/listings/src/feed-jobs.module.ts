import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { OutboundModule } from '@app/platform';
import { FeedFetcher } from './application/feed-fetch';
import { FeedImporter } from './application/feed-importer';
import { Listing } from './domain/listing.entity';
import { PropertyFeed } from './domain/property-feed.entity';

/**
 * The feed imports (the periodic job and the importer the dashboard's "import now" calls), without
 * routes: apps/worker imports this; ListingsModule brings it into the API.
 */
const FEED_ENTITIES = MikroOrmModule.forFeature([PropertyFeed, Listing]);

@Module({
  imports: [FEED_ENTITIES, OutboundModule],
  providers: [FeedFetcher, FeedImporter],
  // the feed repository and the URL check too, for the dashboard's service in ListingsModule
  exports: [FeedImporter, FeedFetcher, FEED_ENTITIES],
})
export class FeedJobsModule {}
