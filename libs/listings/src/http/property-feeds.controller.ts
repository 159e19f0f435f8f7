import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import {
  AdminOnly,
  ApiBadRequestErrors,
  ApiConflictError,
  ApiJsonBodyErrors,
  ApiNotFoundError,
  CurrentPrincipal,
  Principal,
  Session,
  UuidParam,
} from '@app/platform';
import {
  FEED_IMPORT_RUNNING,
  FEED_SOURCE_TAKEN,
  PropertyFeedsService,
} from '../application/property-feeds.service';
import { FeedImportView, PropertyFeedListView, PropertyFeedView } from '../views/property-feed.view';
import { ChangeFeedDto, ConnectFeedDto } from './dto/property-feed.dto';

const FEED_NOT_OURS = "when it is absent or another agency's";
const IMPORT_RUNNING = `CONFLICT: \`${FEED_IMPORT_RUNNING}\``;

/**
 * Connected property feeds (issue 16 item 5) on the dashboard: a session; admins write. The
 * listings a feed brings are read through `/property-sources/{source}` with an API key.
 */
@ApiTags('dashboard: property feeds')
@Controller('organization/property-feeds')
export class PropertyFeedsController {
  constructor(private readonly feeds: PropertyFeedsService) {}

  @Get()
  @ApiOperation({
    summary: "List the agency's connected property feeds",
    description:
      'At most one feed per source (`kyero`, `redsp`, `jsonfeed`), oldest first, with how the last ' +
      'import went and when the next one runs.',
  })
  @Session()
  @ApiOkResponse({ type: PropertyFeedListView })
  list(@CurrentPrincipal() actor: Principal) {
    return this.feeds.list(actor);
  }

  @Post()
  @ApiOperation({
    summary: 'Connect a property feed',
    description:
      'Admins. `source` `kyero` (Kyero v3 XML), `redsp` (REDSP XML) or `jsonfeed` (JSON Lines, see the ' +
      'README), `url` http or https, `refreshMinutes` 60-10080 (default 360). The first import is due ' +
      'at once and runs within a minute; each import replaces the listings of that source. A `url` ' +
      'without credentials whose host resolves only to public addresses: a private, loopback, ' +
      'link-local or metadata one is 400 VALIDATION_FAILED at `url` (`url: address not allowed`).',
  })
  @Session()
  @AdminOnly()
  @ApiCreatedResponse({ type: PropertyFeedView })
  @ApiJsonBodyErrors()
  @ApiConflictError(`CONFLICT: \`${FEED_SOURCE_TAKEN}\``)
  connect(@CurrentPrincipal() actor: Principal, @Body() body: ConnectFeedDto) {
    return this.feeds.connect(actor, body);
  }

  @Patch(':feedId')
  @ApiOperation({
    summary: 'Change a property feed',
    description:
      'Admins. A new `url` is imported at once (checked as at connect: an internal address is 400 at ' +
      '`url`); a new `refreshMinutes` counts from the last import.',
  })
  @Session()
  @AdminOnly()
  @ApiOkResponse({ type: PropertyFeedView })
  @ApiJsonBodyErrors()
  @ApiNotFoundError('Property feed', FEED_NOT_OURS)
  @ApiConflictError(IMPORT_RUNNING)
  change(
    @CurrentPrincipal() actor: Principal,
    @Param('feedId', UuidParam) feedId: string,
    @Body() body: ChangeFeedDto,
  ) {
    return this.feeds.change(actor, feedId, body);
  }

  @Delete(':feedId')
  @ApiOperation({
    summary: 'Disconnect a property feed',
    description: 'Admins. The feed goes, and with it (same transaction) every listing it imported.',
  })
  @HttpCode(204)
  @Session()
  @AdminOnly()
  @ApiNoContentResponse({ description: 'The feed and its listings are gone.' })
  @ApiBadRequestErrors()
  @ApiNotFoundError('Property feed', FEED_NOT_OURS)
  @ApiConflictError(IMPORT_RUNNING)
  async remove(@CurrentPrincipal() actor: Principal, @Param('feedId', UuidParam) feedId: string) {
    await this.feeds.remove(actor, feedId);
  }

  @Post(':feedId/import')
  @ApiOperation({
    summary: 'Import a property feed now',
    description:
      'Admins. Downloads (30 s, 50 MB, 3 redirects at most) and imports the feed before answering: 200 ' +
      'with the outcome, a failed download or malformed document included (`import.status` `failed`, ' +
      'nothing changed; a host or redirect that now reaches an internal address: `address not allowed`). ' +
      'The next periodic import counts from now.',
  })
  @HttpCode(200)
  @Session()
  @AdminOnly()
  @ApiOkResponse({ type: FeedImportView })
  @ApiBadRequestErrors()
  @ApiNotFoundError('Property feed', FEED_NOT_OURS)
  @ApiConflictError(IMPORT_RUNNING)
  importNow(@CurrentPrincipal() actor: Principal, @Param('feedId', UuidParam) feedId: string) {
    return this.feeds.importNow(actor, feedId);
  }
}
