import { TenantRepository } from '@app/platform/core';
import type { AwayPeriod } from './away-period.entity';

export class AwayPeriodRepository extends TenantRepository<AwayPeriod> {
  /** People away after `now`, soonest back first. */
  awayAfter(organizationId: string, now: Date): Promise<AwayPeriod[]> {
    return this.listInOrg(
      organizationId,
      { until: { $gt: now } },
      { orderBy: { until: 'asc', userId: 'asc' } },
    );
  }
}
