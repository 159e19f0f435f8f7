import { Body, Controller, Param, Put, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { UpsertResultJson, UpsertResultView } from '@app/crm';
import {
  ApiConflictError,
  ApiErrorResponse,
  ApiJsonBodyErrors,
  ApiNotFoundError,
  CurrentIntegration,
  ExternalIdParam,
  IntegrationPrincipal,
  IntegrationRoute,
  upserted,
} from '@app/platform';
import { ViewingsIngestService } from '../application/viewings-ingest.service';
import { ViewingUpsertDto } from './dto/viewing.dto';

/** Connectors push viewings (their `/v1` routes come later). */
@ApiTags('integrations: connector')
@Controller('integrations/v1/viewings')
export class ViewingsIngestController {
  constructor(private readonly viewings: ViewingsIngestService) {}

  @Put(':externalId')
  @ApiOperation({
    summary: 'Store a viewing (upsert by the connector’s id)',
    description:
      'The lead: `leadId`, or `contact` matched in the organization (email ignoring case, then phone as ' +
      'E.164). The first write answers 201 `{id, leadId, created: true}`, later writes 200 with ' +
      '`created: false` and replace the viewing’s fields (its status as sent). Stored with `source` ' +
      '`integration:<connector>`; on the lead’s timeline (`viewing`), and while scheduled on the agent’s ' +
      'calendar and free-times (an hour from `viewingAt`).',
  })
  @IntegrationRoute()
  @ApiCreatedResponse({ type: UpsertResultView, description: 'A new viewing.' })
  @ApiOkResponse({ type: UpsertResultView, description: 'The viewing existed; its fields were replaced.' })
  @ApiJsonBodyErrors(
    'VALIDATION_FAILED also for an `externalId` that is not 1-255 visible ASCII characters, an unknown ' +
      '`kind` or `status`, or both `agentUserId` and `agentEmail`.',
  )
  @ApiNotFoundError('Lead', 'when `leadId` or one of `otherLeadIds` names no lead of the organization')
  @ApiConflictError('CONFLICT: the viewing exists on another lead.')
  @ApiErrorResponse(422, 'UNPROCESSABLE: `contact` matches no lead and `createLead` is not true.')
  async upsert(
    @CurrentIntegration() caller: IntegrationPrincipal,
    @Param('externalId', ExternalIdParam) externalId: string,
    @Body() body: ViewingUpsertDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<UpsertResultJson> {
    return upserted(res, await this.viewings.store(caller, externalId, body));
  }
}
