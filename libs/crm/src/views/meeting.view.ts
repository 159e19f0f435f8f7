import { ApiProperty } from '@nestjs/swagger';
import { type Meeting, MEETING_STATUSES, type MeetingStatus } from '../domain/meeting.entity';

/** A meeting (INTERFACES.md "Calendar": `POST /calendar/meetings`). */
export interface MeetingJson {
  id: string;
  title: string;
  startsAt: string;
  endsAt: string;
  leadId: number | null;
  attendeeUserIds: string[];
  status: MeetingStatus;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

export const toMeetingJson = (meeting: Meeting): MeetingJson => ({
  id: meeting.id,
  title: meeting.title,
  startsAt: meeting.startsAt.toISOString(),
  endsAt: meeting.endsAt.toISOString(),
  leadId: meeting.leadId === null ? null : Number(meeting.leadId),
  attendeeUserIds: meeting.attendeeUserIds,
  status: meeting.status,
  createdBy: meeting.createdBy,
  createdAt: meeting.createdAt.toISOString(),
  updatedAt: meeting.updatedAt.toISOString(),
});

/** A meeting: on the calendar of its creator and its attendees. */
export class MeetingView implements MeetingJson {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ minLength: 1, maxLength: 200 }) title: string;
  @ApiProperty({ format: 'date-time', description: 'UTC.' }) startsAt: string;
  @ApiProperty({ format: 'date-time', description: 'UTC; after `startsAt`, at most 24 h later.' })
  endsAt: string;

  @ApiProperty({ type: 'integer', nullable: true, description: 'The lead it is about, if any.' })
  leadId: number | null;

  @ApiProperty({ type: [String], description: 'User ids of the people invited (the creator aside).' })
  attendeeUserIds: string[];

  @ApiProperty({ enum: MEETING_STATUSES, description: '`cancelled` meetings never block free times.' })
  status: MeetingStatus;

  @ApiProperty({ format: 'uuid', description: 'User id of its creator.' }) createdBy: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}
