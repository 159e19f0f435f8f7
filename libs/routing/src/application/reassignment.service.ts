import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { JobName, OnDelayedJob, Periodic, preparedRows } from '@app/platform';
import { RoutingLeads } from '@app/crm';
import { UUID } from '../domain/routing-facts';
import { LeadAssigner } from './lead-assigner';
import { ReassignmentScheduler } from './reassignment-scheduler';
import {
  dueDecisionsStatement,
  finishDecisionStatement,
  lockDueDecisionStatement,
  type DueDecisionRow,
} from './routing.sql';

/** Due reassignments one sweep handles at most (the next sweep takes the rest). */
export const SWEEP_BATCH = 200;

export type ReassignOutcome = 'not_due' | 'owners_changed' | 'acted' | 'reassigned' | 'kept';

/**
 * Reassignment (issue 14 item 7). At due time, in one transaction: the decision row is locked
 * (`SKIP LOCKED`: a job and the sweep never both handle it) and must still be pending; then the
 * lead. Nothing happens when the lead's owners changed since, or the assignee acted on it after
 * the assignment; otherwise the same route picks again leaving out this chain's earlier assignees
 * (`LeadAssigner.reassign`), at most pool size − 1 times. Handling is idempotent: the row is
 * marked `done` (or `dropped`) in the same transaction.
 */
@Injectable()
export class ReassignmentService {
  constructor(
    private readonly em: EntityManager,
    private readonly leads: RoutingLeads,
    private readonly assigner: LeadAssigner,
    private readonly scheduler: ReassignmentScheduler,
  ) {}

  /** The sweep: every 30 s, in-process without Redis and as the jobs' safety net with it. */
  @Periodic(JobName.RoutingReassignSweep, 30_000)
  async sweep(now: Date): Promise<{ handled: number; reassigned: number }> {
    const due = await this.em
      .fork()
      .transactional((em) => preparedRows<{ id: string }>(em, dueDecisionsStatement(now, SWEEP_BATCH)));
    let reassigned = 0;
    for (const { id } of due) {
      if ((await this.handle(id, now)) === 'reassigned') reassigned += 1;
    }
    return { handled: due.length, reassigned };
  }

  /** The delayed job `reassign:<decisionId>` (BullMQ, apps/worker). */
  @OnDelayedJob(JobName.RoutingReassign)
  async onDue(data: Record<string, unknown>, now: Date): Promise<{ outcome: ReassignOutcome }> {
    const decisionId = typeof data.decisionId === 'string' ? data.decisionId : '';
    return { outcome: UUID.test(decisionId) ? await this.handle(decisionId, now) : 'not_due' };
  }

  /** One due decision (a delayed job's work, or the sweep's). */
  handle(decisionId: string, now: Date): Promise<ReassignOutcome> {
    return this.em.fork().transactional(async () => {
      const [row] = await preparedRows<DueDecisionRow>(this.em, lockDueDecisionStatement(decisionId, now));
      if (!row) return 'not_due';
      const org = row.organizationId;
      const leadId = Number(row.leadId);
      const finish = async (outcome: ReassignOutcome, state: 'done' | 'dropped' = 'done') => {
        await preparedRows(this.em, finishDecisionStatement(decisionId, state));
        return outcome;
      };
      const lead = await this.leads.lock(org, leadId);
      if (!lead || lead.assigneeIds.length !== 1 || lead.assigneeIds[0] !== row.userId) {
        return finish('owners_changed');
      }
      if (await this.leads.actedSince(leadId, row.userId, new Date(row.at))) return finish('acted');
      if (!row.ruleId) return finish('kept');
      const assignment = await this.assigner.reassign(
        org,
        leadId,
        row.ruleId,
        row.chainUserIds,
        lead.assigneeIds,
        now,
      );
      if (!assignment) return finish('kept');
      await this.leads.assign(org, leadId, [assignment.userId], assignment.actor, now);
      this.scheduler.schedule(assignment);
      return finish('reassigned');
    });
  }
}
