import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import {
  ApiBadRequestErrors,
  ApiConflictError,
  ApiErrorResponse,
  ApiForbiddenError,
  ApiJsonBodyErrors,
  ApiNotFoundError,
  CurrentPrincipal,
  Idempotent,
  Principal,
  RequireScopes,
  UuidParam,
} from '@app/platform';
import { BrochuresQueries } from '../application/brochures.queries';
import { BrochuresService } from '../application/brochures.service';
import {
  BrochureDetailView,
  BrochureLinkView,
  BrochureListingAnswerView,
  BrochureOrderView,
  BrochurePageView,
  BrochureRenewalView,
  BrochureView,
} from '../views/brochure.view';
import {
  AddBrochureListingDto,
  ChangeBrochureDto,
  CreateBrochureDto,
  EditBrochureListingDto,
  EmptyBodyDto,
  ListBrochuresQueryDto,
  OrderBrochureListingsDto,
  RenewBrochureDto,
} from './dto/brochures.dto';

const NOT_SEEN = "when it is absent, another agency's, or a colleague's and the caller is not an admin";
const ALLOWANCE =
  'DAILY_LIMIT_REACHED: the daily portal allowance cannot cover the portal reads this needs; nothing ' +
  'was created or changed (`Retry-After` until the reset).';
const LISTING_NOT_SEEN = 'Brochure listing';
const BAD_LISTING =
  'VALIDATION_FAILED also for a listing reference that cannot be read (unknown source, a portal ' +
  'without `country`, a listing that does not exist or the agency may not read), at `listings[i]`.';

/** Spec "Brochures": brochures:read / brochures:write, no plan; a member their own, an admin all. */
@ApiTags('v1: brochures')
@Controller('v1/brochures')
export class BrochuresController {
  constructor(
    private readonly brochures: BrochuresService,
    private readonly queries: BrochuresQueries,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'List brochures',
    description:
      'Newest first, `{data, hasMore, total}` with an exact total. A member sees only the brochures ' +
      'they created; an admin every brochure of the agency and may filter by `createdById`. `status` ' +
      '`expired` is an active brochure whose `expiresAt` has passed.',
  })
  @RequireScopes('brochures:read')
  @ApiOkResponse({ type: BrochurePageView })
  @ApiBadRequestErrors('VALIDATION_FAILED also for a `limit` outside 1-20 or an unknown `status`.')
  @ApiForbiddenError('ORG_ADMIN_REQUIRED: `createdById` sent by a member.')
  list(@CurrentPrincipal() actor: Principal, @Query() query: ListBrochuresQueryDto) {
    return this.queries.list(actor, query.listQuery());
  }

  @Post()
  @ApiOperation({
    summary: 'Create a brochure',
    description:
      'Reads the 1-25 listings through their sources (portal reads count toward the daily allowance, ' +
      'reserved before anything is written) and stores a copy of each, never `commission`. `active` ' +
      'at once; `slug` is the slugified title (≤ 40 characters) plus `-` and 10 random characters; ' +
      '`publicUrl` `{PUBLIC_BASE_URL}/b/<slug>`; `expiresInDays` default 30. Each of `leadIds` gets a ' +
      '`brochure` timeline entry. Also needs properties:read.',
  })
  @RequireScopes('brochures:write', 'properties:read')
  @Idempotent()
  @ApiCreatedResponse({ type: BrochureView })
  @ApiJsonBodyErrors(
    BAD_LISTING,
    'VALIDATION_FAILED for more than 25 listings, an unknown `themeName`, an `accentColorOverride` ' +
      'that is not `#RRGGBB`, or an `agentUserId` who is not a member of the agency.',
  )
  @ApiForbiddenError('FORBIDDEN: a member naming another person as `agentUserId`.')
  @ApiNotFoundError('Lead', 'when one of `leadIds` is absent or out of the caller’s reach')
  @ApiConflictError('CONFLICT: the same listing twice in `listings`.')
  @ApiErrorResponse(429, ALLOWANCE)
  create(@CurrentPrincipal() actor: Principal, @Body() body: CreateBrochureDto) {
    return this.brochures.create(actor, {
      listings: body.listings.map((ref) => ({ source: ref.source, id: ref.id, country: ref.country })),
      title: body.title,
      recipientName: body.recipientName,
      recipientNote: body.recipientNote,
      expiresInDays: body.expiresInDays,
      showLocations: body.showLocations,
      themeName: body.themeName,
      accentColorOverride: body.accentColorOverride,
      agentUserId: body.agentUserId,
      leadIds: body.leadIds,
    });
  }

  @Get(':brochureId')
  @ApiOperation({
    summary: 'Read a brochure',
    description: 'The whole brochure with its listings in order as compact rows (the edited title wins).',
  })
  @RequireScopes('brochures:read')
  @ApiOkResponse({ type: BrochureView })
  @ApiBadRequestErrors()
  @ApiNotFoundError('Brochure', NOT_SEEN)
  get(@CurrentPrincipal() actor: Principal, @Param('brochureId', UuidParam) brochureId: string) {
    return this.queries.get(actor, brochureId);
  }

  @Patch(':brochureId')
  @ApiOperation({
    summary: 'Change a brochure',
    description:
      'Any of title, recipient name and note (null clears), theme, accent (null: the theme’s), ' +
      '`showLocations`. The slug and link stay. Answers the brochure without its listings.',
  })
  @RequireScopes('brochures:write')
  @ApiOkResponse({ type: BrochureDetailView })
  @ApiJsonBodyErrors()
  @ApiNotFoundError('Brochure', NOT_SEEN)
  change(
    @CurrentPrincipal() actor: Principal,
    @Param('brochureId', UuidParam) brochureId: string,
    @Body() body: ChangeBrochureDto,
  ) {
    return this.brochures.change(actor, brochureId, {
      title: body.title,
      recipientName: body.recipientName,
      recipientNote: body.recipientNote,
      themeName: body.themeName,
      accentColorOverride: body.accentColorOverride,
      showLocations: body.showLocations,
    });
  }

  @Post(':brochureId/listings')
  @ApiOperation({
    summary: 'Add a listing to a brochure',
    description:
      'Reads the listing through its source and stores its copy at `position` (zero-based, default the ' +
      'end); the later ones shift down. Also needs properties:read.',
  })
  @RequireScopes('brochures:write', 'properties:read')
  @Idempotent()
  @ApiCreatedResponse({ type: BrochureListingAnswerView })
  @ApiJsonBodyErrors(
    'VALIDATION_FAILED also for a listing that cannot be read, or a `position` past the end.',
  )
  @ApiNotFoundError('Brochure', NOT_SEEN)
  @ApiConflictError('CONFLICT: the listing is in the brochure already, or it holds 25.')
  @ApiErrorResponse(429, ALLOWANCE)
  addListing(
    @CurrentPrincipal() actor: Principal,
    @Param('brochureId', UuidParam) brochureId: string,
    @Body() body: AddBrochureListingDto,
  ) {
    return this.brochures.addListing(
      actor,
      brochureId,
      { source: body.source, id: body.id, country: body.country },
      body.position,
    );
  }

  @Put(':brochureId/listings/order')
  @ApiOperation({
    summary: 'Reorder a brochure’s listings',
    description: 'Every brochure-listing id, each once, in the new order (a partial set: 400).',
  })
  @RequireScopes('brochures:write')
  @ApiOkResponse({ type: BrochureOrderView })
  @ApiJsonBodyErrors('VALIDATION_FAILED also when `listingIds` is not the complete set.')
  @ApiNotFoundError('Brochure', NOT_SEEN)
  order(
    @CurrentPrincipal() actor: Principal,
    @Param('brochureId', UuidParam) brochureId: string,
    @Body() body: OrderBrochureListingsDto,
  ) {
    return this.brochures.order(actor, brochureId, body.listingIds);
  }

  @Patch(':brochureId/listings/:listingId')
  @ApiOperation({
    summary: 'Edit a brochure listing',
    description:
      'A title shown instead of the listing’s (null drops it) and the fields the public page hides ' +
      '(`price`, `address`, `coordinates`, `description`, `features`). A refresh keeps these edits.',
  })
  @RequireScopes('brochures:write')
  @ApiOkResponse({ type: BrochureListingAnswerView })
  @ApiJsonBodyErrors()
  @ApiNotFoundError('Brochure', `${NOT_SEEN}; \`${LISTING_NOT_SEEN} not found.\` for a listing not in it`)
  editListing(
    @CurrentPrincipal() actor: Principal,
    @Param('brochureId', UuidParam) brochureId: string,
    @Param('listingId', UuidParam) listingId: string,
    @Body() body: EditBrochureListingDto,
  ) {
    return this.brochures.editListing(actor, brochureId, listingId, {
      title: body.title,
      hiddenFields: body.hiddenFields,
    });
  }

  @Post(':brochureId/listings/:listingId/refresh')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Refresh a brochure listing',
    description:
      'Reads the listing again and replaces its copy; the title edit and hidden fields stay. A portal ' +
      'read counts toward the daily allowance. Body `{}`. Also needs properties:read.',
  })
  @RequireScopes('brochures:write', 'properties:read')
  @ApiOkResponse({ type: BrochureListingAnswerView })
  @ApiJsonBodyErrors()
  @ApiNotFoundError('Brochure', `${NOT_SEEN}; \`${LISTING_NOT_SEEN} not found.\` for a listing not in it`)
  @ApiConflictError('CONFLICT: the listing can no longer be read; its copy is kept.')
  @ApiErrorResponse(429, ALLOWANCE)
  refreshListing(
    @CurrentPrincipal() actor: Principal,
    @Param('brochureId', UuidParam) brochureId: string,
    @Param('listingId', UuidParam) listingId: string,
    @Body() _body: EmptyBodyDto,
  ) {
    return this.brochures.refreshListing(actor, brochureId, listingId);
  }

  @Delete(':brochureId/listings/:listingId')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Remove a listing from a brochure',
    description: 'The later listings move up. The last listing stays (409): delete the brochure instead.',
  })
  @RequireScopes('brochures:write')
  @ApiNoContentResponse({ description: 'Removed.' })
  @ApiBadRequestErrors()
  @ApiNotFoundError('Brochure', `${NOT_SEEN}; \`${LISTING_NOT_SEEN} not found.\` for a listing not in it`)
  @ApiConflictError('CONFLICT: it is the brochure’s only listing.')
  async removeListing(
    @CurrentPrincipal() actor: Principal,
    @Param('brochureId', UuidParam) brochureId: string,
    @Param('listingId', UuidParam) listingId: string,
  ) {
    await this.brochures.removeListing(actor, brochureId, listingId);
  }

  @Post(':brochureId/revoke')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Revoke a brochure',
    description: 'From any status: `revoked`, the public page answers 410 from now on. Body `{}`.',
  })
  @RequireScopes('brochures:write')
  @ApiOkResponse({ type: BrochureLinkView })
  @ApiJsonBodyErrors()
  @ApiNotFoundError('Brochure', NOT_SEEN)
  revoke(
    @CurrentPrincipal() actor: Principal,
    @Param('brochureId', UuidParam) brochureId: string,
    @Body() _body: EmptyBodyDto,
  ) {
    return this.brochures.revoke(actor, brochureId);
  }

  @Post(':brochureId/renew')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Renew a brochure',
    description:
      'From any status: `active`, the same slug and link, `expiresAt` = now + `expiresInDays` (30). With ' +
      '`refreshListings` every listing is read again first; those that cannot be read keep their old ' +
      'copy and are listed in `failedRefreshes`. Also needs properties:read.',
  })
  @RequireScopes('brochures:write', 'properties:read')
  @ApiOkResponse({ type: BrochureRenewalView })
  @ApiJsonBodyErrors()
  @ApiNotFoundError('Brochure', NOT_SEEN)
  @ApiErrorResponse(429, ALLOWANCE)
  renew(
    @CurrentPrincipal() actor: Principal,
    @Param('brochureId', UuidParam) brochureId: string,
    @Body() body: RenewBrochureDto,
  ) {
    return this.brochures.renew(actor, brochureId, {
      expiresInDays: body.expiresInDays,
      refreshListings: body.refreshListings,
    });
  }

  @Delete(':brochureId')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a brochure',
    description: 'Permanently, with its listing copies; the public page answers 404 from now on.',
  })
  @RequireScopes('brochures:write')
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiBadRequestErrors()
  @ApiNotFoundError('Brochure', NOT_SEEN)
  async delete(@CurrentPrincipal() actor: Principal, @Param('brochureId', UuidParam) brochureId: string) {
    await this.brochures.delete(actor, brochureId);
  }
}
