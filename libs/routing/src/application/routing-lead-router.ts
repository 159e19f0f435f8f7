import { LeadRouter, LeadRouterProvider, RoutableLead, RoutedOwners, RoutingLeads } from '@app/crm';
import { LeadAssigner } from './lead-assigner';
import { ReassignmentScheduler } from './reassignment-scheduler';

/**
 * The CRM's `LeadRouter` (issue 14 item 12): a lead a connector brought in is routed inside the
 * intake's transaction (trigger `intake`). The lead row is locked first; a lead that gained an
 * owner meanwhile (route-unassigned got there first) is left alone.
 */
@LeadRouterProvider()
export class RoutingLeadRouter implements LeadRouter {
  constructor(
    private readonly leads: RoutingLeads,
    private readonly assigner: LeadAssigner,
    private readonly reassignments: ReassignmentScheduler,
  ) {}

  async route(lead: RoutableLead, now: Date): Promise<RoutedOwners | null> {
    const locked = await this.leads.lock(lead.organizationId, lead.leadId);
    if (!locked || locked.assigneeIds.length > 0) return null;
    const assignment = await this.assigner.assign(lead, 'intake', [], now);
    if (!assignment) return null;
    this.reassignments.schedule(assignment);
    return { userIds: [assignment.userId], actor: assignment.actor };
  }
}
