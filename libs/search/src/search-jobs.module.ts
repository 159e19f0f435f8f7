import { Module } from '@nestjs/common';
import { RecentIndexes } from './application/recent-indexes';

/**
 * Search's periodic work (the recent indexes' roll), without routes: apps/worker imports this;
 * SearchModule brings it into the API.
 */
@Module({
  providers: [RecentIndexes],
  exports: [RecentIndexes],
})
export class SearchJobsModule {}
