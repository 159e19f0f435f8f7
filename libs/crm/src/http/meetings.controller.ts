import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Res, Type } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Response } from 'express';
import {
  ApiBadRequestErrors,
  ApiForbiddenError,
  ApiJsonBodyErrors,
  ApiNoBodyError,
  ApiNotFoundError,
  CurrentPrincipal,
  NullableBody,
  Principal,
  Session,
  UuidParam,
} from '@app/platform';
import { MeetingsService } from '../application/meetings.service';
import { WorkingHoursService } from '../application/working-hours.service';
import { MeetingView } from '../views/meeting.view';
import { WorkingHoursView } from '../views/working-hours.view';
import { ChangeMeetingDto, CreateMeetingDto, WorkingHoursDto } from './dto/meeting.dto';

const CREATOR_OR_ADMIN = "FORBIDDEN: `Only the meeting's creator or an admin can change it.` (an attendee)";
const MEETING_NOT_FOUND = 'when it is absent, of another agency, or neither created nor attended by a member';
const PEOPLE_CHECKED =
  'VALIDATION_FAILED also for `endsAt` not after `startsAt` or more than 24 h later, and for ' +
  '`attendeeUserIds` naming someone who is not a member of the agency.';

@ApiTags('dashboard: calendar')
@Controller('calendar/meetings')
export class MeetingsController {
  constructor(private readonly meetings: MeetingsService) {}

  @Post()
  @ApiOperation({
    summary: 'Put a meeting on the calendar',
    description:
      'The signed-in person creates it; it shows on their calendar and their attendees’ (`kind` ' +
      '`meeting`) and blocks their free times while scheduled.',
  })
  @Session()
  @ApiCreatedResponse({ type: MeetingView })
  @ApiJsonBodyErrors(PEOPLE_CHECKED)
  @ApiNotFoundError('Lead', "when `leadId` names a lead that is absent or out of the caller's reach")
  create(@CurrentPrincipal() actor: Principal, @Body() body: CreateMeetingDto) {
    return this.meetings.create(actor, body);
  }

  @Patch(':meetingId')
  @ApiOperation({
    summary: 'Change or cancel a meeting',
    description: 'Its creator or an admin; any create field, and `status` `cancelled` to cancel it.',
  })
  @Session()
  @ApiOkResponse({ type: MeetingView })
  @ApiJsonBodyErrors(PEOPLE_CHECKED)
  @ApiForbiddenError(CREATOR_OR_ADMIN)
  @ApiNotFoundError('Meeting', MEETING_NOT_FOUND)
  @ApiNotFoundError('Lead', "when `leadId` names a lead that is absent or out of the caller's reach")
  change(
    @CurrentPrincipal() actor: Principal,
    @Param('meetingId', UuidParam) meetingId: string,
    @Body() body: ChangeMeetingDto,
  ) {
    return this.meetings.change(actor, meetingId, body);
  }

  @Delete(':meetingId')
  @ApiOperation({ summary: 'Delete a meeting', description: 'Its creator or an admin.' })
  @HttpCode(204)
  @Session()
  @ApiNoContentResponse({ description: 'The meeting is gone from every calendar.' })
  @ApiBadRequestErrors()
  @ApiForbiddenError(CREATOR_OR_ADMIN)
  @ApiNotFoundError('Meeting', MEETING_NOT_FOUND)
  async delete(@CurrentPrincipal() actor: Principal, @Param('meetingId', UuidParam) meetingId: string) {
    await this.meetings.delete(actor, meetingId);
  }
}

/** OpenAPI 3.0: `null` or the object (`nullable` applies next to a `type`). */
const nullableObject = (model: Type) => ({
  type: 'object' as const,
  nullable: true,
  allOf: [{ $ref: getSchemaPath(model) }],
});
const NULLABLE_HOURS = nullableObject(WorkingHoursView);

/** JSON `null` itself (Nest would answer a returned null with an empty body). */
const sendJson = (res: Response, body: unknown) => res.status(200).json(body);

@ApiTags('dashboard: calendar')
@ApiExtraModels(WorkingHoursView, WorkingHoursDto)
@Controller('calendar/working-hours')
export class WorkingHoursController {
  constructor(private readonly hours: WorkingHoursService) {}

  @Get()
  @ApiOperation({
    summary: 'Read your working hours',
    description: 'The signed-in person’s own; `null` when they set none (free times then use the default).',
  })
  @Session()
  @ApiOkResponse({ schema: NULLABLE_HOURS, description: 'Their working hours, or `null`.' })
  @ApiNoBodyError()
  async get(@CurrentPrincipal() actor: Principal, @Res() res: Response) {
    sendJson(res, await this.hours.get(actor));
  }

  @Put()
  @ApiOperation({
    summary: 'Set your working hours',
    description:
      'Replaces the signed-in person’s working hours (`from` before `to`, at most 14 entries, entries ' +
      'of one day not overlapping, `zone` a known IANA zone). The body `null` returns to the default: ' +
      '09:00-18:00 Monday to Friday in the zone free times are asked in.',
  })
  @Session()
  @ApiBody({
    schema: nullableObject(WorkingHoursDto),
    description: 'The working hours, or `null`.',
  })
  @ApiOkResponse({ schema: NULLABLE_HOURS, description: 'The working hours as stored, or `null`.' })
  @ApiJsonBodyErrors(
    'VALIDATION_FAILED also for a `to` not after its `from`, overlapping entries of one day and an unknown `zone`.',
  )
  async put(
    @CurrentPrincipal() actor: Principal,
    @Body(NullableBody(WorkingHoursDto)) body: WorkingHoursDto | null,
    @Res() res: Response,
  ) {
    sendJson(res, await this.hours.put(actor, body));
  }
}
