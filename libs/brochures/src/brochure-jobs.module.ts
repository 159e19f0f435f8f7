import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { BrochureExpiry } from './application/brochure-expiry';
import { BrochureListing } from './domain/brochure-listing.entity';
import { Brochure } from './domain/brochure.entity';

/**
 * The brochures' periodic work (the expiry job), without routes: apps/worker imports this;
 * BrochuresModule brings it into the API.
 */
@Module({
  imports: [MikroOrmModule.forFeature([Brochure, BrochureListing])],
  providers: [BrochureExpiry],
  exports: [BrochureExpiry],
})
export class BrochureJobsModule {}
