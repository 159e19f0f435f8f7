import { EntityManager, ForeignKeyConstraintViolationException } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import {
  AgentRoster,
  type AgentChanges,
  type AgentJson,
  type AgentPageJson,
  type AgentListQuery,
} from '@app/identity';
import { conflict, preparedRows, Principal, type Statement } from '@app/platform';

const AGENT_IN_USE = 'This agent is named on a listing; give its listings another agent first.';

/**
 * Whether a live listing names the agent (`in_use`); the agency's deleted listings that name it
 * let go of it in the same statement (they are never read again, and the foreign key would
 * otherwise refuse the delete). When the agent is in use the transaction rolls that back.
 */
export const agentUseStatement = (organizationId: string, agentId: string): Statement => ({
  sql: `with released as (
          update listings set agent_id = null
           where organization_id = ? and agent_id = ? and deleted_at is not null
          returning id)
        select exists (select 1 from listings
                        where organization_id = ? and agent_id = ? and deleted_at is null) as in_use,
               (select count(*) from released)::int as released`,
  params: [organizationId, agentId, organizationId, agentId],
});

/**
 * The session routes of the agent roster (`/organization/agents`). The rows are identity's
 * (`AgentRoster`); this context only adds what needs its own table: a delete is refused while a
 * live listing names the agent.
 */
@Injectable()
export class AgentsService {
  constructor(
    private readonly em: EntityManager,
    private readonly roster: AgentRoster,
  ) {}

  list(actor: Principal, query: AgentListQuery): Promise<AgentPageJson> {
    return this.roster.list(actor.organizationId, query);
  }

  create(actor: Principal, changes: AgentChanges): Promise<AgentJson> {
    return this.roster.createStandalone(actor, changes);
  }

  change(actor: Principal, agentId: string, changes: AgentChanges): Promise<AgentJson> {
    return this.roster.change(actor, agentId, changes);
  }

  /** Admin, standalone rows only (a member's row → 409), never while a live listing names it (409). */
  async remove(actor: Principal, agentId: string): Promise<void> {
    try {
      await this.em.transactional(async () => {
        // the row locked first: a listing written meanwhile waits for the delete's outcome
        const agent = await this.roster.lockStandalone(actor.organizationId, agentId);
        const [use] = await preparedRows<{ in_use: boolean }>(
          this.em,
          agentUseStatement(actor.organizationId, agentId),
        );
        if (use?.in_use) throw conflict(AGENT_IN_USE);
        this.roster.remove(agent);
      });
    } catch (err) {
      // a listing that named the agent committed between the check and the delete
      if (err instanceof ForeignKeyConstraintViolationException) throw conflict(AGENT_IN_USE);
      throw err;
    }
  }
}
