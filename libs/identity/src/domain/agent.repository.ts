import { LockMode } from '@mikro-orm/postgresql';
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

  /** The row of a member (or of someone who was one) in the agency. */
  findOfMember(organizationId: string, userId: string): Promise<Agent | null> {
    return this.findInOrg(organizationId, { clerkUserId: userId });
  }

  /** Inside a transaction: the row, locked until commit (a change or a delete of it). */
  findInOrgLocked(organizationId: string, id: string): Promise<Agent | null> {
    return this.findInOrg(organizationId, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  }

  /** Across agencies on purpose: every row of one person, whose names follow their account. */
  findAllOfPerson(userId: string): Promise<Agent[]> {
    return this.find({ clerkUserId: userId });
  }
}
