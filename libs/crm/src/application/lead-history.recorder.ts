import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { IntegrationPrincipal, Principal } from '@app/platform';
import { CrmStatus, Lead } from '../domain/lead.entity';
import { LeadHistory } from '../domain/lead-history.entity';

export type DealHistoryPayload =
  | { dealId: string; action: 'created'; stage: string; assigneeIds: string[] }
  | { dealId: string; action: 'stage-changed'; from: string; stage: string }
  | { dealId: string; action: 'reopened'; stage: string }
  | { dealId: string; action: 'assignees-changed'; addedUserIds: string[]; removedUserIds: string[] };

/**
 * History rows for changes made through the API (source `api`). Persisted with the change
 * itself, so both land in the same flush.
 */
@Injectable()
export class LeadHistoryRecorder {
  constructor(private readonly em: EntityManager) {}

  created(actor: Principal, lead: Lead, now: Date): void {
    this.add(
      actor,
      lead.id,
      'lead-created',
      { source: 'api', leadGroupName: lead.leadGroup, crmStatus: lead.crmStatus },
      now,
    );
    if (lead.assigneeIds.length > 0)
      this.assigneeChange(actor, lead.id, { added: lead.assigneeIds, removed: [] }, now);
  }

  statusChange(actor: Principal, leadId: number, from: CrmStatus, to: CrmStatus, now: Date): void {
    if (from === to) return;
    this.add(actor, leadId, 'status-change', { from, to, changedBy: actor.userId, source: 'api' }, now);
  }

  assigneeChange(
    actor: Principal,
    leadId: number,
    change: { added: string[]; removed: string[] },
    now: Date,
  ): void {
    if (change.added.length === 0 && change.removed.length === 0) return;
    this.add(
      actor,
      leadId,
      'assignee-change',
      { addedUserIds: change.added, removedUserIds: change.removed, changedBy: actor.userId, source: 'api' },
      now,
    );
  }

  task(
    actor: Principal,
    leadId: number,
    taskId: string,
    action: 'created' | 'completed' | 'reopened',
    now: Date,
  ): void {
    this.add(actor, leadId, 'task', { taskId, action }, now);
  }

  /**
   * Spec (History records): a deal's opening stage, stage moves, reopens and owner changes; marking
   * a deal won or lost writes none. The timeline shows `created`, `stage-changed` and `reopened`.
   */
  deal(actor: Principal, leadId: number, payload: DealHistoryPayload, now: Date): void {
    this.add(actor, leadId, 'deal', { ...payload, changedBy: actor.userId, source: 'api' }, now);
  }

  /** A lead a connector brought in: `changedBy` null and `actor` `integration:<keyId>` (no person). */
  createdByConnector(caller: IntegrationPrincipal, lead: Lead, now: Date): void {
    this.addRow(
      caller.organizationId,
      lead.id,
      'lead-created',
      {
        source: lead.source,
        leadGroupName: lead.leadGroup,
        crmStatus: lead.crmStatus,
        changedBy: null,
        actor: caller.actor,
      },
      null,
      now,
    );
  }

  /**
   * Owners given by lead routing (INTERFACES.md "Lead routing"): an `assignee-change` with
   * `changedBy` null and `actor` `routing:<ruleId>` (no person made it).
   */
  routed(
    organizationId: string,
    leadId: number,
    change: { added: string[]; removed: string[] },
    actor: string,
    now: Date,
  ): void {
    if (change.added.length === 0 && change.removed.length === 0) return;
    this.addRow(
      organizationId,
      leadId,
      'assignee-change',
      {
        addedUserIds: change.added,
        removedUserIds: change.removed,
        changedBy: null,
        source: 'api',
        actor,
      },
      null,
      now,
    );
  }

  private add(
    actor: Principal,
    leadId: number,
    type: LeadHistory['type'],
    payload: Record<string, unknown>,
    now: Date,
  ): void {
    this.addRow(actor.organizationId, leadId, type, payload, actor.userId, now);
  }

  private addRow(
    organizationId: string,
    leadId: number,
    type: LeadHistory['type'],
    payload: Record<string, unknown>,
    actorId: string | null,
    now: Date,
  ): void {
    this.em.persist(new LeadHistory({ organizationId, leadId, type, payload, source: 'api', actorId }, now));
  }
}
