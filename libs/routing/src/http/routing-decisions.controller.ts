import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ApiBadRequestErrors,
  ApiNotFoundError,
  CurrentPrincipal,
  IntParam,
  Principal,
  RequireScopes,
} from '@app/platform';
import { DECISIONS_LISTED, RoutingDecisionsQueries } from '../application/routing-decisions.queries';
import { RoutingDecisionListView } from '../views/routing-decision.view';

@ApiTags('v1: lead routing')
@Controller('v1')
export class RoutingDecisionsController {
  constructor(private readonly decisions: RoutingDecisionsQueries) {}

  @Get('leads/:leadId/routing-decisions')
  @ApiOperation({
    summary: "List a lead's routing decisions",
    description:
      'Why lead routing gave this lead to whom: every real assignment (intake, route-unassigned, reassignment) ' +
      `with its route, strategy, the steps through the routes and who was skipped, newest first (at most ${DECISIONS_LISTED}).`,
  })
  @RequireScopes('crm:read')
  @ApiOkResponse({ type: RoutingDecisionListView })
  @ApiBadRequestErrors()
  @ApiNotFoundError('Lead', "when it is absent, another agency's, or out of the caller's reach")
  list(@CurrentPrincipal() actor: Principal, @Param('leadId', IntParam) leadId: number) {
    return this.decisions.ofLead(actor, leadId);
  }
}
