import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiBadRequestErrors, ApiNotFoundError, CurrentPrincipal, Principal } from '@app/platform';
import { CalendarQueries } from '../application/calendar.queries';
import { FreeTimesQueries } from '../application/free-times.queries';
import { CalendarView } from '../views/calendar.view';
import { FreeTimesView } from '../views/free-times.view';
import { CrmRead } from './crm-access';
import { CalendarQueryDto, FreeTimesQueryDto } from './dto/calendar.dto';

@ApiTags('v1: calendar')
@Controller('v1/calendar')
export class CalendarController {
  constructor(
    private readonly calendar: CalendarQueries,
    private readonly freeTimes: FreeTimesQueries,
  ) {}

  @Get()
  @CrmRead()
  @ApiOperation({
    summary: "The key's person's calendar over a window",
    description:
      "Always the caller's own calendar over [`from` 00:00, `to` 00:00) in `tz`: tasks they created or " +
      'are on (`kind` `task`), meetings they created or attend (`meeting`, cancelled ones with ' +
      'their status) and what other contexts contribute, ordered by `startsAt`, at most 1,000 ' +
      '(`truncated` when more).',
  })
  @ApiOkResponse({ type: CalendarView })
  @ApiBadRequestErrors(
    'VALIDATION_FAILED also for a `from` or `to` that is no date, `to` not after `from` or more than 42 ' +
      'days after it, and a `tz` that is not a known IANA time zone.',
  )
  read(@CurrentPrincipal() actor: Principal, @Query() query: CalendarQueryDto) {
    return this.calendar.read(actor, query);
  }

  @Get('free-times')
  @CrmRead()
  @ApiOperation({
    summary: "The key's person's free slots of a length over a window",
    description:
      'Slots of `durationMinutes` over [`from` 00:00, `to` 00:00) in `tz` (at most 14 days), starting on ' +
      ':00 and :30 of `tz`, after now, each inside one working interval (the person’s own working hours ' +
      'in their zone, else 09:00-18:00 Monday to Friday in `tz`) and clear of their scheduled meetings; ' +
      'with `leadId`, clear of that lead’s meetings too. Tasks and expected deal closes never block. ' +
      'In UTC, earliest first.',
  })
  @ApiOkResponse({ type: FreeTimesView })
  @ApiBadRequestErrors(
    'VALIDATION_FAILED also for a `from` or `to` that is no date, `to` not after `from` or more than 14 ' +
      'days after it, a `tz` that is not a known IANA time zone, and `durationMinutes` outside 15-480.',
  )
  @ApiNotFoundError('Lead', "when `leadId` names a lead that is absent or out of the caller's reach")
  findFreeTimes(@CurrentPrincipal() actor: Principal, @Query() query: FreeTimesQueryDto) {
    return this.freeTimes.read(actor, query);
  }
}
