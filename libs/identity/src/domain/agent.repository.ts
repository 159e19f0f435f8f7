import { TenantRepository } from '@app/platform/core';
import type { Agent } from './agent.entity';

export class AgentRepository extends TenantRepository<Agent> {
  /** A listing's agent must be an active row of the agency. */
  findActiveInOrg(organizationId: string, id: string): Promise<Agent | null> {
    return this.findInOrg(organizationId, { id, isActive: true });
  }

  /** The roster rows among `ids` (listing records show their agent). */
  findManyInOrg(organizationId: string, ids: string[]): Promise<Agent[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.listInOrg(organizationId, { id: { $in: ids } });
  }
}
