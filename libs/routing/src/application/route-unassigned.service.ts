import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { Clock, Principal } from '@app/platform';
import { RoutingLeads } from '@app/crm';
import type { RouteUnassignedJson } from '../views/routing-preview.view';
import { LeadAssigner } from './lead-assigner';
import { ReassignmentScheduler } from './reassignment-scheduler';

/** Spec Limits: route-unassigned handles up to 500 leads. */
export const ROUTE_UNASSIGNED_LIMIT = 500;

/**
 * `POST /v1/lead-routing/route-unassigned` (issue 14 item 8): up to 500 unassigned leads, oldest
 * `createdAt` first, each in its own transaction: the lead is locked `FOR UPDATE SKIP LOCKED` and
 * must still be unassigned, so a lead assigned meanwhile (or being routed by a parallel call) is
 * left alone. `considered` counts the leads looked at, `assigned` those this call gave an owner,
 * `leftWaiting` those routing left unassigned (nobody able to take them).
 */
@Injectable()
export class RouteUnassignedService {
  constructor(
    private readonly em: EntityManager,
    private readonly leads: RoutingLeads,
    private readonly assigner: LeadAssigner,
    private readonly reassignments: ReassignmentScheduler,
    private readonly clock: Clock,
  ) {}

  async run(actor: Principal): Promise<RouteUnassignedJson> {
    const org = actor.organizationId;
    const leadIds = await this.leads.oldestUnassigned(org, ROUTE_UNASSIGNED_LIMIT);
    let assigned = 0;
    let leftWaiting = 0;
    for (const leadId of leadIds) {
      const outcome = await this.em.transactional(async () => {
        const lead = await this.leads.lockIfUnassigned(org, leadId);
        if (!lead) return 'untouched' as const;
        const now = this.clock.now();
        const assignment = await this.assigner.assign(lead, 'route_unassigned', [], now);
        if (!assignment) return 'waiting' as const;
        await this.leads.assign(org, leadId, [assignment.userId], assignment.actor, now);
        return assignment;
      });
      if (outcome === 'waiting') leftWaiting += 1;
      else if (outcome !== 'untouched') {
        assigned += 1;
        this.reassignments.schedule(outcome);
      }
    }
    return { considered: leadIds.length, assigned, leftWaiting };
  }
}
