import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiBadRequestErrors, CurrentPrincipal, Principal, Session } from '@app/platform';
import { AgentRoster } from '../application/agent-roster';
import { AgentPageView } from '../views/agent.view';
import { AgentListQueryDto } from './dto/agent.dto';

/**
 * The agent roster on a session (the spec opens only `/v1`, `/properties` and
 * `/property-sources` to API keys: a key gets 401 here and reads `GET /properties/agents`).
 */
@ApiTags('dashboard: agents')
@Controller('agents')
export class AgentsController {
  constructor(private readonly roster: AgentRoster) {}

  @Get()
  @ApiOperation({
    summary: 'List the agent roster',
    description:
      "The agency's agents: one row per member (made with the membership, names kept in step, " +
      'inactive once they leave) plus standalone agents, by last name, first name, id. A listing’s ' +
      '`agentId` is a row’s `id`. API keys read the same rows at `GET /properties/agents`.',
  })
  @Session()
  @ApiOkResponse({ type: AgentPageView })
  @ApiBadRequestErrors('`active` not true, false or all; `q` over 100 characters; `limit` outside 1-200.')
  list(@CurrentPrincipal() actor: Principal, @Query() query: AgentListQueryDto): Promise<AgentPageView> {
    return this.roster.list(actor.organizationId, query);
  }
}
