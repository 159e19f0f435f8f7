import { EntityManager } from '@mikro-orm/postgresql';
import {
  BusyRequest,
  BusySource,
  BusySourceProvider,
  BusyTime,
  CalendarItemJson,
  CalendarRequest,
  CalendarSource,
  CalendarSourceProvider,
} from '@app/crm';
import { preparedRows } from '@app/platform';
import { VIEWING_DURATION_MS } from '../domain/viewing';
import { agentViewingsStatement, busyViewingsStatement } from './viewings.sql';

/**
 * Scheduled viewings where the person is the agent, on their calendar (`kind` `viewing`, an hour
 * from `viewingAt`), and as busy times for free-times (with a lead, that lead's viewings too).
 */
@CalendarSourceProvider()
@BusySourceProvider()
export class ViewingsCalendarSource implements CalendarSource, BusySource {
  readonly kinds = ['viewing'] as const;
  readonly busyName = 'viewings';

  constructor(private readonly em: EntityManager) {}

  async items(request: CalendarRequest): Promise<CalendarItemJson[]> {
    const rows = await preparedRows<{
      id: string;
      lead_id: string;
      status: string;
      viewing_at: Date | string;
    }>(this.em, agentViewingsStatement(request.organizationId, request.userId, request, request.limit));
    return rows.map((row) => ({
      kind: 'viewing',
      title: 'Viewing',
      startsAt: new Date(row.viewing_at).toISOString(),
      endsAt: new Date(new Date(row.viewing_at).getTime() + VIEWING_DURATION_MS).toISOString(),
      allDay: false,
      status: row.status,
      leadId: Number(row.lead_id),
      eventId: row.id,
      attendeeCount: null,
      done: false,
      overdue: false,
    }));
  }

  async busyTimes(request: BusyRequest): Promise<BusyTime[]> {
    const rows = await preparedRows<{ viewing_at: Date | string }>(
      this.em,
      busyViewingsStatement(request.organizationId, request.userId, request.leadId, request),
    );
    return rows.map((row) => {
      const startsAt = new Date(row.viewing_at);
      return { startsAt, endsAt: new Date(startsAt.getTime() + VIEWING_DURATION_MS) };
    });
  }
}
