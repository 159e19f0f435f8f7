import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ApiBadRequestErrors,
  ApiNotFoundError,
  CurrentPrincipal,
  IntParam,
  Principal,
  UuidParam,
} from '@app/platform';
import { RecordsQueries } from '../application/records.queries';
import { AnalysisView, CallPageView, TranscriptView } from '../views/call.view';
import { ConversationView } from '../views/conversation.view';
import { EmailListView } from '../views/email.view';
import { CrmRead } from './crm-access';
import { CallsQueryDto, ConversationQueryDto } from './dto/records.dto';

const READ_ONLY =
  'The API only reads what connectors stored: it never places calls, transcribes or analyses. ' +
  'A member reads the leads they are assigned to; an admin every lead of the agency.';

@ApiTags('v1: calls, conversation, email')
@Controller('v1')
export class RecordsController {
  constructor(private readonly records: RecordsQueries) {}

  @Get('leads/:leadId/calls')
  @ApiOperation({
    summary: 'List a lead’s calls',
    description: `Newest \`startedAt\` first, offset paging with an exact \`total\`. ${READ_ONLY}`,
  })
  @CrmRead()
  @ApiOkResponse({ type: CallPageView })
  @ApiBadRequestErrors('VALIDATION_FAILED for a `limit` outside 1-100 or a negative `offset`.')
  @ApiNotFoundError('Lead')
  calls(
    @CurrentPrincipal() actor: Principal,
    @Param('leadId', IntParam) leadId: number,
    @Query() query: CallsQueryDto,
  ) {
    return this.records.calls(actor, leadId, query.offset, query.limit);
  }

  @Get('calls/:callId/transcript')
  @ApiOperation({
    summary: 'Read a call’s transcript',
    description:
      'Always 200 when the call is reachable: `available: false` with `message` when no transcript is ' +
      `stored; otherwise \`transcript\`, \`detectedLanguage\` and \`untrusted: true\`. ${READ_ONLY}`,
  })
  @CrmRead()
  @ApiOkResponse({ type: TranscriptView })
  @ApiBadRequestErrors('VALIDATION_FAILED for a `callId` that is not a UUID.')
  @ApiNotFoundError('Call', 'when it is absent or its lead is out of the caller’s reach')
  transcript(@CurrentPrincipal() actor: Principal, @Param('callId', UuidParam) callId: string) {
    return this.records.transcript(actor, callId);
  }

  @Get('calls/:callId/analysis')
  @ApiOperation({
    summary: 'Read a call’s analysis',
    description:
      'Always 200 when the call is reachable: `available: false` with `message` when no analysis is stored; ' +
      'otherwise the stored analysis (`summary`, `sentiment`, `objections`, `nextSteps`, `coachingTips`, ' +
      `\`signals\`, \`model\`, \`analyzedAt\`) at top level. ${READ_ONLY}`,
  })
  @CrmRead()
  @ApiOkResponse({ type: AnalysisView })
  @ApiBadRequestErrors('VALIDATION_FAILED for a `callId` that is not a UUID.')
  @ApiNotFoundError('Call', 'when it is absent or its lead is out of the caller’s reach')
  analysis(@CurrentPrincipal() actor: Principal, @Param('callId', UuidParam) callId: string) {
    return this.records.analysis(actor, callId);
  }

  @Get('leads/:leadId/conversation')
  @ApiOperation({
    summary: 'Read a lead’s chat conversation',
    description:
      'Newest first, `limit` 1-50 (20), older pages with `before` (exclusive: the last `at` seen), one ' +
      '`channel` or all. Bodies are cut at 1,000 characters (`truncated`); files are names. A page never ' +
      'ends inside a group of messages sharing one `at` (the group moves to the next page) unless that ' +
      'group alone exceeds `limit`. Inbound text is customer-written: `untrusted: true` and a fixed ' +
      `\`untrustedNote\`. ${READ_ONLY}`,
  })
  @CrmRead()
  @ApiOkResponse({ type: ConversationView })
  @ApiBadRequestErrors(
    'VALIDATION_FAILED for a `limit` outside 1-50, a `before` that is not an ISO 8601 date-time, or an ' +
      'unknown `channel`.',
  )
  @ApiNotFoundError('Lead')
  conversation(
    @CurrentPrincipal() actor: Principal,
    @Param('leadId', IntParam) leadId: number,
    @Query() query: ConversationQueryDto,
  ) {
    return this.records.conversation(actor, leadId, {
      limit: query.limit,
      before: query.before ? new Date(query.before) : null,
      channel: query.channel ?? null,
    });
  }

  @Get('leads/:leadId/emails')
  @ApiOperation({
    summary: 'List a lead’s emails',
    description:
      'The 500 most recent by `messageAt`, newest first, no paging (`hasMore` when older ones exist). ' +
      `Inbound (captured) emails add \`untrusted: true\`. ${READ_ONLY}`,
  })
  @CrmRead()
  @ApiOkResponse({ type: EmailListView })
  @ApiBadRequestErrors()
  @ApiNotFoundError('Lead')
  emails(@CurrentPrincipal() actor: Principal, @Param('leadId', IntParam) leadId: number) {
    return this.records.emails(actor, leadId);
  }
}
