import { BusyRequest, BusySource, BusySourceProvider, BusyTime } from '../extension-points/busy-source';
import { CalendarRequest, CalendarSource, CalendarSourceProvider } from '../extension-points/calendar-source';
import type { Meeting } from '../domain/meeting.entity';
import { MeetingRepository } from '../domain/meeting.repository';
import type { CalendarItemJson } from '../views/calendar.view';

/**
 * Meetings the person created or attends, on the calendar (`kind` `meeting`, cancelled ones too,
 * with their status) and as busy times for free-times (scheduled ones only; with a lead, every
 * scheduled meeting about it).
 */
@CalendarSourceProvider()
@BusySourceProvider()
export class MeetingsCalendarSource implements CalendarSource, BusySource {
  readonly kinds = ['meeting'] as const;
  readonly busyName = 'meetings';

  constructor(private readonly meetings: MeetingRepository) {}

  async items(request: CalendarRequest): Promise<CalendarItemJson[]> {
    const meetings = await this.meetings.listOnCalendarOf(
      request.organizationId,
      request.userId,
      { startsAt: request.startsAt, endsAt: request.endsAt },
      request.limit,
    );
    return meetings.map(meetingItem);
  }

  busyTimes(request: BusyRequest): Promise<BusyTime[]> {
    return this.meetings.busyTimes(request.organizationId, request.userId, request.leadId, request);
  }
}

function meetingItem(meeting: Meeting): CalendarItemJson {
  return {
    kind: 'meeting',
    title: meeting.title,
    startsAt: meeting.startsAt.toISOString(),
    endsAt: meeting.endsAt.toISOString(),
    allDay: false,
    status: meeting.status,
    leadId: meeting.leadId === null ? null : Number(meeting.leadId),
    eventId: meeting.id,
    attendeeCount: meeting.attendeeCount(),
    // task flags
    done: false,
    overdue: false,
  };
}
