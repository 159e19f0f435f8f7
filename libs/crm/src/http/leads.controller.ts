import { Body, Controller, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiExtension,
  ApiExtraModels,
  ApiOkResponse,
  ApiTags,
  ApiOperation,
  getSchemaPath,
} from '@nestjs/swagger';
import {
  AdminOnly,
  ApiBadRequestErrors,
  ApiForbiddenError,
  ApiJsonBodyErrors,
  ApiNotFoundError,
  CurrentPrincipal,
  Idempotent,
  IntParam,
  Principal,
} from '@app/platform';
import { CrmRead, CrmWrite } from './crm-access';
import { LeadsQueries } from '../application/leads.queries';
import { LeadsService } from '../application/leads.service';
import { SyncQueries } from '../application/sync.queries';
import { TimelineQueries } from '../application/timeline.queries';
import {
  BulkLeadStatusDto,
  CreateLeadDto,
  LeadAssigneesDto,
  LeadCountsQueryDto,
  LeadStatusDto,
  LeadTagsDto,
  ListLeadsQueryDto,
  TimelineQueryDto,
  UpdateLeadDto,
} from './dto/lead.dto';
import { syncRequestOf, SYNC_MODE_RULES } from './dto/sync.dto';
import {
  BulkLeadStatusResultView,
  LeadCountsView,
  LeadPageView,
  LeadSyncPageView,
  LeadView,
  WrappedLeadView,
} from '../views/lead.view';
import { TaskView } from '../views/task.view';
import { TimelinePageView } from '../views/timeline.view';

const ASSIGNEE_FILTER_ADMIN_ONLY = 'ORG_ADMIN_REQUIRED: a member filtering by `assigneeIds`';
const PEOPLE_CHECKED =
  'A person who is not a member of the organization, or a team that is not one of its live teams, ' +
  'is VALIDATION_FAILED.';

@ApiTags('v1: leads')
@Controller('v1/leads')
export class LeadsController {
  constructor(
    private readonly leads: LeadsService,
    private readonly queries: LeadsQueries,
    private readonly timeline: TimelineQueries,
    private readonly sync: SyncQueries,
  ) {}

  /** Newest first, page paging with an exact total; or sync by cursor. A member sees only their own leads. */
  @Get()
  @ApiOperation({
    summary: 'List leads, or sync them by cursor',
    description:
      'Page mode: newest first, `{data, hasMore, page, limit, total}` with an exact total. ' +
      SYNC_MODE_RULES +
      ' A member syncs the leads they are assigned to; a lead they are taken off appears once as ' +
      '`{id, updatedAt, removed: true}`. The sync answer is the `LeadSyncPageView` schema (`x-sync-answer`).',
  })
  @CrmRead()
  @ApiExtraModels(LeadSyncPageView)
  @ApiExtension('x-sync-answer', { $ref: getSchemaPath(LeadSyncPageView) })
  @ApiOkResponse({
    type: LeadPageView,
    description:
      'Page mode. With `updatedSince` or `cursor`: `{data, hasMore, nextCursor}`, schema `LeadSyncPageView`.',
  })
  @ApiBadRequestErrors(
    'VALIDATION_FAILED also for `page`, `search`, `crmStatus` or `assigneeIds` with `updatedSince` or ' +
      '`cursor`, a malformed `updatedSince`, or a `cursor` this list did not give.',
  )
  @ApiForbiddenError(ASSIGNEE_FILTER_ADMIN_ONLY)
  list(@CurrentPrincipal() actor: Principal, @Query() query: ListLeadsQueryDto) {
    const sync = syncRequestOf(query);
    return sync ? this.sync.leads(actor, sync) : this.queries.list(actor, query.pageQuery());
  }

  @Get('counts')
  @ApiOperation({ summary: 'Count leads by CRM status' })
  @CrmRead()
  @ApiOkResponse({ type: LeadCountsView })
  @ApiBadRequestErrors()
  @ApiForbiddenError(ASSIGNEE_FILTER_ADMIN_ONLY)
  counts(@CurrentPrincipal() actor: Principal, @Query() query: LeadCountsQueryDto) {
    return this.queries.counts(actor, query.assigneeIds);
  }

  @Get(':leadId')
  @ApiOperation({ summary: 'Read a lead' })
  @CrmRead()
  @ApiOkResponse({ type: LeadView })
  @ApiBadRequestErrors()
  @ApiNotFoundError('Lead')
  get(@CurrentPrincipal() actor: Principal, @Param('leadId', IntParam) leadId: number) {
    return this.queries.get(actor, leadId);
  }

  @Get(':leadId/timeline')
  @ApiOperation({ summary: "Read a lead's timeline" })
  @CrmRead()
  @ApiExtraModels(TaskView)
  @ApiOkResponse({ type: TimelinePageView })
  @ApiBadRequestErrors()
  @ApiNotFoundError('Lead')
  getTimeline(
    @CurrentPrincipal() actor: Principal,
    @Param('leadId', IntParam) leadId: number,
    @Query() query: TimelineQueryDto,
  ) {
    return this.timeline.page(actor, leadId, query.offset, query.limit);
  }

  @Post()
  @ApiOperation({ summary: 'Create a lead' })
  @CrmWrite()
  @Idempotent()
  @ApiCreatedResponse({ type: WrappedLeadView, description: "Owner defaults to the key's person." })
  @ApiJsonBodyErrors(
    PEOPLE_CHECKED,
    '`unassigned` combined with `assigneeIds` or `teamIds` is VALIDATION_FAILED.',
  )
  @ApiForbiddenError(
    'FORBIDDEN: `A member can create leads only for themselves.` (another owner, `teamIds` or `unassigned`)',
  )
  create(@CurrentPrincipal() actor: Principal, @Body() body: CreateLeadDto) {
    return this.leads.create(actor, body);
  }

  /** Bulk status: admin only, up to 500 leads. */
  @Post('status')
  @ApiOperation({ summary: 'Change the CRM status of several leads' })
  @HttpCode(200)
  @CrmWrite()
  @AdminOnly()
  @ApiOkResponse({ type: BulkLeadStatusResultView })
  @ApiJsonBodyErrors()
  changeStatuses(@CurrentPrincipal() actor: Principal, @Body() body: BulkLeadStatusDto) {
    return this.leads.changeStatuses(actor, body.leadIds, body.crmStatus);
  }

  @Patch(':leadId')
  @ApiOperation({ summary: "Change a lead's name, email, phone or company" })
  @CrmWrite()
  @ApiOkResponse({ type: LeadView })
  @ApiJsonBodyErrors()
  @ApiNotFoundError('Lead')
  change(
    @CurrentPrincipal() actor: Principal,
    @Param('leadId', IntParam) leadId: number,
    @Body() body: UpdateLeadDto,
  ) {
    return this.leads.changeContact(actor, leadId, body);
  }

  @Put(':leadId/status')
  @ApiOperation({ summary: "Change a lead's CRM status" })
  @CrmWrite()
  @ApiOkResponse({ type: LeadView, description: 'A change is written to the timeline with source `api`.' })
  @ApiJsonBodyErrors()
  @ApiNotFoundError('Lead')
  changeStatus(
    @CurrentPrincipal() actor: Principal,
    @Param('leadId', IntParam) leadId: number,
    @Body() body: LeadStatusDto,
  ) {
    return this.leads.changeStatus(actor, leadId, body.crmStatus);
  }

  @Put(':leadId/tags')
  @ApiOperation({ summary: "Set a lead's tags" })
  @CrmWrite()
  @ApiOkResponse({ type: LeadView, description: 'The lead with its new `tags`.' })
  @ApiJsonBodyErrors('A `tagIds` entry that is not a live tag of the organization is VALIDATION_FAILED.')
  @ApiNotFoundError('Lead')
  setTags(
    @CurrentPrincipal() actor: Principal,
    @Param('leadId', IntParam) leadId: number,
    @Body() body: LeadTagsDto,
  ) {
    return this.leads.setTags(actor, leadId, body.tagIds);
  }

  @Put(':leadId/assignees')
  @ApiOperation({ summary: "Replace a lead's assignees" })
  @CrmWrite()
  @AdminOnly()
  @ApiOkResponse({ type: WrappedLeadView })
  @ApiJsonBodyErrors(PEOPLE_CHECKED)
  @ApiNotFoundError('Lead')
  replaceAssignees(
    @CurrentPrincipal() actor: Principal,
    @Param('leadId', IntParam) leadId: number,
    @Body() body: LeadAssigneesDto,
  ) {
    return this.leads.changeAssignees(actor, leadId, {
      mode: 'replace',
      userIds: body.userIds,
      teamIds: body.teamIds ?? [],
    });
  }

  @Post(':leadId/assignees')
  @ApiOperation({ summary: 'Add assignees to a lead' })
  @HttpCode(200)
  @CrmWrite()
  @AdminOnly()
  @ApiOkResponse({ type: WrappedLeadView })
  @ApiJsonBodyErrors(PEOPLE_CHECKED)
  @ApiNotFoundError('Lead')
  addAssignees(
    @CurrentPrincipal() actor: Principal,
    @Param('leadId', IntParam) leadId: number,
    @Body() body: LeadAssigneesDto,
  ) {
    return this.leads.changeAssignees(actor, leadId, {
      mode: 'add',
      userIds: body.userIds,
      teamIds: body.teamIds ?? [],
    });
  }
}
