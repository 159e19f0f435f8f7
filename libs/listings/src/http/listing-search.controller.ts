import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ApiLegacyErrorResponse,
  ApiLegacyPayloadTooLargeError,
  CurrentPrincipal,
  ListingRoute,
  Principal,
} from '@app/platform';
import { ListingSearchQueries } from '../application/listing-search.queries';
import { ListingAggregationsView, ListingCountView, ListingSearchPageView } from '../views/listing-summary';
import { ListingAggregationsDto, ListingQueryDto, ListingSearchDto } from './dto/listing-search.dto';

const BAD_BODY =
  'VALIDATION_FAILED, naming the first issue: a malformed field (an unknown enum value, `limit` outside ' +
  '1-100, a `q` over 200 characters, a latitude outside ±90), a min above its max (price, bedrooms, areas), ' +
  'a box whose south is above its north, or `statuses` with scope `network`. BAD_REQUEST: the body is not JSON.';
const BadBody = (extra = '') => ApiLegacyErrorResponse(400, `${BAD_BODY}${extra}`);
const TooLarge = () => ApiLegacyPayloadTooLargeError('the body is larger than 5 MB.');

const SCOPES =
  'Scope `own` (default): the agency’s own listings, every status unless `filters.statuses`; listings ' +
  'are agency-wide, so a member’s key reads them all. Scope `network`: other agencies’ ACTIVE listings ' +
  'shared on the network, with exact coordinates only where they show the exact location.';

/** Property search (issue 16 item 3): `POST /properties/search`, `/count`, `/aggregations`. */
@ApiTags('properties')
@Controller('properties')
export class ListingSearchController {
  constructor(private readonly queries: ListingSearchQueries) {}

  @Post('search')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Search listings',
    description:
      `${SCOPES} Every filter is optional and they are AND-ed; areas are in m² (sqft listings converted); ` +
      '`city` and `community` match whole values case-insensitively; `features` needs all of them; `q` is an ' +
      'accent- and case-insensitive contains over title, reference and address. A `boundingBox` whose ' +
      '`southWest.lon` is greater than `northEast.lon` crosses the antimeridian. Sorts break ties by id. ' +
      '`{data, page, limit, total, hasMore}` with an exact total; summaries never carry `commission`.',
  })
  @ListingRoute('properties:read')
  @ApiOkResponse({ type: ListingSearchPageView })
  @BadBody()
  @TooLarge()
  search(
    @CurrentPrincipal() actor: Principal,
    @Body() body: ListingSearchDto,
  ): Promise<ListingSearchPageView> {
    return this.queries.search(actor.organizationId, body);
  }

  @Post('count')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Count listings',
    description:
      `How many listings a search with the same body matches (its \`total\`). ${SCOPES} ` +
      '`sort`, `page` and `limit` are not read.',
  })
  @ListingRoute('properties:read')
  @ApiOkResponse({ type: ListingCountView })
  @BadBody()
  @TooLarge()
  count(@CurrentPrincipal() actor: Principal, @Body() body: ListingQueryDto): Promise<ListingCountView> {
    return this.queries.countMatches(actor.organizationId, body);
  }

  @Post('aggregations')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Aggregate listings',
    description:
      `Term counts and price statistics over the listings a search with the same \`scope\`, \`filters\` and ` +
      `\`boundingBox\` matches, in one read. ${SCOPES} \`aggregations\` names 1-6 distinct of ` +
      '`propertyType`, `bedrooms`, `city`, `energyRating`, `status` (top 50 values each, by count then value; ' +
      'listings without a value are not counted) and `priceStats` (per currency: count, min, max, avg and ' +
      'median as decimal strings; the median is the middle price, of an even count the lower middle one). ' +
      'Only the requested members are answered.',
  })
  @ListingRoute('properties:read')
  @ApiOkResponse({ type: ListingAggregationsView })
  @BadBody(' Also `aggregations` missing, empty, repeating a name or naming an unknown one.')
  @TooLarge()
  aggregations(
    @CurrentPrincipal() actor: Principal,
    @Body() body: ListingAggregationsDto,
  ): Promise<ListingAggregationsView> {
    return this.queries.aggregations(actor.organizationId, body);
  }
}
