import { applyDecorators, Body, Controller, Get, Param, Patch, Post, Put, Query } from '@nestjs/common';
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
  RequireScopes,
  RequiresPlan,
  UuidParam,
} from '@app/platform';
import { ViewingsQueries } from '../application/viewings.queries';
import { ViewingsService } from '../application/viewings.service';
import { ViewingPageView, ViewingView } from '../views/viewing.view';
import {
  ChangeViewingDto,
  CreateViewingDto,
  ListViewingsQueryDto,
  ViewingStatusDto,
} from './dto/viewings.dto';

/** Spec (Viewings, open houses): reads need properties:read and no plan. */
const ViewingsRead = () => RequireScopes('properties:read');
/** Writes touch leads: crm:write and an active plan. */
const ViewingsWrite = () => applyDecorators(RequireScopes('crm:write'), RequiresPlan());

const NOT_SEEN = "when it is absent, another agency's, or a member neither reaches its lead nor is its agent";
const REFERENCES =
  'A `propertyListingId` the agency may not read, a `dealId` that is not a deal of the lead, or an ' +
  '`agentUserId` who is not a member of the organization is VALIDATION_FAILED; so are more than 10 ' +
  '`otherLeadIds`, notes over 20,000 characters, an unknown `kind` or a `viewingAt` without `Z` or an offset.';
const LEADS_NOT_REACHED =
  'when `leadId`, one of `otherLeadIds` or `collaboratorLeadId` names a lead that is absent or out of the ' +
  "caller's reach";
const OTHER_AGENT = 'FORBIDDEN: a member naming another person as `agentUserId`.';

@ApiTags('v1: viewings')
@Controller('v1/viewings')
export class ViewingsController {
  constructor(
    private readonly viewings: ViewingsService,
    private readonly queries: ViewingsQueries,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'List viewings',
    description:
      'An admin sees every viewing of the agency; a member those whose lead they reach or where they are ' +
      'the agent. `from` is inclusive and `to` exclusive (on `viewingAt`); `leadId` matches the viewing’s ' +
      'lead or one of its other clients. Latest `viewingAt` first (then `id`), offset paging with the exact ' +
      '`total`; `notes` cut to 500 characters (`notesTruncated`).',
  })
  @ViewingsRead()
  @ApiOkResponse({ type: ViewingPageView })
  @ApiBadRequestErrors(
    'VALIDATION_FAILED for a `limit` outside 1-100, a negative `offset`, a `from` or `to` that is not an ' +
      'ISO 8601 date-time with `Z` or an offset, an unknown `status` or `kind`, or a malformed id.',
  )
  list(@CurrentPrincipal() actor: Principal, @Query() query: ListViewingsQueryDto) {
    return this.queries.list(actor, { ...query.filters(), offset: query.offset, limit: query.limit });
  }

  @Get(':viewingId')
  @ApiOperation({ summary: 'Read a viewing', description: 'The viewing with its whole notes.' })
  @ViewingsRead()
  @ApiOkResponse({ type: ViewingView })
  @ApiBadRequestErrors()
  @ApiNotFoundError('Viewing', NOT_SEEN)
  get(@CurrentPrincipal() actor: Principal, @Param('viewingId', UuidParam) viewingId: string) {
    return this.queries.get(actor, viewingId);
  }

  @Post()
  @ApiOperation({
    summary: 'Create a viewing',
    description:
      "`scheduled`, `source` `api`; the agent is the key's person unless `agentUserId` names another " +
      'member (admins only). On the lead’s timeline (`viewing`) and, while scheduled, on the agent’s ' +
      'calendar and free-times (an hour from `viewingAt`).',
  })
  @ViewingsWrite()
  @Idempotent()
  @ApiCreatedResponse({ type: ViewingView })
  @ApiJsonBodyErrors(REFERENCES)
  @ApiForbiddenError(OTHER_AGENT)
  @ApiNotFoundError('Lead', LEADS_NOT_REACHED)
  create(@CurrentPrincipal() actor: Principal, @Body() body: CreateViewingDto) {
    return this.viewings.create(actor, body);
  }

  @Patch(':viewingId')
  @ApiOperation({
    summary: 'Change a viewing',
    description:
      'Any create field; null clears `collaboratorLeadId`, `dealId` or `notes`; `otherLeadIds` replaces the ' +
      'list. Never the status (see `PUT …/status`).',
  })
  @ViewingsWrite()
  @ApiOkResponse({ type: ViewingView })
  @ApiJsonBodyErrors(REFERENCES)
  @ApiForbiddenError(OTHER_AGENT)
  @ApiNotFoundError('Viewing', `${NOT_SEEN}; 404 \`Lead not found.\` ${LEADS_NOT_REACHED}`)
  change(
    @CurrentPrincipal() actor: Principal,
    @Param('viewingId', UuidParam) viewingId: string,
    @Body() body: ChangeViewingDto,
  ) {
    return this.viewings.change(actor, viewingId, body);
  }

  @Put(':viewingId/status')
  @ApiOperation({
    summary: 'Move a viewing’s status',
    description:
      '`scheduled` → `completed`, `cancelled` or `no_show`; `cancelled` or `no_show` → `scheduled` with a ' +
      'new `viewingAt` (required then, refused otherwise); `completed` is final.',
  })
  @ViewingsWrite()
  @ApiOkResponse({ type: ViewingView })
  @ApiJsonBodyErrors(
    'An unknown `status`, `viewingAt` missing when scheduling again or sent with another move is VALIDATION_FAILED.',
  )
  @ApiConflictError('CONFLICT: any other move (from `completed`, to the same status, between the others).')
  @ApiNotFoundError('Viewing', NOT_SEEN)
  move(
    @CurrentPrincipal() actor: Principal,
    @Param('viewingId', UuidParam) viewingId: string,
    @Body() body: ViewingStatusDto,
  ) {
    return this.viewings.move(actor, viewingId, body);
  }
}
