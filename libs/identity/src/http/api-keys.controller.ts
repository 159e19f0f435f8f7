import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, ErrorEnvelopeView, Principal, Session, UuidParam } from '@app/platform';
import { ApiKeysService } from '../application/api-keys.service';
import {
  ApiKeyRowView,
  CreateApiKeyDto,
  CreatedApiKeyView,
  RotatedApiKeyView,
  UpdateApiKeyDto,
} from './dto/api-key.dto';

/** Key management: session token routes, not `/v1`. Errors use the `/v1` envelope. */
@ApiTags('API keys')
@Controller('api-keys')
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Post()
  @Session()
  @ApiCreatedResponse({ type: CreatedApiKeyView, description: 'The secret `key` is shown only here.' })
  @ApiConflictResponse({ type: ErrorEnvelopeView, description: 'API_KEY_LIMIT_REACHED' })
  create(@CurrentPrincipal() actor: Principal, @Body() body: CreateApiKeyDto) {
    return this.keys.create(actor, body);
  }

  @Get()
  @Session()
  @ApiOkResponse({ type: [ApiKeyRowView] })
  list(@CurrentPrincipal() actor: Principal) {
    return this.keys.list(actor);
  }

  @Patch(':id')
  @Session()
  @ApiOkResponse({ type: ApiKeyRowView })
  update(
    @CurrentPrincipal() actor: Principal,
    @Param('id', UuidParam) id: string,
    @Body() body: UpdateApiKeyDto,
  ) {
    return this.keys.update(actor, id, body);
  }

  @Post(':id/rotate')
  @Session()
  @ApiCreatedResponse({
    type: RotatedApiKeyView,
    description: 'The old key keeps working until previousKeyValidUntil.',
  })
  rotate(@CurrentPrincipal() actor: Principal, @Param('id', UuidParam) id: string) {
    return this.keys.rotate(actor, id);
  }

  @Delete(':id')
  @HttpCode(200)
  @Session()
  @ApiOkResponse({ schema: { example: { success: true } } })
  revoke(@CurrentPrincipal() actor: Principal, @Param('id', UuidParam) id: string) {
    return this.keys.revoke(actor, id);
  }
}
