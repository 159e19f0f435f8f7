import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ApiErrorResponse,
  ApiJsonBodyErrors,
  ApiNotFoundError,
  CurrentPrincipal,
  Principal,
  RequireScopes,
  SharedRateLimit,
} from '@app/platform';
import { ListingMatchesService } from '../application/listing-matches.service';
import { ListingMatchesAnswerView } from '../views/search.view';
import { ListingMatchesDto } from './dto/listing-matches.dto';

/** Spec (Search): crm:read, no plan, the shared `search` limit; portal reads spend the allowance. */
@ApiTags('v1: search')
@Controller('v1/listing-matches')
export class ListingMatchesController {
  constructor(private readonly matches: ListingMatchesService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Find the leads a listing suits',
    description:
      'The leads whose CRM history (notes, call transcripts and analyses, messages, emails, tasks) matches ' +
      'a listing, best first, each with up to three passages as evidence. Name the listing by ' +
      '`propertyListingId` (own, or another agency’s on the network) or by `source` + `listingId` (+ ' +
      '`country` for a portal), exactly as property search gives it. The listing is said as English words ' +
      '(`listingQuery`: bedrooms, type, operation, place, notable features, price) and searched like ' +
      '`POST /v1/search` (thesaurus, word forms, accents, typos, rerank); leads whose inquiries named this ' +
      'listing or its city score higher, and so do buyers for a sale and tenants for a rent. A member sees ' +
      'only the leads assigned to them and those a collaborating agency shared with them; an admin the ' +
      'whole agency. A portal listing read counts toward the daily portal allowance. Counts against the ' +
      'shared search limit (30 a minute per key and per organization).',
  })
  @RequireScopes('crm:read')
  @SharedRateLimit('search')
  @ApiOkResponse({ type: ListingMatchesAnswerView })
  @ApiJsonBodyErrors(
    'VALIDATION_FAILED: both `propertyListingId` and `source`/`listingId`, or neither, or `source` ' +
      'without `listingId`; `country` with `propertyListingId`; `propertyListingId` not a UUID; an unknown `source`; a portal without ' +
      '`country`; `maxResults` outside 1-30; a bad date, or `occurredFrom` after `occurredTo`.',
  )
  @ApiNotFoundError(
    'Listing',
    'when the listing does not exist in its source, or is another agency’s and not on the network',
  )
  @ApiErrorResponse(
    429,
    'DAILY_LIMIT_REACHED: the daily portal allowance cannot cover the portal read this needs ' +
      '(`Retry-After` until the reset).',
  )
  run(@CurrentPrincipal() actor: Principal, @Body() body: ListingMatchesDto) {
    return this.matches.match(actor, body);
  }
}
