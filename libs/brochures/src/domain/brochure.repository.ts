import { TenantRepository } from '@app/platform/core';
import type { Brochure } from './brochure.entity';

export class BrochureRepository extends TenantRepository<Brochure> {
  /** Across agencies on purpose: the public page finds a brochure by its link alone. */
  bySlug(slug: string): Promise<Brochure | null> {
    return this.findOne({ slug });
  }

  /** Across agencies on purpose: the expiry job's batch, for its events. */
  byIds(ids: string[]): Promise<Brochure[]> {
    return ids.length === 0 ? Promise.resolve([]) : this.find({ id: { $in: ids } });
  }
}
