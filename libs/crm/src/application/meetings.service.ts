import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { Clock, forbidden, isAdmin, notFound, Principal, validationFailed } from '@app/platform';
import { MembersService } from '@app/identity';
import { Meeting, MeetingStatus } from '../domain/meeting.entity';
import { MeetingRepository } from '../domain/meeting.repository';
import { MeetingJson, toMeetingJson } from '../views/meeting.view';
import { parseInstant } from './due-date';
import { LeadAccess } from './lead-access';

export interface CreateMeeting {
  title: string;
  startsAt: string;
  endsAt: string;
  leadId?: number | null;
  attendeeUserIds?: string[];
}

export interface ChangeMeeting {
  title?: string;
  startsAt?: string;
  endsAt?: string;
  leadId?: number | null;
  attendeeUserIds?: string[];
  status?: MeetingStatus;
}

/** Meetings on the dashboard's calendar (session routes, the signed-in person). */
@Injectable()
export class MeetingsService {
  constructor(
    private readonly em: EntityManager,
    private readonly meetings: MeetingRepository,
    private readonly access: LeadAccess,
    private readonly members: MembersService,
    private readonly clock: Clock,
  ) {}

  /** The creator is the caller; a lead must be one they reach (404), attendees people of the agency (400). */
  async create(actor: Principal, input: CreateMeeting): Promise<MeetingJson> {
    const startsAt = parseInstant(input.startsAt, 'startsAt');
    const endsAt = parseInstant(input.endsAt, 'endsAt');
    if (input.leadId != null) await this.access.reachableLead(actor, input.leadId);
    if (input.attendeeUserIds) await this.checkAttendees(actor, input.attendeeUserIds);
    const meeting = new Meeting(
      {
        organizationId: actor.organizationId,
        createdBy: actor.userId,
        title: input.title,
        startsAt,
        endsAt,
        leadId: input.leadId ?? null,
        attendeeUserIds: input.attendeeUserIds,
      },
      this.clock.now(),
    );
    await this.em.persist(meeting).flush();
    return toMeetingJson(meeting);
  }

  /** Its creator or an admin; `leadId: null` clears the lead. */
  async change(actor: Principal, meetingId: string, changes: ChangeMeeting): Promise<MeetingJson> {
    const meeting = await this.manageableMeeting(actor, meetingId);
    const startsAt = changes.startsAt === undefined ? undefined : parseInstant(changes.startsAt, 'startsAt');
    const endsAt = changes.endsAt === undefined ? undefined : parseInstant(changes.endsAt, 'endsAt');
    if (changes.leadId != null && changes.leadId !== meeting.leadId) {
      await this.access.reachableLead(actor, changes.leadId);
    }
    if (changes.attendeeUserIds) await this.checkAttendees(actor, changes.attendeeUserIds);
    meeting.change(
      {
        title: changes.title,
        startsAt,
        endsAt,
        leadId: changes.leadId,
        attendeeUserIds: changes.attendeeUserIds,
        status: changes.status,
      },
      this.clock.now(),
    );
    await this.em.flush();
    return toMeetingJson(meeting);
  }

  async delete(actor: Principal, meetingId: string): Promise<void> {
    const meeting = await this.manageableMeeting(actor, meetingId);
    await this.em.remove(meeting).flush();
  }

  /**
   * 404 `Meeting not found.` unless it is on the caller's calendar (they created or attend it) or
   * they are an admin of its agency; 403 for an attendee who did not create it.
   */
  private async manageableMeeting(actor: Principal, meetingId: string): Promise<Meeting> {
    const meeting = await this.meetings.findInOrg(actor.organizationId, { id: meetingId });
    const admin = isAdmin(actor);
    if (!meeting || (!admin && !meeting.isOnCalendarOf(actor.userId))) throw notFound('Meeting');
    if (!meeting.isManageableBy(actor.userId, admin)) {
      throw forbidden("Only the meeting's creator or an admin can change it.");
    }
    return meeting;
  }

  private async checkAttendees(actor: Principal, userIds: string[]): Promise<void> {
    const known = await this.members.existingMemberIds(actor.organizationId, userIds);
    const issues = userIds.flatMap((id, i) =>
      known.has(id)
        ? []
        : [{ path: `attendeeUserIds.${i}`, message: 'is not a member of this organization' }],
    );
    if (issues.length > 0) throw validationFailed(issues);
  }
}
