import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AgentListQueryDto, AgentPageView, AgentRoster } from '@app/identity';
import { ApiLegacyBadRequestErrors, CurrentPrincipal, ListingRoute, Principal } from '@app/platform';

/**
 * `GET /properties/agents`: the agent roster for API keys (a listing's `agentId`), the rows and
 * query of the session route `GET /agents`. Registered before any `/properties/{id}` controller.
 */
@ApiTags('properties')
@Controller('properties')
export class PropertyAgentsController {
  constructor(private readonly roster: AgentRoster) {}

  @Get('agents')
  @ApiOperation({
    summary: 'List the agent roster',
    description:
      "The agency's agents, as `GET /agents` gives them to a session: one row per member plus " +
      'standalone agents, by last name, first name, id. A listing’s `agentId` is an active row’s `id`.',
  })
  @ListingRoute('properties:read')
  @ApiOkResponse({ type: AgentPageView })
  @ApiLegacyBadRequestErrors(
    'VALIDATION_FAILED: `active` not true, false or all; `q` over 100 characters; `limit` outside ' +
      '1-200; `offset` negative.',
  )
  list(@CurrentPrincipal() actor: Principal, @Query() query: AgentListQueryDto): Promise<AgentPageView> {
    return this.roster.list(actor.organizationId, query);
  }
}
