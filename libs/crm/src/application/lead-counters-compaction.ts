import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { JobName, Periodic } from '@app/platform';
import { compactLeadCounters } from './lead-counters.sql';

/**
 * Lead totals per status and per tag are appended by the leads' triggers, one row per statement,
 * so concurrent creates never queue on one counter row (docs/reliability.md, "Counters without a
 * hot row"); reads sum them. Every 10 s this folds them back into one row per key, so a read sums
 * a few rows, not every write since the start.
 */
@Injectable()
export class LeadCountersCompaction {
  constructor(private readonly em: EntityManager) {}

  @Periodic(JobName.CompactLeadCounters, 10_000)
  async compact(_now: Date): Promise<{ compacted: true }> {
    const statement = compactLeadCounters();
    await this.em.fork().getConnection().execute(statement.sql, statement.params);
    return { compacted: true };
  }
}
