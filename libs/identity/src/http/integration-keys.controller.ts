import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  AdminOnly,
  ApiBadRequestErrors,
  ApiConflictError,
  ApiJsonBodyErrors,
  ApiNotFoundError,
  CurrentIntegration,
  CurrentPrincipal,
  IntegrationPrincipal,
  IntegrationRoute,
  Principal,
  Session,
  UuidParam,
} from '@app/platform';
import { IntegrationKeysService } from '../application/integration-keys.service';
import { RevokedApiKeyView } from '../views/api-key.view';
import {
  CreatedIntegrationKeyView,
  IntegrationKeyListView,
  integrationMe,
  IntegrationMeJson,
  IntegrationMeView,
} from '../views/integration-key.view';
import { CreateIntegrationKeyDto } from './dto/integration-key.dto';

/** Integration keys: admin session routes. Errors use the `/v1` envelope. */
@ApiTags('integration keys')
@Controller('integration-keys')
export class IntegrationKeysController {
  constructor(private readonly keys: IntegrationKeysService) {}

  @Post()
  @ApiOperation({
    summary: 'Issue an integration key',
    description: 'A key for one connector; it belongs to the organization and opens only `/integrations/v1`.',
  })
  @Session()
  @AdminOnly()
  @ApiCreatedResponse({
    type: CreatedIntegrationKeyView,
    description: 'The secret `key` is shown only here.',
  })
  @ApiJsonBodyErrors()
  @ApiConflictError('CONFLICT: the organization already has 20 active integration keys')
  issue(@CurrentPrincipal() actor: Principal, @Body() body: CreateIntegrationKeyDto) {
    return this.keys.issue(actor, body);
  }

  @Get()
  @ApiOperation({ summary: "List the agency's integration keys", description: 'Revoked keys stay listed.' })
  @Session()
  @AdminOnly()
  @ApiOkResponse({ type: IntegrationKeyListView })
  list(@CurrentPrincipal() actor: Principal) {
    return this.keys.list(actor);
  }

  @Delete(':id')
  @ApiOperation({
    summary: 'Revoke an integration key',
    description: 'The key answers 401 from the next call.',
  })
  @HttpCode(200)
  @Session()
  @AdminOnly()
  @ApiOkResponse({ type: RevokedApiKeyView, description: 'Revoked at once, for good.' })
  @ApiBadRequestErrors()
  @ApiNotFoundError('Integration key')
  revoke(@CurrentPrincipal() actor: Principal, @Param('id', UuidParam) id: string) {
    return this.keys.revoke(actor, id);
  }
}

/** The connector's own identity on `/integrations/v1`. */
@ApiTags('integrations: connector')
@Controller('integrations/v1')
export class IntegrationMeController {
  @Get('me')
  @ApiOperation({
    summary: 'The calling integration key and its organization',
    description: 'A cheap way for a connector to check its key works.',
  })
  @IntegrationRoute()
  @ApiOkResponse({ type: IntegrationMeView })
  me(@CurrentIntegration() caller: IntegrationPrincipal): IntegrationMeJson {
    return integrationMe(caller);
  }
}
