import { Injectable } from '@nestjs/common';
import { Agent } from '../domain/agent.entity';
import { AgentRepository } from '../domain/agent.repository';

/**
 * The agent roster as other contexts read it (listings name their agent by a roster row's id).
 * Exported by the identity module.
 */
@Injectable()
export class AgentRoster {
  constructor(private readonly agents: AgentRepository) {}

  /** An active agent of the agency, or null (a listing's `agentId` must name one). */
  activeAgent(organizationId: string, agentId: string): Promise<Agent | null> {
    return this.agents.findActiveInOrg(organizationId, agentId);
  }

  /** The rows among `ids` (active or not), by id. */
  async byIds(organizationId: string, ids: string[]): Promise<Map<string, Agent>> {
    const rows = await this.agents.findManyInOrg(organizationId, [...new Set(ids)]);
    return new Map(rows.map((agent) => [agent.id, agent]));
  }
}
