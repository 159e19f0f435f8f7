import {
  applyDecorators,
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Put,
  Query,
} from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  AdminOnly,
  ApiBadRequestErrors,
  ApiForbiddenError,
  ApiJsonBodyErrors,
  ApiNoBodyError,
  ApiNotFoundError,
  CurrentPrincipal,
  Idempotent,
  Principal,
  RequireScopes,
  RequiresPlan,
  UuidParam,
} from '@app/platform';
import { LeadRoutingService } from '../application/lead-routing.service';
import { RouteUnassignedService } from '../application/route-unassigned.service';
import { RoutesService } from '../application/routes.service';
import { RoutingPreviewService } from '../application/routing-preview.service';
import {
  AwayView,
  DeletedRouteView,
  RouteListView,
  RouteUnassignedView,
  RoutingOverviewView,
  RoutingPreviewView,
  SmartRoutingView,
} from '../views/lead-routing.view';
import { RouteView } from '../views/route.view';
import {
  AwayDto,
  ChangeRouteDto,
  CreateRouteDto,
  RouteOrderDto,
  RoutingOverviewQueryDto,
  RoutingPreviewDto,
  SmartRoutingDto,
} from './dto/lead-routing.dto';

/** Spec ("Lead routing"): admin only and an active plan, except `away`; reads crm:read, writes crm:write. */
const AdminRead = () => applyDecorators(RequireScopes('crm:read'), AdminOnly(), RequiresPlan());
const AdminWrite = () => applyDecorators(RequireScopes('crm:write'), AdminOnly(), RequiresPlan());

const DEFINITION_REFUSED =
  'VALIDATION_FAILED with `details.issues[].path` for any route field that fails its checks: `name` over 80, ' +
  '`conditions` not a group over routing facts (an unknown fact, `$me`, a value kind the operator does not take), ' +
  'an unknown `strategy`, `weights` on a strategy other than `weighted` or not an integer percent 1-100 for ' +
  'exactly each user id of the pool totalling 100, `teamIds` on a `weighted` route, a `schedule` entry out of ' +
  'range (`day` 1-7, `HH:MM`, from before to, at most 14), `dailyCap` outside 1-1000, `reassignAfterMinutes` ' +
  'outside 5-10080, a negative `position`; also users who are not members (`userIds[0]`) and teams that are ' +
  'not teams (`teamIds[0]`) of the organization.';
const ROUTE_NOT_FOUND = "when it is absent or another organization's";

@ApiTags('v1: lead routing')
@Controller('v1/lead-routing')
export class LeadRoutingController {
  constructor(
    private readonly routing: LeadRoutingService,
    private readonly routes: RoutesService,
    private readonly previews: RoutingPreviewService,
    private readonly unassigned: RouteUnassignedService,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'Read the lead routing',
    description:
      'The routes by position (0 is checked first), Smart routing with its team now, the problems of the ' +
      'routes now (EMPTY_POOL, ALL_AWAY, WEIGHTS_NOT_100, NEVER_OPEN, UNREACHABLE, DAILY_CAP_REACHED, one ' +
      'sentence each) and the people away now. Each route counts its assignments of the last `days` days ' +
      'in `leadsLast30Days`.',
  })
  @AdminRead()
  @ApiOkResponse({ type: RoutingOverviewView })
  @ApiBadRequestErrors('VALIDATION_FAILED also for `days` outside 1-90.')
  overview(@CurrentPrincipal() actor: Principal, @Query() query: RoutingOverviewQueryDto) {
    return this.routing.overview(actor, query.days);
  }

  @Post('preview')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Preview where a lead would be routed',
    description:
      "The decision a real assignment of this lead would log now, with `facts` replacing the lead's own " +
      'field by field: each step (`paused`, `no_match`, `closed`, `nobody_available` with everyone skipped ' +
      'and why, `assigned`, `smart_routing`, `unassigned`) and the person. Writes nothing and moves no counter.',
  })
  @AdminRead()
  @ApiOkResponse({ type: RoutingPreviewView })
  @ApiJsonBodyErrors(
    'VALIDATION_FAILED also for a `leadId` that is not a whole number and `facts` of the wrong type ' +
      '(strings; `tagIds` uuids; `hasPhone`/`hasEmail` booleans; `arrivedAt` an ISO date-time).',
  )
  @ApiNotFoundError('Lead', "when `leadId` names a lead that is absent or another organization's")
  preview(@CurrentPrincipal() actor: Principal, @Body() body: RoutingPreviewDto) {
    return this.previews.preview(actor, { leadId: body.leadId, facts: body.facts });
  }

  @Post('rules')
  @ApiOperation({
    summary: 'Create a route',
    description:
      'A route at `position` (default last, just above Smart routing); the routes from there move down one. ' +
      'Answers the route with its pool as it is now.',
  })
  @AdminWrite()
  @Idempotent()
  @ApiCreatedResponse({ type: RouteView })
  @ApiJsonBodyErrors(DEFINITION_REFUSED)
  create(@CurrentPrincipal() actor: Principal, @Body() body: CreateRouteDto) {
    return this.routes.create(actor, { ...body });
  }

  @Put('rules/order')
  @ApiOperation({
    summary: 'Reorder the routes',
    description:
      'Every route id exactly once, in the new order (Smart routing stays last and is not listed). ' +
      'Answers the routes in that order.',
  })
  @AdminWrite()
  @ApiOkResponse({ type: RouteListView })
  @ApiJsonBodyErrors(
    'VALIDATION_FAILED also when `ruleIds` leaves a route out, names one twice or names one that is not ' +
      "the organization's.",
  )
  reorder(@CurrentPrincipal() actor: Principal, @Body() body: RouteOrderDto) {
    return this.routes.reorder(actor, body.ruleIds);
  }

  @Patch('rules/:ruleId')
  @ApiOperation({
    summary: 'Change a route',
    description:
      'Given fields replace the stored ones. Sending `userIds` or `teamIds` replaces the pool (the list not ' +
      'sent becomes empty) and restarts the weighted counters; weights are checked again against the new ' +
      'pool. `position` moves the route. Leads already assigned stay where they are.',
  })
  @AdminWrite()
  @ApiOkResponse({ type: RouteView })
  @ApiJsonBodyErrors(DEFINITION_REFUSED)
  @ApiNotFoundError('Route', ROUTE_NOT_FOUND)
  change(
    @CurrentPrincipal() actor: Principal,
    @Param('ruleId', UuidParam) ruleId: string,
    @Body() body: ChangeRouteDto,
  ) {
    return this.routes.change(actor, ruleId, { ...body });
  }

  @Delete('rules/:ruleId')
  @ApiOperation({
    summary: 'Delete a route',
    description:
      'The routes below move up one; its pending reassignments are dropped; leads it would take go to the ' +
      'next route.',
  })
  @AdminWrite()
  @ApiOkResponse({ type: DeletedRouteView })
  @ApiBadRequestErrors()
  @ApiNotFoundError('Route', ROUTE_NOT_FOUND)
  delete(@CurrentPrincipal() actor: Principal, @Param('ruleId', UuidParam) ruleId: string) {
    return this.routes.delete(actor, ruleId);
  }

  @Put('smart')
  @ApiOperation({
    summary: 'Switch Smart routing',
    description:
      'On: leads no route takes go to its team with the `smart` strategy; off: they wait unassigned. ' +
      'Sending `userIds` or `teamIds` replaces the team; a team never set is every active member.',
  })
  @AdminWrite()
  @ApiOkResponse({ type: SmartRoutingView })
  @ApiJsonBodyErrors(
    'VALIDATION_FAILED also for users who are not members (`userIds[0]`) and teams that are not teams ' +
      '(`teamIds[0]`) of the organization.',
  )
  setSmart(@CurrentPrincipal() actor: Principal, @Body() body: SmartRoutingDto) {
    return this.routing.setSmart(actor, body);
  }

  @Put('away')
  @ApiOperation({
    summary: 'Set someone away from routing',
    description:
      'Routes and Smart routing skip a person until `until` (a date is 00:00 UTC of that day); null or a ' +
      'past time: back now (`until: null`). Anyone may set themselves; an admin may set anyone.',
  })
  @RequireScopes('crm:write')
  @RequiresPlan()
  @ApiOkResponse({ type: AwayView })
  @ApiJsonBodyErrors(
    'VALIDATION_FAILED also for an `until` that is missing or no date, and a `userId` who is not a member of ' +
      'the organization.',
  )
  @ApiForbiddenError('FORBIDDEN: a member naming someone else.')
  setAway(@CurrentPrincipal() actor: Principal, @Body() body: AwayDto) {
    return this.routing.setAway(actor, body);
  }

  @Post('route-unassigned')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Route the unassigned leads',
    description:
      'Up to 500 unassigned leads, oldest first, each routed as if it arrived now; a lead assigned meanwhile ' +
      'is left alone.',
  })
  @AdminWrite()
  @ApiOkResponse({ type: RouteUnassignedView })
  @ApiNoBodyError()
  routeUnassigned(@CurrentPrincipal() actor: Principal) {
    return this.unassigned.run(actor);
  }
}
