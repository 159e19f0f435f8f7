import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import {
  Clock,
  conflict,
  forbidden,
  isAdmin,
  notFound,
  preparedRows,
  Principal,
  validationFailed,
  type ValidationIssue,
} from '@app/platform';
import { Agent, AGENT_PUBLIC_FIELDS, type AgentChanges } from '../domain/agent.entity';
import { AgentRepository } from '../domain/agent.repository';
import { agentView, type AgentJson, type AgentPageJson } from '../views/agent.view';
import { agentPageStatement, type AgentListQuery } from './agent-list.sql';

const agentNotFound = () => notFound('Agent');

/**
 * The agent roster as other contexts read and change it (listings name their agent by a roster
 * row's id; the `/organization/agents` routes live in listings, which checks its own listings
 * before a delete). Exported by the identity module. Members' rows are made and retired with the
 * membership (AccountsService, MembersService), never here.
 */
@Injectable()
export class AgentRoster {
  constructor(
    private readonly em: EntityManager,
    private readonly agents: AgentRepository,
    private readonly clock: Clock,
  ) {}

  /** An active agent of the agency, or null (a listing's `agentId` must name one). */
  activeAgent(organizationId: string, agentId: string): Promise<Agent | null> {
    return this.agents.findActiveInOrg(organizationId, agentId);
  }

  /** The row of a member (or of someone who was one) of the agency, or null (a brochure's agent card). */
  ofMember(organizationId: string, userId: string): Promise<Agent | null> {
    return this.agents.findOfMember(organizationId, userId);
  }

  /** The rows among `ids` (active or not), by id. */
  async byIds(organizationId: string, ids: string[]): Promise<Map<string, Agent>> {
    const rows = await this.agents.findManyInOrg(organizationId, [...new Set(ids)]);
    return new Map(rows.map((agent) => [agent.id, agent]));
  }

  /** A page of the roster (`{data, hasMore, total}`): the page's ids first, then those rows. */
  async list(organizationId: string, query: AgentListQuery): Promise<AgentPageJson> {
    // the text varies with the filters: pg's unnamed statement
    const rows = await preparedRows<{ total: string; id: string | null }>(
      this.em,
      agentPageStatement(organizationId, query),
      { prepare: false },
    );
    const ids = rows.flatMap((row) => (row.id === null ? [] : [row.id]));
    const found = await this.byIds(organizationId, ids);
    const data = ids.flatMap((id) => {
      const agent = found.get(id);
      return agent ? [agentView(agent)] : [];
    });
    const total = Number(rows[0]?.total ?? 0);
    return { data, hasMore: data.length > 0 && query.offset + data.length < total, total };
  }

  /** One row of the agency (active or not). */
  async get(organizationId: string, agentId: string): Promise<AgentJson> {
    const agent = await this.agents.findInOrg(organizationId, { id: agentId });
    if (!agent) throw agentNotFound();
    return agentView(agent);
  }

  /** A standalone agent (the caller is an admin: the route says so). */
  async createStandalone(actor: Principal, changes: AgentChanges): Promise<AgentJson> {
    const agent = Agent.standalone(actor.organizationId, changes, this.clock.now());
    await this.em.persist(agent).flush();
    return agentView(agent);
  }

  /**
   * An admin changes any row; a member only their own row's public fields (403 FORBIDDEN
   * otherwise). A member's row takes its names from the account and `isActive` from the
   * membership: a different value is 400 VALIDATION_FAILED.
   */
  async change(actor: Principal, agentId: string, changes: AgentChanges): Promise<AgentJson> {
    return this.em.transactional(async () => {
      const agent = await this.agents.findInOrgLocked(actor.organizationId, agentId);
      if (!agent) throw agentNotFound();
      if (!isAdmin(actor)) {
        if (agent.clerkUserId !== actor.userId) throw forbidden('A member changes only their own agent row.');
        const adminOnly = Object.keys(changes).filter(
          (field) =>
            changes[field as keyof AgentChanges] !== undefined &&
            !(AGENT_PUBLIC_FIELDS as readonly string[]).includes(field),
        );
        if (adminOnly.length > 0) {
          throw forbidden(`Only an admin changes ${adminOnly.join(', ')}.`);
        }
      }
      if (agent.isClerkLinked) refuseAccountFields(agent, changes);
      agent.change(changes, this.clock.now());
      return agentView(agent);
    });
  }

  /**
   * Inside the delete's transaction (listings runs it, having checked its own listings): the
   * standalone row, locked. A member's row → 409 CONFLICT (it goes inactive when they leave).
   */
  async lockStandalone(organizationId: string, agentId: string): Promise<Agent> {
    const agent = await this.agents.findInOrgLocked(organizationId, agentId);
    if (!agent) throw agentNotFound();
    if (agent.isClerkLinked) {
      throw conflict("A member's agent row cannot be deleted; it becomes inactive when they leave.");
    }
    return agent;
  }

  /** Inside the delete's transaction: the row goes at commit. */
  remove(agent: Agent): void {
    this.em.remove(agent);
  }
}

/** The names and `isActive` of a member's row follow their account and membership. */
function refuseAccountFields(agent: Agent, changes: AgentChanges): void {
  const issues: ValidationIssue[] = [];
  for (const field of ['firstName', 'lastName', 'isActive'] as const) {
    if (changes[field] !== undefined && changes[field] !== agent[field]) {
      issues.push({
        path: field,
        message: `${field} of a member's agent row follows their account and cannot be changed here`,
      });
    }
  }
  if (issues.length > 0) throw validationFailed(issues);
}
