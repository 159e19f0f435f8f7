import { Module } from '@nestjs/common';
import { BrochureExpiry } from './application/brochure-expiry';

/**
 * The brochures' periodic work (the expiry job), without routes: apps/worker imports this;
 * BrochuresModule brings it into the API.
 */
@Module({
  providers: [BrochureExpiry],
  exports: [BrochureExpiry],
})
export class BrochureJobsModule {}
