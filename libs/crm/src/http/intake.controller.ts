import { Body, Controller, Param, Put, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import {
  ApiJsonBodyErrors,
  CurrentIntegration,
  ExternalIdParam,
  IntegrationPrincipal,
  IntegrationRoute,
  upserted,
} from '@app/platform';
import { LeadIntakeService } from '../application/lead-intake.service';
import { IntakeResultJson, IntakeResultView } from '../views/intake.view';
import { LeadIntakeDto } from './dto/intake.dto';

/** Connectors bring leads in (portals, web forms, chat bridges). */
@ApiTags('integrations: connector')
@Controller('integrations/v1/leads')
export class LeadIntakeController {
  constructor(private readonly intakes: LeadIntakeService) {}

  @Put(':externalId')
  @ApiOperation({
    summary: 'Bring a lead in (lead intake)',
    description:
      'Finds the person by the same `externalId` (per connector), then email (ignoring case), then phone ' +
      '(E.164), or creates the lead (`crmStatus` `lead`, owners from lead routing). A matched lead gets only ' +
      'its empty fields filled and keeps its owners (routed only when it has none). Every intake adds an ' +
      '`inquiry` timeline entry. Parallel intakes of one person make one lead.',
  })
  @IntegrationRoute()
  @ApiCreatedResponse({ type: IntakeResultView, description: 'A new lead.' })
  @ApiOkResponse({ type: IntakeResultView, description: 'An existing lead matched (`deduplicatedBy`).' })
  @ApiJsonBodyErrors(
    'VALIDATION_FAILED also for an `externalId` that is not 1-255 visible ASCII characters, neither email ' +
      'nor phoneNumber, or an `origin` not matching `^(portal|website|social|referral|campaign|other):[a-z0-9._-]{1,60}$`.',
  )
  async intake(
    @CurrentIntegration() caller: IntegrationPrincipal,
    @Param('externalId', ExternalIdParam) externalId: string,
    @Body() body: LeadIntakeDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<IntakeResultJson> {
    return upserted(res, await this.intakes.intake(caller, externalId, body));
  }
}
