import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import {
  AgentListQueryDto,
  AgentPageView,
  AgentView,
  CreateAgentDto,
  UpdateAgentDto,
  type AgentChanges,
} from '@app/identity';
import {
  AdminOnly,
  ApiBadRequestErrors,
  ApiConflictError,
  ApiForbiddenError,
  ApiJsonBodyErrors,
  ApiNotFoundError,
  CurrentPrincipal,
  Principal,
  Session,
  UuidParam,
} from '@app/platform';
import { AgentsService } from '../application/agents.service';

/** Only the fields sent (the DTO's own keys may be present as undefined). */
const changesOf = (body: CreateAgentDto | UpdateAgentDto): AgentChanges => ({
  firstName: body.firstName,
  lastName: body.lastName,
  displayEmail: body.displayEmail,
  phoneNumber: body.phoneNumber,
  whatsappNumber: body.whatsappNumber,
  description: body.description,
  title: body.title,
  avatarUrl: body.avatarUrl,
  avatarThumbnailUrl: body.avatarThumbnailUrl,
  shareContactOnNetwork: body.shareContactOnNetwork,
  additionalInfo: body.additionalInfo,
  isActive: body.isActive,
});

/**
 * The agent roster on the dashboard (INTERFACES.md "Agent roster"): members' rows come with the
 * membership; an admin adds, changes and deletes standalone agents; a member changes their own
 * row's public fields.
 */
@ApiTags('dashboard: agents')
@Controller('organization/agents')
export class OrganizationAgentsController {
  constructor(private readonly agents: AgentsService) {}

  @Get()
  @ApiOperation({
    summary: 'List the agent roster',
    description: 'The rows of `GET /agents`, with the same query.',
  })
  @Session()
  @ApiOkResponse({ type: AgentPageView })
  @ApiBadRequestErrors('`active` not true, false or all; `q` over 100 characters; `limit` outside 1-200.')
  list(@CurrentPrincipal() actor: Principal, @Query() query: AgentListQueryDto): Promise<AgentPageView> {
    return this.agents.list(actor, query);
  }

  @Post()
  @ApiOperation({
    summary: 'Add a standalone agent',
    description:
      'An agent with no account behind it (`clerkUserId` null, `isClerkLinked` false): `firstName` ' +
      'required, the public fields, `additionalInfo`, `isActive` (default true).',
  })
  @Session()
  @AdminOnly()
  @ApiCreatedResponse({ type: AgentView })
  @ApiJsonBodyErrors()
  create(@CurrentPrincipal() actor: Principal, @Body() body: CreateAgentDto): Promise<AgentView> {
    return this.agents.create(actor, changesOf(body));
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Change an agent',
    description:
      'The fields sent change. An admin changes any row; a member only their own row, and only its ' +
      'public fields (`displayEmail`, `phoneNumber`, `whatsappNumber`, `description`, `title`, ' +
      '`avatarUrl`, `avatarThumbnailUrl`) and `shareContactOnNetwork`. A member’s row takes its names ' +
      'from the account and `isActive` from the membership: another value is 400.',
  })
  @Session()
  @ApiOkResponse({ type: AgentView })
  @ApiJsonBodyErrors(
    "`firstName`, `lastName` or `isActive` of a member's row differ from the account's (VALIDATION_FAILED).",
  )
  @ApiForbiddenError(
    "FORBIDDEN: a member changing another row, or a field other than their row's public ones.",
  )
  @ApiNotFoundError('Agent')
  change(
    @CurrentPrincipal() actor: Principal,
    @Param('id', UuidParam) id: string,
    @Body() body: UpdateAgentDto,
  ): Promise<AgentView> {
    return this.agents.change(actor, id, changesOf(body));
  }

  @Delete(':id')
  @ApiOperation({
    summary: 'Delete a standalone agent',
    description:
      'Standalone agents only (a member’s row stays, inactive once they leave), and not while a live ' +
      'listing names it. Deleted listings that named it let go of it.',
  })
  @HttpCode(204)
  @Session()
  @AdminOnly()
  @ApiNoContentResponse({ description: 'The agent is gone.' })
  @ApiBadRequestErrors()
  @ApiNotFoundError('Agent')
  @ApiConflictError("CONFLICT: a member's row, or a live listing names the agent.")
  remove(@CurrentPrincipal() actor: Principal, @Param('id', UuidParam) id: string): Promise<void> {
    return this.agents.remove(actor, id);
  }
}
