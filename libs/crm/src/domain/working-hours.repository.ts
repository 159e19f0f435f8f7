import { TenantRepository } from '@app/platform/core';
import type { WorkingHours } from './working-hours.entity';

export class WorkingHoursRepository extends TenantRepository<WorkingHours> {
  /**
   * Writes the person's row in one statement: two first PUTs at once both succeed (the later
   * wins) instead of one failing on the primary key.
   */
  async save(hours: WorkingHours): Promise<void> {
    await this.getEntityManager().upsert(hours);
  }
}
