import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ApiBadRequestErrors,
  ApiNotFoundError,
  CurrentPrincipal,
  Principal,
  RequireScopes,
} from '@app/platform';
import { BuyerRequestsService } from '../application/buyer-requests.service';
import { BuyerRequestListView } from '../views/buyer-request.view';
import { ListBuyerRequestsQueryDto } from './dto/buyer-request.dto';

@ApiTags('v1: network')
@Controller('v1/buyer-requests')
export class BuyerRequestsController {
  constructor(private readonly requests: BuyerRequestsService) {}

  @Get()
  @ApiOperation({
    summary: 'List buyer requests',
    description:
      'Without `listingId`: the key person’s own requests in every status. With it (an ACTIVE listing the caller ' +
      'can read: one of the agency’s own, shared on the network or not, or another agency’s network listing): ' +
      'the open requests of agencies other than the caller’s that fit it: the operation, its type ' +
      'among theirs, the country, an area equal to its city or community (case and accents ignored), its price ' +
      'at most `priceMax` in the same currency, its bedrooms at least `bedroomsMin`. The 25 newest, ' +
      '`{data: [{id, summary, status, createdAt}], hasMore}`; never notes, lead, names or contact details.',
  })
  @RequireScopes('properties:read')
  @ApiOkResponse({ type: BuyerRequestListView })
  @ApiBadRequestErrors('VALIDATION_FAILED also for a `listingId` that is not a UUID.')
  @ApiNotFoundError(
    'Listing',
    'when `listingId` is not an ACTIVE listing the caller can read (own, or another agency’s on the network)',
  )
  list(@CurrentPrincipal() actor: Principal, @Query() query: ListBuyerRequestsQueryDto) {
    return this.requests.list(actor, query.listingId);
  }
}
