import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ADMIN_ONLY_SCOPES,
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
import { McpKeysService } from '../application/mcp-keys.service';
import { CreatedMcpKeyView, McpKeyPageView, McpKeyRevokedView } from '../views/mcp-key.view';
import { CreateMcpKeyDto, ListMcpKeysQueryDto } from './dto/mcp-key.dto';

const NOT_YOURS = "API_KEY_NOT_YOURS: a member revoking a colleague's key";

/** MCP keys: session-token routes of the dashboard (errors in the envelope). */
@ApiTags('MCP keys')
@Controller('mcp-keys')
export class McpKeysController {
  constructor(private readonly keys: McpKeysService) {}

  @Post()
  @ApiOperation({
    summary: 'Create an MCP key',
    description:
      "A key for `POST /mcp` (`svc_mcp_` + 32 letters and digits) acting as the caller, with the caller's " +
      'role on every call and the scopes given here. At most 10 active keys a person.',
  })
  @Session()
  @ApiCreatedResponse({ type: CreatedMcpKeyView, description: 'The secret `key` is shown only here.' })
  @ApiJsonBodyErrors()
  @ApiForbiddenError(`API_KEY_SCOPE_NOT_GRANTABLE: a member granting ${ADMIN_ONLY_SCOPES.join(' or ')}`)
  @ApiConflictError('API_KEY_LIMIT_REACHED: the person already has 10 active MCP keys')
  create(@CurrentPrincipal() actor: Principal, @Body() body: CreateMcpKeyDto) {
    return this.keys.create(actor, body);
  }

  @Get()
  @ApiOperation({
    summary: 'List MCP keys',
    description:
      "The caller's keys (an admin's: every key of the organization), every status, newest first; never the secret.",
  })
  @Session()
  @ApiOkResponse({ type: McpKeyPageView })
  @ApiBadRequestErrors()
  list(@CurrentPrincipal() actor: Principal, @Query() query: ListMcpKeysQueryDto) {
    return this.keys.list(actor, query);
  }

  @Delete(':id')
  @ApiOperation({
    summary: 'Revoke an MCP key',
    description: 'At once and for good: the key answers 401 afterwards.',
  })
  @HttpCode(200)
  @Session()
  @ApiOkResponse({ type: McpKeyRevokedView })
  @ApiBadRequestErrors()
  @ApiForbiddenError(NOT_YOURS)
  @ApiNotFoundError('MCP key')
  revoke(@CurrentPrincipal() actor: Principal, @Param('id', UuidParam) id: string) {
    return this.keys.revoke(actor, id);
  }
}
