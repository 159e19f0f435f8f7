import { TenantRepository } from '@app/platform/core';
import { type Meeting, MEETING_MAX_MS } from './meeting.entity';

/** Instants `[startsAt, endsAt)`. */
export interface TimeRange {
  startsAt: Date;
  endsAt: Date;
}

export class MeetingRepository extends TenantRepository<Meeting> {
  /**
   * The agency's meetings `personId` created or attends that overlap `range`, earliest first.
   * A meeting lasts at most 24 h, so only those starting in the 24 h before the range can reach
   * into it: that bound keeps the lookup on the `starts_at` indexes.
   */
  listOnCalendarOf(organizationId: string, personId: string, range: TimeRange, limit: number) {
    return this.createQueryBuilder('m')
      .where({ organizationId })
      .andWhere('(m.created_by = ? or m.attendee_user_ids @> array[?]::uuid[])', [personId, personId])
      .andWhere('m.starts_at > ? and m.starts_at < ? and m.ends_at > ?', [
        new Date(range.startsAt.getTime() - MEETING_MAX_MS),
        range.endsAt,
        range.startsAt,
      ])
      .orderBy({ startsAt: 'asc', id: 'asc' })
      .limit(limit)
      .getResult();
  }

  /**
   * When `personId` is busy in `range`: their scheduled (not cancelled) meetings, and with
   * `leadId` every scheduled meeting about that lead.
   */
  async busyTimes(
    organizationId: string,
    personId: string,
    leadId: number | null,
    range: TimeRange,
  ): Promise<TimeRange[]> {
    const whose =
      leadId === null
        ? {
            sql: '(m.created_by = ? or m.attendee_user_ids @> array[?]::uuid[])',
            params: [personId, personId],
          }
        : {
            sql: '(m.created_by = ? or m.attendee_user_ids @> array[?]::uuid[] or m.lead_id = ?)',
            params: [personId, personId, leadId],
          };
    const rows = await this.createQueryBuilder('m')
      .select(['startsAt', 'endsAt'])
      .where({ organizationId, status: 'scheduled' })
      .andWhere(whose.sql, whose.params)
      .andWhere('m.starts_at > ? and m.starts_at < ? and m.ends_at > ?', [
        new Date(range.startsAt.getTime() - MEETING_MAX_MS),
        range.endsAt,
        range.startsAt,
      ])
      .execute<{ startsAt: Date | string; endsAt: Date | string }[]>('all');
    return rows.map((m) => ({ startsAt: new Date(m.startsAt), endsAt: new Date(m.endsAt) }));
  }
}
