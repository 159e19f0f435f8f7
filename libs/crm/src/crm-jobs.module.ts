import { Module } from '@nestjs/common';
import { LeadCountersCompaction } from './application/lead-counters-compaction';

/**
 * The CRM's periodic work (the lead counters' compaction), without routes: apps/worker imports
 * this; CrmModule brings it into the API.
 */
@Module({ providers: [LeadCountersCompaction], exports: [LeadCountersCompaction] })
export class CrmJobsModule {}
