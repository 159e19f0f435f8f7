import { TenantRepository } from '@app/platform/core';
import type { LeadRoute } from './lead-route.entity';

export class LeadRouteRepository extends TenantRepository<LeadRoute> {
  /** The organization's routes, position 0 first. */
  byPosition(organizationId: string): Promise<LeadRoute[]> {
    return this.listInOrg(organizationId, {}, { orderBy: { position: 'asc', createdAt: 'asc' } });
  }

  /** A new route's fairness state row (nobody assigned yet, no counters). */
  async createState(organizationId: string, ruleId: string): Promise<void> {
    await this.getEntityManager().execute(
      `insert into route_state (rule_id, organization_id) values (?, ?) on conflict (rule_id) do nothing`,
      [ruleId, organizationId],
    );
  }

  /** The pool changed: the weighted counters start again (counted since the pool last changed). */
  async resetReceived(organizationId: string, ruleId: string): Promise<void> {
    await this.getEntityManager().execute(
      `update route_state set received = '{}'::jsonb where organization_id = ? and rule_id = ?`,
      [organizationId, ruleId],
    );
  }
}
