import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiBadRequestErrors, CurrentPrincipal, Principal, RequireScopes } from '@app/platform';
import { EventsQueries } from '../application/events.queries';
import { EventPageView } from '../views/event.view';
import { EventsQueryDto } from './dto/events.dto';

/** INTERFACES.md "Webhooks and MCP": crm:read, no plan. */
@ApiTags('v1: events')
@Controller('v1/events')
export class EventsController {
  constructor(private readonly events: EventsQueries) {}

  @Get()
  @ApiOperation({
    summary: 'List events',
    description:
      'The organization’s change log, ascending by `sequence`: per organization, gap-free and in commit ' +
      'order, so polling with `after` = the previous `nextAfter` never misses a change, even one whose write ' +
      'started earlier. Each event carries the record as `/v1` answers it, its `recordVersion` (drop an event ' +
      'older than the version you hold), and for updates `changedFields` and their `previous` values. An ' +
      'admin reads every event; a member only events of the leads they are assigned to now (so `sequence` ' +
      'has gaps for them, and events on no lead are never theirs). Events are kept 30 days.',
  })
  @RequireScopes('crm:read')
  @ApiOkResponse({ type: EventPageView })
  @ApiBadRequestErrors(
    'VALIDATION_FAILED for `after` not a whole number ≥ 0, `limit` outside 1-500, or a `types` entry that is ' +
      'neither a catalogued type nor `<kind>.*`.',
    'EVENT_CURSOR_EXPIRED: `after` is below the last sequence the 30-day retention deleted ' +
      '(`details.purgedThrough`); start again with `after=0`.',
  )
  list(@CurrentPrincipal() actor: Principal, @Query() query: EventsQueryDto) {
    return this.events.list(actor, query.request());
  }
}
