import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { preparedRows, SYSTEM_ACTOR } from '@app/platform';
import { LeadRepository } from '../domain/lead.repository';
import type { RoutableLead } from '../extension-points/lead-router';
import { changeOf, CrmEvents } from './crm-events';
import { LeadHistoryRecorder } from './lead-history.recorder';
import {
  actedSinceStatement,
  lockLeadForRoutingStatement,
  lockUnassignedLeadStatement,
  oldestUnassignedStatement,
  openLeadCountsStatement,
  routingFactsStatement,
} from './routing-leads.sql';

/** A lead as lead routing sees it: its routing facts and its owners. */
export interface RoutingLead extends RoutableLead {
  assigneeIds: string[];
}

interface FactRow extends Omit<RoutingLead, 'leadId'> {
  leadId: string;
}

const toLead = (row: FactRow | undefined): RoutingLead | null =>
  row
    ? { ...row, leadId: Number(row.leadId), tagIds: row.tagIds ?? [], assigneeIds: row.assigneeIds ?? [] }
    : null;

/**
 * What lead routing (libs/routing) reads and writes on leads: the facts, the locks its decisions
 * take, the owners it gives (history `actor` `routing:<ruleId>`) and whether an owner acted.
 * Callers run these inside their own transaction; tenant scope is the organization passed.
 */
@Injectable()
export class RoutingLeads {
  constructor(
    private readonly em: EntityManager,
    private readonly leads: LeadRepository,
    private readonly history: LeadHistoryRecorder,
    private readonly events: CrmEvents,
  ) {}

  async facts(organizationId: string, leadId: number): Promise<RoutingLead | null> {
    return toLead((await preparedRows<FactRow>(this.em, routingFactsStatement(organizationId, leadId)))[0]);
  }

  /** The lead locked `FOR UPDATE` (null when it is not in the organization). */
  async lock(organizationId: string, leadId: number): Promise<RoutingLead | null> {
    return toLead(
      (await preparedRows<FactRow>(this.em, lockLeadForRoutingStatement(organizationId, leadId)))[0],
    );
  }

  /** The lead locked when it is still unassigned and nobody else holds it (`SKIP LOCKED`); else null. */
  async lockIfUnassigned(organizationId: string, leadId: number): Promise<RoutingLead | null> {
    return toLead(
      (await preparedRows<FactRow>(this.em, lockUnassignedLeadStatement(organizationId, leadId)))[0],
    );
  }

  async oldestUnassigned(organizationId: string, limit: number): Promise<number[]> {
    const rows = await preparedRows<{ id: string }>(
      this.em,
      oldestUnassignedStatement(organizationId, limit),
    );
    return rows.map((row) => Number(row.id));
  }

  async openLeadCounts(organizationId: string): Promise<Record<string, number>> {
    const rows = await preparedRows<{ userId: string; n: number }>(
      this.em,
      openLeadCountsStatement(organizationId),
    );
    return Object.fromEntries(rows.map((row) => [row.userId, row.n]));
  }

  async actedSince(leadId: number, userId: string, since: Date): Promise<boolean> {
    const rows = await preparedRows<{ acted: boolean }>(this.em, actedSinceStatement(leadId, userId, since));
    return rows[0]?.acted === true;
  }

  /**
   * Routing's owners replace the lead's (the row already locked by the caller), with its history
   * row and its `lead.routed` event (the caller's transaction).
   */
  async assign(
    organizationId: string,
    leadId: number,
    userIds: string[],
    actor: string,
    now: Date,
  ): Promise<void> {
    const lead = await this.leads.findInOrg(organizationId, { id: leadId }, { refresh: true });
    if (!lead) return;
    const owners = [...lead.assigneeIds];
    const change = lead.replaceAssignees(userIds, now);
    this.history.routed(organizationId, leadId, change, actor, now);
    await this.em.flush();
    // automatic routing: the system's `lead.routed` (issue 19)
    const routed = changeOf({ assigneeIds: owners }, { assigneeIds: lead.assigneeIds });
    if (routed) {
      const parts = [{ type: 'lead.routed' as const, change: routed }];
      await this.events.leadChanged(this.em, organizationId, leadId, parts, SYSTEM_ACTOR, now);
    }
  }
}
