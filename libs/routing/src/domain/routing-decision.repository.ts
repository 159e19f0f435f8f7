import { TenantRepository } from '@app/platform/core';
import type { RoutingDecisionRecord } from './routing-decision.entity';

export class RoutingDecisionRepository extends TenantRepository<RoutingDecisionRecord> {
  /** A lead's decisions, newest first (`limit` + 1 read for `hasMore`). */
  newestOfLead(organizationId: string, leadId: number, limit: number): Promise<RoutingDecisionRecord[]> {
    return this.listInOrg(organizationId, { leadId }, { orderBy: { at: 'desc', id: 'desc' }, limit });
  }

  /** Decisions per route since `since` (`leadsLast30Days`). */
  async countByRuleSince(organizationId: string, since: Date): Promise<Map<string, number>> {
    const rows = await this.getEntityManager().execute<{ rule_id: string; n: number }[]>(
      `select rule_id, count(*)::int as n from routing_decisions
        where organization_id = ? and rule_id is not null and at >= ? group by rule_id`,
      [organizationId, since],
    );
    return new Map(rows.map((row) => [row.rule_id, row.n]));
  }

  /** A deleted route's pending reassignments are dropped. */
  async dropPendingOf(organizationId: string, ruleId: string): Promise<void> {
    await this.getEntityManager().execute(
      `update routing_decisions set reassign_state = 'dropped'
        where organization_id = ? and rule_id = ? and reassign_state = 'pending'`,
      [organizationId, ruleId],
    );
  }
}
