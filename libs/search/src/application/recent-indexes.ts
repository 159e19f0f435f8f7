import { CreateRequestContext, MikroORM } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { HOUR, JobName, Periodic, preparedRows, runMaintenance } from '@app/platform';
import { ExistingIndex, recentIndexPlan } from '../domain/recent-indexes';
import { recentIndexesStatement } from './search-index.sql';

/**
 * Rolls the recent indexes (`domain/recent-indexes.ts`, README "Search", "Index"): hourly, the
 * indexes of this month's bound are built concurrently if missing (writes go on), then the older
 * ones are dropped concurrently; most runs find nothing to do. Runs in apps/worker with REDIS_URL,
 * on the API's timer without it. A failed build leaves an invalid index, which the next run
 * rebuilds; until then slices use the older or the full indexes (slower, the same answers).
 */
@Injectable()
export class RecentIndexes {
  constructor(
    // CreateRequestContext (the periodic job) finds the ORM here
    private readonly orm: MikroORM,
    private readonly em: EntityManager,
  ) {}

  @Periodic(JobName.SearchRecentIndexes, HOUR)
  @CreateRequestContext()
  async roll(now: Date): Promise<{ since: string; created: string[]; dropped: string[] }> {
    const existing = await preparedRows<ExistingIndex>(this.em, recentIndexesStatement);
    const plan = recentIndexPlan(now, existing);
    if (plan.statements.length > 0) await runMaintenance(this.em, plan.statements);
    return { since: plan.since, created: plan.created, dropped: plan.dropped };
  }
}
