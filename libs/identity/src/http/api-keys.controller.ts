import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiTags, ApiOperation } from '@nestjs/swagger';
import {
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
import { ApiKeysService } from '../application/api-keys.service';
import { ADMIN_ONLY_SCOPES } from '../domain/api-key.rules';
import {
  ApiKeyRowView,
  CreatedApiKeyView,
  RevokedApiKeyView,
  RotatedApiKeyView,
} from '../views/api-key.view';
import { CreateApiKeyDto, UpdateApiKeyDto } from './dto/api-key.dto';

const NOT_YOURS = "API_KEY_NOT_YOURS: a member managing a colleague's key";
const SYSTEM_KEY = 'FORBIDDEN: a key managed by the service (`system`)';
const NOT_GRANTABLE = `API_KEY_SCOPE_NOT_GRANTABLE: a member granting ${ADMIN_ONLY_SCOPES.join(' or ')}`;
const SERVER_SCOPES_WITH_WEBSITES =
  'API_KEY_ORIGINS_NOT_ALLOWED_FOR_SERVER_SCOPES: allowed websites on a key with crm, brochures or ' +
  'documents scopes. An `allowedOrigins` entry that is not scheme://host[:port], or a repeat, is VALIDATION_FAILED.';

/** Key management: session token routes, not `/v1`. Errors use the `/v1` envelope. */
@ApiTags('API keys')
@Controller('api-keys')
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Post()
  @ApiOperation({ summary: 'Create an API key' })
  @Session()
  @ApiCreatedResponse({ type: CreatedApiKeyView, description: 'The secret `key` is shown only here.' })
  @ApiJsonBodyErrors(SERVER_SCOPES_WITH_WEBSITES)
  @ApiForbiddenError(NOT_GRANTABLE)
  @ApiConflictError('API_KEY_LIMIT_REACHED: the person already has 10 active keys, or the organization 50')
  create(@CurrentPrincipal() actor: Principal, @Body() body: CreateApiKeyDto) {
    return this.keys.create(actor, body);
  }

  @Get()
  @ApiOperation({ summary: "List the agency's API keys" })
  @Session()
  @ApiOkResponse({
    type: [ApiKeyRowView],
    description: 'Every key of the organization, every status, newest first (a plain array).',
  })
  list(@CurrentPrincipal() actor: Principal) {
    return this.keys.list(actor);
  }

  @Patch(':id')
  @ApiOperation({ summary: "Change an API key's name, scopes, expiry or allowed origins" })
  @Session()
  @ApiOkResponse({ type: ApiKeyRowView })
  @ApiJsonBodyErrors(
    'VALIDATION_FAILED also for an empty change and an `expiresAt` not in the next 3650 days.',
    'API_KEY_SCOPE_RESERVED: agents:read sent in `scopes`.',
    SERVER_SCOPES_WITH_WEBSITES,
  )
  @ApiForbiddenError(
    `${NOT_YOURS}, or anyone but the owner widening its scopes or removing all its websites. ` +
      `${NOT_GRANTABLE}. ${SYSTEM_KEY}.`,
  )
  @ApiNotFoundError('API key')
  @ApiConflictError('API_KEY_NOT_ACTIVE: `Only an active key can be changed.`')
  update(
    @CurrentPrincipal() actor: Principal,
    @Param('id', UuidParam) id: string,
    @Body() body: UpdateApiKeyDto,
  ) {
    return this.keys.update(actor, id, body);
  }

  @Post(':id/rotate')
  @ApiOperation({ summary: 'Rotate an API key (the old one keeps working for a grace period)' })
  @Session()
  @ApiCreatedResponse({
    type: RotatedApiKeyView,
    description: 'The old key keeps working until previousKeyValidUntil.',
  })
  @ApiBadRequestErrors()
  @ApiForbiddenError(`${NOT_YOURS}. ${SYSTEM_KEY}.`)
  @ApiNotFoundError('API key')
  @ApiConflictError(
    'API_KEY_ALREADY_ROTATED: `This key was already rotated.` API_KEY_NOT_ACTIVE: `Only an active key can be rotated.`',
  )
  rotate(@CurrentPrincipal() actor: Principal, @Param('id', UuidParam) id: string) {
    return this.keys.rotate(actor, id);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Revoke an API key' })
  @HttpCode(200)
  @Session()
  @ApiOkResponse({ type: RevokedApiKeyView, description: 'Revoked at once, for good.' })
  @ApiBadRequestErrors()
  @ApiForbiddenError(`${NOT_YOURS}. ${SYSTEM_KEY}.`)
  @ApiNotFoundError('API key')
  revoke(@CurrentPrincipal() actor: Principal, @Param('id', UuidParam) id: string) {
    return this.keys.revoke(actor, id);
  }
}
