import { TenantRepository } from '@app/platform/core';
import type { Deal } from './deal.entity';

export class DealRepository extends TenantRepository<Deal> {
  /**
   * The open deals `personId` is on whose expected close falls on a UTC date in [`fromDay`,
   * `toDay`), earliest first (the partial index on open deals serves it).
   */
  listOpenClosingOn(
    organizationId: string,
    personId: string,
    days: { fromDay: Date; toDay: Date },
    limit: number,
  ): Promise<Deal[]> {
    return this.createQueryBuilder('d')
      .where({
        organizationId,
        status: 'open',
        assigneeIds: { $contains: [personId] },
        // its UTC date is in [fromDay, toDay) exactly when the moment is in [fromDay 00:00Z, toDay 00:00Z)
        expectedCloseAt: { $gte: days.fromDay, $lt: days.toDay },
      })
      .orderBy({ expectedCloseAt: 'asc', id: 'asc' })
      .limit(limit)
      .getResult();
  }
}
