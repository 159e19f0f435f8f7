import { Body, Controller, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ApiBadRequestErrors,
  ApiConflictError,
  ApiForbiddenError,
  ApiJsonBodyErrors,
  ApiNotFoundError,
  CurrentPrincipal,
  Idempotent,
  Principal,
  UuidParam,
} from '@app/platform';
import { DealsQueries } from '../application/deals.queries';
import { DealsService } from '../application/deals.service';
import { DealListView, DealView } from '../views/deal.view';
import { CrmRead, CrmWrite } from './crm-access';
import {
  ChangeDealDto,
  CreateDealDto,
  DealStageDto,
  ListDealsQueryDto,
  MarkDealLostDto,
  MarkDealWonDto,
  ReopenDealDto,
} from './dto/deal.dto';

const MONEY_REFUSED =
  'Money (`amount`, `commissionAmount`, participants’ `percent`, `commissionPercent`) that is negative, ' +
  'has more than 2 decimals, is over 999999999999.99 (percents: over 100) or is not a number or decimal ' +
  'string is VALIDATION_FAILED, never rounded; so is a date that is neither YYYY-MM-DD nor an ISO 8601 ' +
  'timestamp with offset.';
const DEAL_REACH = "when it is absent, another agency's, or a member neither reaches its lead nor is on it";

@ApiTags('v1: deals')
@Controller('v1/deals')
export class DealsController {
  constructor(
    private readonly deals: DealsService,
    private readonly queries: DealsQueries,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'List deals (capped at 1,000)',
    description:
      "Without `leadId`: the deals the key's person is on (admins too); an admin's `assigneeIds` lists " +
      "those people's deals instead. With `leadId`: every deal of that lead (`stages` ignored). `stage` " +
      'and `stages` merge into one set. Date pairs are inclusive at both ends; a plain date covers its ' +
      'whole UTC day. `closedFrom`/`closedTo` match won deals by `wonAt` and lost deals by `lostAt`. ' +
      'Amount bounds compare raw amounts and leave out deals without one. Most recently updated first ' +
      '(`updatedAt`, then `id`, descending); at most 1,000 rows, `hasMore` when more match.',
  })
  @CrmRead()
  @ApiOkResponse({ type: DealListView })
  @ApiBadRequestErrors(
    'VALIDATION_FAILED for an unknown `status`, `stage`, `stages` or `collectionState`, a `q` over 200 ' +
      'characters, a malformed amount bound, date or id.',
  )
  @ApiForbiddenError('ORG_ADMIN_REQUIRED: `assigneeIds` sent by a member.')
  @ApiNotFoundError('Lead', "when `leadId` names a lead that is absent or out of the caller's reach")
  list(@CurrentPrincipal() actor: Principal, @Query() query: ListDealsQueryDto) {
    return this.queries.list(actor, query.filters());
  }

  @Get(':dealId')
  @ApiOperation({ summary: 'Read a deal', description: 'The deal with its commission participants.' })
  @CrmRead()
  @ApiOkResponse({ type: DealView })
  @ApiBadRequestErrors()
  @ApiNotFoundError('Deal', DEAL_REACH)
  get(@CurrentPrincipal() actor: Principal, @Param('dealId', UuidParam) dealId: string) {
    return this.deals.get(actor, dealId);
  }

  @Post()
  @ApiOperation({
    summary: 'Create a deal',
    description:
      "Open, at `stage` or `qualified`; the owner is the key's person unless `assigneeIds`/`teamIds` " +
      "name others (admins only); `currency` defaults to the agency's; no participants yet.",
  })
  @CrmWrite()
  @Idempotent()
  @ApiCreatedResponse({ type: DealView })
  @ApiJsonBodyErrors(
    MONEY_REFUSED,
    'A person who is not a member of the organization, or a team that is not one of its live teams, is VALIDATION_FAILED.',
  )
  @ApiForbiddenError(
    'FORBIDDEN: `A member can create deals only for themselves.` (another assignee or any `teamIds`)',
  )
  @ApiNotFoundError(
    'Lead',
    "when the body's `leadId` names a lead that is absent or out of the caller's reach",
  )
  create(@CurrentPrincipal() actor: Principal, @Body() body: CreateDealDto) {
    return this.deals.create(actor, body);
  }

  @Patch(':dealId')
  @ApiOperation({
    summary: 'Change a deal',
    description:
      'Never changes `stage` or `status`. Null clears a nullable field. The commission mode’s own field is ' +
      'kept and the other derived: percentage → commissionAmount = round(amount × commissionPercent / 100, 2); ' +
      'exact → commissionPercent = round(commissionAmount / amount × 100, 2), null when amount is null or 0. ' +
      '`participants` replaces the whole list.',
  })
  @CrmWrite()
  @ApiOkResponse({ type: DealView })
  @ApiJsonBodyErrors(
    MONEY_REFUSED,
    'Participants: more than 10 rows, a person not in the organization, a repeated (userId, role) or ' +
      'percents adding up to more than 100 are VALIDATION_FAILED; so is the derived commission field sent ' +
      'without switching `commissionMode`, or an exact commission above the amount.',
  )
  @ApiForbiddenError('ORG_ADMIN_REQUIRED: `assigneeIds` or `teamIds` sent by a member.')
  @ApiNotFoundError('Deal', DEAL_REACH)
  change(
    @CurrentPrincipal() actor: Principal,
    @Param('dealId', UuidParam) dealId: string,
    @Body() body: ChangeDealDto,
  ) {
    return this.deals.change(actor, dealId, body);
  }

  @Put(':dealId/stage')
  @ApiOperation({
    summary: "Move a deal's stage",
    description:
      'On an open deal: the new stage, `stageChangedAt` updated and a history row (the same stage changes ' +
      'nothing). On a won or lost deal: reopens it at that stage.',
  })
  @CrmWrite()
  @ApiOkResponse({ type: DealView })
  @ApiJsonBodyErrors('An unknown `stage` is VALIDATION_FAILED.')
  @ApiNotFoundError('Deal', DEAL_REACH)
  moveStage(
    @CurrentPrincipal() actor: Principal,
    @Param('dealId', UuidParam) dealId: string,
    @Body() body: DealStageDto,
  ) {
    return this.deals.moveStage(actor, dealId, body.stage);
  }

  @Post(':dealId/won')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Mark a deal won',
    description: 'From any status; `wonAt` defaults to now; the lost fields are cleared. No history row.',
  })
  @CrmWrite()
  @ApiOkResponse({ type: DealView })
  @ApiJsonBodyErrors('A malformed `wonAt` is VALIDATION_FAILED.')
  @ApiNotFoundError('Deal', DEAL_REACH)
  markWon(
    @CurrentPrincipal() actor: Principal,
    @Param('dealId', UuidParam) dealId: string,
    @Body() body: MarkDealWonDto,
  ) {
    return this.deals.markWon(actor, dealId, body?.wonAt);
  }

  @Post(':dealId/lost')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Mark a deal lost',
    description: 'From any status; `lostAt` defaults to now; `wonAt` is cleared. No history row.',
  })
  @CrmWrite()
  @ApiOkResponse({ type: DealView })
  @ApiJsonBodyErrors('A `lostReason` over 2,000 characters or a malformed `lostAt` is VALIDATION_FAILED.')
  @ApiNotFoundError('Deal', DEAL_REACH)
  markLost(
    @CurrentPrincipal() actor: Principal,
    @Param('dealId', UuidParam) dealId: string,
    @Body() body: MarkDealLostDto,
  ) {
    return this.deals.markLost(actor, dealId, body ?? {});
  }

  @Post(':dealId/reopen')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Reopen a won or lost deal',
    description:
      'Open again at `stage` or the stage it held; clears `wonAt`, `lostAt` and `lostReason`; a history row.',
  })
  @CrmWrite()
  @ApiOkResponse({ type: DealView })
  @ApiJsonBodyErrors('An unknown `stage` is VALIDATION_FAILED.')
  @ApiConflictError('CONFLICT: the deal is already open.')
  @ApiNotFoundError('Deal', DEAL_REACH)
  reopen(
    @CurrentPrincipal() actor: Principal,
    @Param('dealId', UuidParam) dealId: string,
    @Body() body: ReopenDealDto,
  ) {
    return this.deals.reopen(actor, dealId, body?.stage);
  }
}
