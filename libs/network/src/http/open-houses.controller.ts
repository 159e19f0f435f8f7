import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ApiBadRequestErrors,
  ApiNotFoundError,
  CurrentPrincipal,
  Principal,
  RequireScopes,
  UuidParam,
} from '@app/platform';
import { OpenHousesQueries } from '../application/open-houses.queries';
import { OpenHouseListView, OpenHouseView } from '../views/open-house.view';
import { ListOpenHousesQueryDto } from './dto/open-houses.dto';

const NOT_SEEN =
  "when it is absent, another agency's `agency`-only event, or its listing is no longer on the network";

/** Open houses on `/v1` (properties:read, no plan); writes are session routes. */
@ApiTags('v1: open houses')
@Controller('v1/open-houses')
export class OpenHousesController {
  constructor(private readonly queries: OpenHousesQueries) {}

  @Get()
  @ApiOperation({
    summary: 'List open houses',
    description:
      '`scope` `network` (default): other agencies’ scheduled `network` events ending after `from` ' +
      '(default now), nearest first; `mine`: your agency’s, any status, latest start first. `to` keeps ' +
      'events starting before it, `area` a prefix of the listing’s city or community. At most `limit` ' +
      'rows, `{data, hasMore}` without paging: narrow the filters when `hasMore`. The listing owner’s ' +
      'private commission never appears; `commissionOffer` is what the listing offers the network.',
  })
  @RequireScopes('properties:read')
  @ApiOkResponse({ type: OpenHouseListView })
  @ApiBadRequestErrors(
    'VALIDATION_FAILED also for an unknown `scope`, a `from` or `to` without an offset, `listingSource` ' +
      'without `listingId` or the reverse, or a `limit` outside 1-25.',
  )
  list(@CurrentPrincipal() actor: Principal, @Query() query: ListOpenHousesQueryDto) {
    return this.queries.list(actor, query.listQuery());
  }

  @Get(':openHouseId')
  @ApiOperation({
    summary: 'Read an open house',
    description:
      'The row plus `slug`, `disclosedAddress` (the street address while the listing is `ACTIVE`), ' +
      '`mapUrl` (only when the listing shows its exact location), contact, host and `invitation`.',
  })
  @RequireScopes('properties:read')
  @ApiOkResponse({ type: OpenHouseView })
  @ApiBadRequestErrors('VALIDATION_FAILED for an `openHouseId` that is not a UUID.')
  @ApiNotFoundError('Open house', NOT_SEEN)
  get(@CurrentPrincipal() actor: Principal, @Param('openHouseId', UuidParam) openHouseId: string) {
    return this.queries.get(actor, openHouseId);
  }
}
