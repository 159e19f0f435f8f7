import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, LegacyErrorView, ListingRoute, Principal } from '@app/platform';
import { PropertySourcesService } from '../application/property-sources.service';
import { PORTAL_DAILY_ALLOWANCE } from '../domain/portal-allowance';
import {
  PropertySourceListView,
  SourceListingView,
  SourceSearchPageView,
} from '../views/property-source.view';
import { SourceListingQueryDto, SourceSearchDto } from './dto/property-sources.dto';

const LegacyError = (status: number, description: string) =>
  ApiResponse({ status, description, type: LegacyErrorView });

const SourceParam = () =>
  ApiParam({
    name: 'source',
    description: '`internal`, a connected feed (`kyero`, `redsp`, `jsonfeed`) or a portal (`demoportal`).',
  });
const SOURCE_NOT_FOUND =
  'NOT_FOUND: `Property source not found.` for an unknown source or a feed the agency has not connected.';
const QUOTA =
  `PROPERTY_PORTAL_QUOTA_EXHAUSTED: the agency's ${PORTAL_DAILY_ALLOWANCE} upstream portal calls of ` +
  'today (UTC) are used up; cached answers still serve.';
const PortalUnavailable = () =>
  LegacyError(503, 'INTERNAL: the portal did not answer (the reserved call stays counted); retry later.');

@ApiTags('property-sources')
@Controller('property-sources')
export class PropertySourcesController {
  constructor(private readonly sources: PropertySourcesService) {}

  @Get()
  @ApiOperation({
    summary: 'List property sources',
    description:
      'Every source the agency can browse: `internal` (its own listings), the three feeds (`connected` ' +
      'once an admin connected them) and the portals with their countries. `simulated` marks sample data ' +
      '(`demoportal`): made-up listings, and publications to it send nothing.',
  })
  @ListingRoute('sources:read')
  @ApiOkResponse({ type: PropertySourceListView })
  list(@CurrentPrincipal() actor: Principal): Promise<PropertySourceListView> {
    return this.sources.list(actor.organizationId);
  }

  @Post(':source/search')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Search a property source',
    description:
      'The body of `POST /properties/search` (`scope` ignored), a page of 1-50; a portal needs `country`. ' +
      '`internal` and feeds are searched in the agency’s listings and never count. A portal search is ' +
      'served from a cache shared by every agency for 15 minutes (`cached` true, free), else it costs one ' +
      `upstream call of the agency's daily allowance (${PORTAL_DAILY_ALLOWANCE} a UTC day), reserved before ` +
      'the call. Rows of a portal carry `ref {source, id, country}`. A `simulated` source (`demoportal`) ' +
      'answers made-up sample listings (`simulated` true on the page).',
  })
  @ListingRoute('sources:read')
  @SourceParam()
  @ApiOkResponse({ type: SourceSearchPageView })
  @LegacyError(
    400,
    `VALIDATION_FAILED: the first invalid field (\`country\` missing for a portal, \`limit\` over 50, …). ${QUOTA}`,
  )
  @LegacyError(404, SOURCE_NOT_FOUND)
  @PortalUnavailable()
  search(
    @CurrentPrincipal() actor: Principal,
    @Param('source') source: string,
    @Body() body: SourceSearchDto,
  ): Promise<SourceSearchPageView> {
    return this.sources.search(actor.organizationId, source, body);
  }

  @Get(':source/listings/:id')
  @ApiOperation({
    summary: 'Read a listing of a property source',
    description:
      'The listing by its `ref`: for `internal` and feeds the listing record (another agency’s network ' +
      'listing with the network rules); for a portal its record with `ref.country`, `country` required. ' +
      'A portal listing is cached for 60 minutes across agencies; a miss costs one call of the allowance. ' +
      'A `simulated` source’s listing (`demoportal`) is made-up sample data.',
  })
  @ListingRoute('sources:read')
  @SourceParam()
  @ApiParam({ name: 'id', description: 'The listing id within its source (`ref.id`).' })
  @ApiOkResponse({ type: SourceListingView })
  @LegacyError(400, `VALIDATION_FAILED: \`country\` missing or not one of the portal's. ${QUOTA}`)
  @LegacyError(
    404,
    `${SOURCE_NOT_FOUND} NOT_FOUND: \`Listing not found.\` when the source has no such listing the agency may read.`,
  )
  @PortalUnavailable()
  read(
    @CurrentPrincipal() actor: Principal,
    @Param('source') source: string,
    @Param('id') id: string,
    @Query() query: SourceListingQueryDto,
  ): Promise<Record<string, unknown>> {
    return this.sources.read(actor.organizationId, source, id, query.country);
  }
}
