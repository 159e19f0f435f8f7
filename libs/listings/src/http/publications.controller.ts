import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ApiLegacyBadRequestErrors,
  ApiLegacyConflictError,
  ApiLegacyNotFoundError,
  ApiLegacyPayloadTooLargeError,
  CurrentPrincipal,
  ListingRoute,
  ListingWriteRoute,
  Principal,
  UuidParam,
} from '@app/platform';
import { PublicationsService } from '../application/publications.service';
import { PublicationListView } from '../views/publication.view';
import { ReplacePublicationsDto } from './dto/publications.dto';

@ApiTags('properties')
@Controller('properties')
export class ListingPublicationsController {
  constructor(private readonly publications: PublicationsService) {}

  @Get(':id/publications')
  @ApiOperation({
    summary: 'List a listing’s portal publications',
    description:
      'One row per portal the listing was ever enabled on (portals never enabled are not listed), by ' +
      'portal: `status` `pending` (waiting for the sender), `published` (with `externalId` and ' +
      '`publishedAt`), `simulated` (the same on a sample-data portal such as `demoportal`: nothing was ' +
      'sent), `failed` (`lastError`; retried after 1, 5 and 30 minutes, given up after 5 attempts) ' +
      'or `unpublished`. Own listings only.',
  })
  @ListingRoute('properties:read')
  @ApiOkResponse({ type: PublicationListView })
  @ApiLegacyBadRequestErrors()
  @ApiLegacyNotFoundError('Listing', 'when it is absent, deleted or another agency’s')
  list(@CurrentPrincipal() actor: Principal, @Param('id', UuidParam) id: string) {
    return this.publications.list(actor, id);
  }

  @Put(':id/publications')
  @ApiOperation({
    summary: 'Turn portal publications on or off',
    description:
      'Each named portal on (`enabled` true: the row becomes `pending` and the sender publishes it within ' +
      'about 30 seconds, `simulated` instead of `published` on a sample-data portal; the listing must be ' +
      '`ACTIVE`) or off (a published or simulated row becomes a `pending` ' +
      'unpublish, one never published `unpublished` at once); portals not named keep their state, a ' +
      'portal already as asked is left alone. No portal is called during the request. Answers every ' +
      'row, as the GET. Publications are undone when the listing is withdrawn, sold, rented, expires ' +
      'or is deleted.',
  })
  @ListingWriteRoute('properties:write')
  @ApiOkResponse({ type: PublicationListView })
  @ApiLegacyBadRequestErrors(
    'Also for a `portal` that is not a portal (`portals.<i>.portal`) or named twice.',
  )
  @ApiLegacyNotFoundError('Listing', 'when it is absent, deleted or another agency’s')
  @ApiLegacyConflictError('CONFLICT: a portal turned on for a listing that is not `ACTIVE`.')
  @ApiLegacyPayloadTooLargeError('the body is larger than 5 MB.')
  replace(
    @CurrentPrincipal() actor: Principal,
    @Param('id', UuidParam) id: string,
    @Body() body: ReplacePublicationsDto,
  ) {
    return this.publications.replace(
      actor,
      id,
      body.portals.map((wish) => ({ portal: wish.portal, enabled: wish.enabled })),
    );
  }
}
