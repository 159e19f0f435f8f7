import { TenantRepository } from '@app/platform/core';
import type { LeadRoute } from './lead-route.entity';

export class LeadRouteRepository extends TenantRepository<LeadRoute> {
  /** The organization's routes, position 0 first. */
  byPosition(organizationId: string): Promise<LeadRoute[]> {
    return this.listInOrg(organizationId, {}, { orderBy: { position: 'asc', createdAt: 'asc' } });
  }
}
