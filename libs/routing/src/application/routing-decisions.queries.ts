import { Injectable } from '@nestjs/common';
import { cappedResult, ListResult, Principal } from '@app/platform';
import { LeadAccess } from '@app/crm';
import { RoutingDecisionRepository } from '../domain/routing-decision.repository';
import { RoutingDecisionJson, toRoutingDecisionJson } from '../views/routing-decision.view';

export const DECISIONS_LISTED = 50;

/** `GET /v1/leads/{leadId}/routing-decisions`: the lead reached as usual, newest 50. */
@Injectable()
export class RoutingDecisionsQueries {
  constructor(
    private readonly access: LeadAccess,
    private readonly decisions: RoutingDecisionRepository,
  ) {}

  async ofLead(actor: Principal, leadId: number): Promise<ListResult<RoutingDecisionJson>> {
    await this.access.reachableLead(actor, leadId);
    const rows = await this.decisions.newestOfLead(actor.organizationId, leadId, DECISIONS_LISTED + 1);
    return cappedResult(rows.map(toRoutingDecisionJson), DECISIONS_LISTED);
  }
}
