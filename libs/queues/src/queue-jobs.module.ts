import { Module } from '@nestjs/common';
import { OfferGenerator } from './application/offer-generator';

/**
 * The queues' periodic work (the hourly `time_passed` offers), without routes or CRM services:
 * apps/worker imports this; QueuesModule brings it into the API.
 */
@Module({
  providers: [OfferGenerator],
  exports: [OfferGenerator],
})
export class QueueJobsModule {}
