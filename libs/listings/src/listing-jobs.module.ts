import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { ListingExpiry } from './application/listing-expiry';
import { PublicationsService } from './application/publications.service';
import { ListingHistory } from './domain/listing-history.entity';
import { Listing } from './domain/listing.entity';
import { Media } from './domain/media.entity';

/**
 * The listings' periodic work (the expiry sweep), without routes: apps/worker imports this;
 * ListingsModule brings it into the API. It provides `PublicationsService` (the expiry undoes a
 * listing's publications in its transaction), which ListingsModule takes from here.
 */
@Module({
  imports: [MikroOrmModule.forFeature([Listing, ListingHistory, Media])],
  providers: [ListingExpiry, PublicationsService],
  exports: [ListingExpiry, PublicationsService],
})
export class ListingJobsModule {}
