import { Injectable } from '@nestjs/common';
import { DelayedJobs, JobName } from '@app/platform';
import type { Assignment } from './lead-assigner';

/** The delayed job's id for a decision (BullMQ keeps one job per id). */
export const reassignJobId = (decisionId: string): string => `reassign:${decisionId}`;

/**
 * Fires a reassignment at its due time: a BullMQ delayed job (`jobId` `reassign:<decisionId>`)
 * when Redis is configured, handed over without waiting (never on the request's path, never its
 * failure). The decision row is the truth: the 30 s sweep (`ReassignmentService.sweep`) handles
 * whatever a job missed, and the only thing without Redis.
 */
@Injectable()
export class ReassignmentScheduler {
  constructor(private readonly jobs: DelayedJobs) {}

  schedule(assignment: Assignment): void {
    if (!assignment.reassignDueAt) return;
    this.jobs.schedule(
      JobName.RoutingReassign,
      reassignJobId(assignment.decisionId),
      { decisionId: assignment.decisionId },
      assignment.reassignDueAt,
    );
  }
}
