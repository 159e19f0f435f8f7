import { Body, Controller, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  AdminOnly,
  CurrentPrincipal,
  Idempotent,
  IntParam,
  Principal,
  RequireScopes,
  RequiresPlan,
} from '@app/platform';
import { LeadsQueries } from '../application/leads.queries';
import { LeadsService } from '../application/leads.service';
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

@ApiTags('v1: leads')
@Controller('v1/leads')
export class LeadsController {
  constructor(
    private readonly leads: LeadsService,
    private readonly queries: LeadsQueries,
    private readonly timeline: TimelineQueries,
  ) {}

  /** Newest first, page paging with an exact total; a member sees only their own leads. */
  @Get()
  @RequireScopes('crm:read')
  list(@CurrentPrincipal() actor: Principal, @Query() query: ListLeadsQueryDto) {
    return this.queries.list(actor, query);
  }

  @Get('counts')
  @RequireScopes('crm:read')
  counts(@CurrentPrincipal() actor: Principal, @Query() query: LeadCountsQueryDto) {
    return this.queries.counts(actor, query.assigneeIds);
  }

  @Get(':leadId')
  @RequireScopes('crm:read')
  get(@CurrentPrincipal() actor: Principal, @Param('leadId', IntParam) leadId: number) {
    return this.queries.get(actor, leadId);
  }

  @Get(':leadId/timeline')
  @RequireScopes('crm:read')
  getTimeline(
    @CurrentPrincipal() actor: Principal,
    @Param('leadId', IntParam) leadId: number,
    @Query() query: TimelineQueryDto,
  ) {
    return this.timeline.page(actor, leadId, query.offset, query.limit);
  }

  @Post()
  @RequireScopes('crm:write')
  @RequiresPlan()
  @Idempotent()
  create(@CurrentPrincipal() actor: Principal, @Body() body: CreateLeadDto) {
    return this.leads.create(actor, body);
  }

  /** Bulk status: admin only, up to 500 leads. */
  @Post('status')
  @HttpCode(200)
  @RequireScopes('crm:write')
  @RequiresPlan()
  @AdminOnly()
  changeStatuses(@CurrentPrincipal() actor: Principal, @Body() body: BulkLeadStatusDto) {
    return this.leads.changeStatuses(actor, body.leadIds, body.crmStatus);
  }

  @Patch(':leadId')
  @RequireScopes('crm:write')
  @RequiresPlan()
  change(
    @CurrentPrincipal() actor: Principal,
    @Param('leadId', IntParam) leadId: number,
    @Body() body: UpdateLeadDto,
  ) {
    return this.leads.changeContact(actor, leadId, body);
  }

  @Put(':leadId/status')
  @RequireScopes('crm:write')
  @RequiresPlan()
  changeStatus(
    @CurrentPrincipal() actor: Principal,
    @Param('leadId', IntParam) leadId: number,
    @Body() body: LeadStatusDto,
  ) {
    return this.leads.changeStatus(actor, leadId, body.crmStatus);
  }

  @Put(':leadId/tags')
  @RequireScopes('crm:write')
  @RequiresPlan()
  setTags(
    @CurrentPrincipal() actor: Principal,
    @Param('leadId', IntParam) leadId: number,
    @Body() body: LeadTagsDto,
  ) {
    return this.leads.setTags(actor, leadId, body.tagIds);
  }

  @Put(':leadId/assignees')
  @RequireScopes('crm:write')
  @RequiresPlan()
  @AdminOnly()
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
  @HttpCode(200)
  @RequireScopes('crm:write')
  @RequiresPlan()
  @AdminOnly()
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
