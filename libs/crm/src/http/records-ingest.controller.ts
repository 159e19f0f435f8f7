import { applyDecorators, Body, Controller, Param, Put, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
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
import { RecordsIngestService } from '../application/records-ingest.service';
import { UpsertResultJson, UpsertResultView } from '../views/record-upsert.view';
import {
  AnalysisDto,
  CallUpsertDto,
  EmailUpsertDto,
  MessageUpsertDto,
  TranscriptDto,
} from './dto/records.dto';

const EXTERNAL_ID = 'an `externalId` that is not 1-255 visible ASCII characters';
const LINK_RULES =
  'The lead: `leadId`, or `contact` matched in the organization (email ignoring case, then phone as ' +
  'E.164; the most recently updated lead wins). ';
const UPSERT_RULES =
  'The connector’s `externalId` is unique per organization, connector and kind: the first write answers ' +
  '201 `{id, leadId, created: true}`, later writes 200 `{id, leadId, created: false}` and replace the ' +
  'record’s fields. The timeline entry and the lead’s counters come from the first write only; parallel ' +
  'identical writes make one record. The lead’s facts are recomputed in the same transaction.';

/** The answers every upsert shares. */
const Upsert = (kind: string, ...validation: string[]) =>
  applyDecorators(
    IntegrationRoute(),
    ApiCreatedResponse({ type: UpsertResultView, description: `A new ${kind}.` }),
    ApiOkResponse({ type: UpsertResultView, description: `The ${kind} existed; its fields were replaced.` }),
    ApiJsonBodyErrors(
      `VALIDATION_FAILED also for ${EXTERNAL_ID}, or both \`leadId\` and \`contact\`.`,
      ...validation,
    ),
    ApiNotFoundError('Lead', 'when `leadId` names no lead of the organization'),
    ApiConflictError(`CONFLICT: the ${kind} exists on another lead, or with another direction.`),
    ApiErrorResponse(422, 'UNPROCESSABLE: `contact` matches no lead and `createLead` is not true.'),
  );

/** Connectors push calls (and their transcripts and analyses), chat messages and emails. */
@ApiTags('integrations: connector')
@Controller('integrations/v1')
export class RecordsIngestController {
  constructor(private readonly records: RecordsIngestService) {}

  @Put('calls/:externalId')
  @ApiOperation({
    summary: 'Store a call (upsert by the connector’s id)',
    description:
      LINK_RULES +
      UPSERT_RULES +
      ' `ownerUserId` or `ownerEmail` names the member on the call; anyone else leaves the call without owner.',
  })
  @Upsert('call', 'Sending both `ownerUserId` and `ownerEmail` is VALIDATION_FAILED.')
  async call(
    @CurrentIntegration() caller: IntegrationPrincipal,
    @Param('externalId', ExternalIdParam) externalId: string,
    @Body() body: CallUpsertDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<UpsertResultJson> {
    return upserted(res, await this.records.upsertCall(caller, externalId, body));
  }

  @Put('calls/:externalId/transcript')
  @ApiOperation({
    summary: 'Store a call’s transcript',
    description:
      'Replaces the transcript of the call this connector stored under `externalId` (1-500,000 characters, ' +
      'with its BCP 47 `detectedLanguage`). Answers 200 `{id, leadId, created: false}`.',
  })
  @IntegrationRoute()
  @ApiOkResponse({ type: UpsertResultView })
  @ApiJsonBodyErrors(`VALIDATION_FAILED also for ${EXTERNAL_ID} or a transcript over 500,000 characters.`)
  @ApiNotFoundError('Call', 'before the connector has stored the call')
  async transcript(
    @CurrentIntegration() caller: IntegrationPrincipal,
    @Param('externalId', ExternalIdParam) externalId: string,
    @Body() body: TranscriptDto,
  ): Promise<UpsertResultJson> {
    return this.records.putTranscript(caller, externalId, body);
  }

  @Put('calls/:externalId/analysis')
  @ApiOperation({
    summary: 'Store a call’s analysis',
    description:
      'Replaces the analysis of the call this connector stored under `externalId`. `GET ' +
      '/v1/calls/{callId}/analysis` answers these fields at top level; the latest call’s `signals` are the ' +
      'lead’s `callSignal` fact. Answers 200 `{id, leadId, created: false}`.',
  })
  @IntegrationRoute()
  @ApiOkResponse({ type: UpsertResultView })
  @ApiJsonBodyErrors(
    `VALIDATION_FAILED also for ${EXTERNAL_ID}, a signal not matching \`^call\\.[a-z0-9_]{1,60}$\`, more than ` +
      '20 signals or 50 items in a list, or a score outside -1..1.',
  )
  @ApiNotFoundError('Call', 'before the connector has stored the call')
  async analysis(
    @CurrentIntegration() caller: IntegrationPrincipal,
    @Param('externalId', ExternalIdParam) externalId: string,
    @Body() body: AnalysisDto,
  ): Promise<UpsertResultJson> {
    return this.records.putAnalysis(caller, externalId, body);
  }

  @Put('messages/:externalId')
  @ApiOperation({
    summary: 'Store a chat message (upsert by the connector’s id)',
    description: LINK_RULES + UPSERT_RULES + ' Files are kept as names only.',
  })
  @Upsert('message', 'An unknown `channel`, `kind` or `status` is VALIDATION_FAILED.')
  async message(
    @CurrentIntegration() caller: IntegrationPrincipal,
    @Param('externalId', ExternalIdParam) externalId: string,
    @Body() body: MessageUpsertDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<UpsertResultJson> {
    return upserted(res, await this.records.upsertMessage(caller, externalId, body));
  }

  @Put('emails/:externalId')
  @ApiOperation({
    summary: 'Store an email (upsert by the connector’s id)',
    description:
      LINK_RULES +
      UPSERT_RULES +
      ' A `captured` email needs `captureDirection`; automated and manual emails are outbound.',
  })
  @Upsert('email', 'A `captured` email without `captureDirection` is VALIDATION_FAILED.')
  async email(
    @CurrentIntegration() caller: IntegrationPrincipal,
    @Param('externalId', ExternalIdParam) externalId: string,
    @Body() body: EmailUpsertDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<UpsertResultJson> {
    return upserted(res, await this.records.upsertEmail(caller, externalId, body));
  }
}
