import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import {
  ApiLegacyErrorResponse,
  ApiLegacyPayloadTooLargeError,
  CurrentPrincipal,
  ListingRoute,
  ListingWriteRoute,
  Principal,
  UuidParam,
} from '@app/platform';
import { ListingsQueries } from '../application/listings.queries';
import { ListingsService } from '../application/listings.service';
import { ListingHistoryView, ListingRecordView } from '../views/listing.view';
import { ChangeListingDto, CreateListingDto, RenewListingDto } from './dto/listing.dto';

const NOT_FOUND =
  'NOT_FOUND `Listing not found.`: no such listing, deleted, or another agency’s listing that is not on the network';
const NOT_OWN =
  'NOT_FOUND `Listing not found.`: no such listing of the agency (deleted, or another agency’s)';
const BAD_INPUT = 'VALIDATION_FAILED naming the first issue (`message`)';

const legacy = ApiLegacyErrorResponse;
const TOO_LARGE = 'the body is larger than 5 MB.';

@ApiTags('properties')
@Controller('properties')
export class ListingsController {
  constructor(
    private readonly listings: ListingsService,
    private readonly queries: ListingsQueries,
  ) {}

  @Post()
  @ApiOperation({
    summary: 'Create a listing',
    description:
      'A listing of the agency. Required: `title`, `operation`, `propertyType`, `price`, `currency`, ' +
      '`countryCode`, `city`, `agentId` (an active agent of the agency). Defaults: `status` ACTIVE, ' +
      '`areaUnit` sqm, `networkVisible` true, `expiresAt` now + 90 days. `features` wins over the legacy ' +
      '`has*` flags. A `reference` another live listing of the agency has → 409 CONFLICT. The change is ' +
      'recorded in the history as `apikey:<keyId>`.',
  })
  @ListingWriteRoute('properties:write')
  @ApiCreatedResponse({ type: ListingRecordView })
  @legacy(
    400,
    `${BAD_INPUT}; also an \`agentId\` that is not an active agent of the agency, an image that is not the agency’s upload`,
  )
  @legacy(409, 'CONFLICT: the `reference` is taken by another listing of the agency')
  @ApiLegacyPayloadTooLargeError(TOO_LARGE)
  create(@CurrentPrincipal() actor: Principal, @Body() body: CreateListingDto): Promise<ListingRecordView> {
    return this.listings.create(actor, body);
  }

  @Get(':id')
  @ApiOperation({
    summary: 'Read a listing',
    description:
      'An own listing, or another agency’s listing on the network (ACTIVE and `networkVisible`): then ' +
      'without `commission`, exact coordinates only with `showExactLocation`, the agent’s email and ' +
      'numbers only with `shareContactOnNetwork`.',
  })
  @ListingRoute('properties:read')
  @ApiOkResponse({ type: ListingRecordView })
  @legacy(400, 'VALIDATION_FAILED: `id` is not a UUID')
  @legacy(404, NOT_FOUND)
  get(@CurrentPrincipal() actor: Principal, @Param('id', UuidParam) id: string): Promise<ListingRecordView> {
    return this.queries.get(actor, id);
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Change a listing',
    description:
      'Any subset of the create payload; `null` clears a nullable field (a required one refuses it); ' +
      '`features` omitted keeps them. Own listings only. A status out of ACTIVE undoes the listing’s ' +
      'portal publications. Each change adds a history row with the fields that changed.',
  })
  @ListingWriteRoute('properties:write')
  @ApiOkResponse({ type: ListingRecordView })
  @legacy(400, `${BAD_INPUT}; \`EXPIRED\` is not a status a caller sets`)
  @legacy(404, NOT_OWN)
  @legacy(409, 'CONFLICT: the `reference` is taken by another listing of the agency')
  @ApiLegacyPayloadTooLargeError(TOO_LARGE)
  change(
    @CurrentPrincipal() actor: Principal,
    @Param('id', UuidParam) id: string,
    @Body() body: ChangeListingDto,
  ): Promise<ListingRecordView> {
    return this.listings.change(actor, id, body);
  }

  @Post(':id/renew')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Renew a listing',
    description:
      'The listing becomes ACTIVE and `expiresAt` = max(now, `expiresAt`) + 90 days. No body, or `{}`.',
  })
  @ListingWriteRoute('properties:write')
  @ApiOkResponse({ type: ListingRecordView })
  @legacy(400, 'VALIDATION_FAILED: `id` is not a UUID')
  @legacy(404, NOT_OWN)
  renew(
    @CurrentPrincipal() actor: Principal,
    @Param('id', UuidParam) id: string,
    @Body() _body: RenewListingDto,
  ): Promise<ListingRecordView> {
    return this.listings.renew(actor, id);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a listing',
    description:
      'Soft delete: reads answer 404 from then on; its portal publications are undone; brochures keep ' +
      'their copy.',
  })
  @ListingWriteRoute('properties:write')
  @ApiNoContentResponse({ description: 'Deleted.' })
  @legacy(400, 'VALIDATION_FAILED: `id` is not a UUID')
  @legacy(404, NOT_OWN)
  async remove(@CurrentPrincipal() actor: Principal, @Param('id', UuidParam) id: string): Promise<void> {
    await this.listings.remove(actor, id);
  }

  @Get(':id/history')
  @ApiOperation({
    summary: 'Read a listing’s history',
    description:
      'The newest 100 changes of an own listing, newest first: `{at, source, changedBy, changedFields}`; ' +
      '`source` is `apikey:<keyId>` for changes with an API key, `system:expiry` for the expiry.',
  })
  @ListingRoute('properties:read')
  @ApiOkResponse({ type: ListingHistoryView })
  @legacy(400, 'VALIDATION_FAILED: `id` is not a UUID')
  @legacy(404, NOT_OWN)
  history(
    @CurrentPrincipal() actor: Principal,
    @Param('id', UuidParam) id: string,
  ): Promise<ListingHistoryView> {
    return this.queries.historyOf(actor, id);
  }
}
