import { ArrayType, BigIntType, Entity, EntityRepositoryType, PrimaryKey, Property } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';
import { HOUR, validationFailed } from '@app/platform/core';
import { MeetingRepository } from './meeting.repository';

export const MEETING_STATUSES = ['scheduled', 'cancelled'] as const;
export type MeetingStatus = (typeof MEETING_STATUSES)[number];

/** INTERFACES.md: a meeting ends after it starts, at most 24 hours later. */
export const MEETING_MAX_MS = 24 * HOUR;

function checkTimes(startsAt: Date, endsAt: Date): void {
  if (endsAt.getTime() <= startsAt.getTime()) {
    throw validationFailed([{ path: 'endsAt', message: 'endsAt must be after startsAt' }]);
  }
  if (endsAt.getTime() - startsAt.getTime() > MEETING_MAX_MS) {
    throw validationFailed([{ path: 'endsAt', message: 'endsAt must be at most 24 hours after startsAt' }]);
  }
}

export interface MeetingChanges {
  title?: string;
  startsAt?: Date;
  endsAt?: Date;
  leadId?: number | null;
  attendeeUserIds?: string[];
  status?: MeetingStatus;
}

/** A meeting on the calendar of its creator and its attendees, optionally about a lead. */
@Entity({ tableName: 'meetings', repository: () => MeetingRepository })
export class Meeting {
  [EntityRepositoryType]?: MeetingRepository;

  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  @Property({ type: 'uuid' })
  organizationId: string;

  @Property({ type: 'uuid' })
  createdBy: string;

  @Property({ type: 'text' })
  title: string;

  @Property({ type: 'datetime' })
  startsAt: Date;

  @Property({ type: 'datetime' })
  endsAt: Date;

  @Property({ type: new BigIntType('number'), nullable: true })
  leadId: number | null = null;

  @Property({ type: ArrayType })
  attendeeUserIds: string[] = [];

  @Property({ type: 'text' })
  status: MeetingStatus = 'scheduled';

  @Property({ type: 'datetime' })
  createdAt: Date;

  @Property({ type: 'datetime' })
  updatedAt: Date;

  constructor(
    props: {
      organizationId: string;
      createdBy: string;
      title: string;
      startsAt: Date;
      endsAt: Date;
      leadId?: number | null;
      attendeeUserIds?: string[];
    },
    now: Date,
  ) {
    checkTimes(props.startsAt, props.endsAt);
    this.organizationId = props.organizationId;
    this.createdBy = props.createdBy;
    this.title = props.title;
    this.startsAt = props.startsAt;
    this.endsAt = props.endsAt;
    this.leadId = props.leadId ?? null;
    this.attendeeUserIds = [...new Set(props.attendeeUserIds ?? [])];
    this.createdAt = now;
    this.updatedAt = now;
  }

  /** On the person's calendar: they created it or attend it. */
  isOnCalendarOf(userId: string): boolean {
    return this.createdBy === userId || this.attendeeUserIds.includes(userId);
  }

  /** INTERFACES.md: its creator or an admin changes or deletes it. */
  isManageableBy(userId: string, admin: boolean): boolean {
    return admin || this.createdBy === userId;
  }

  /** People attending: the creator and the attendees, each once. */
  attendeeCount(): number {
    return new Set([this.createdBy, ...this.attendeeUserIds]).size;
  }

  /** Any create field, and `status` (`cancelled` cancels, `scheduled` restores); times checked together. */
  change(changes: MeetingChanges, now: Date): void {
    const startsAt = changes.startsAt ?? this.startsAt;
    const endsAt = changes.endsAt ?? this.endsAt;
    if (changes.startsAt !== undefined || changes.endsAt !== undefined) checkTimes(startsAt, endsAt);
    this.startsAt = startsAt;
    this.endsAt = endsAt;
    if (changes.title !== undefined) this.title = changes.title;
    if (changes.leadId !== undefined) this.leadId = changes.leadId;
    if (changes.attendeeUserIds !== undefined) this.attendeeUserIds = [...new Set(changes.attendeeUserIds)];
    if (changes.status !== undefined) this.status = changes.status;
    this.updatedAt = now;
  }
}
