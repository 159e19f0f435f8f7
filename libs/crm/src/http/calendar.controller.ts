import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiBadRequestErrors, CurrentPrincipal, Principal } from '@app/platform';
import { CalendarQueries } from '../application/calendar.queries';
import { CalendarView } from '../views/calendar.view';
import { CrmRead } from './crm-access';
import { CalendarQueryDto } from './dto/calendar.dto';

@ApiTags('v1: calendar')
@Controller('v1/calendar')
export class CalendarController {
  constructor(private readonly calendar: CalendarQueries) {}

  @Get()
  @CrmRead()
  @ApiOperation({
    summary: "The key's person's calendar over a window",
    description:
      "Always the caller's own calendar over [`from` 00:00, `to` 00:00) in `tz`: tasks they created or " +
      'are on (`kind` `task`), ordered by `startsAt`, at most 1,000 (`truncated` when more).',
  })
  @ApiOkResponse({ type: CalendarView })
  @ApiBadRequestErrors(
    'VALIDATION_FAILED also for a `from` or `to` that is no date, `to` not after `from` or more than 42 ' +
      'days after it, and a `tz` that is not a known IANA time zone.',
  )
  read(@CurrentPrincipal() actor: Principal, @Query() query: CalendarQueryDto) {
    return this.calendar.read(actor, query);
  }
}
