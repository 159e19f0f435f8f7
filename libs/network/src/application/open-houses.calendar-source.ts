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
import { hostedOpenHousesStatement } from './open-houses.sql';

/**
 * The scheduled open houses a person hosts, on their calendar (`kind` `open_house`) and as busy
 * times for their free-times (INTERFACES.md "Calendar").
 */
@CalendarSourceProvider()
@BusySourceProvider()
export class OpenHousesCalendarSource implements CalendarSource, BusySource {
  readonly kinds = ['open_house'] as const;
  readonly busyName = 'open houses';

  constructor(private readonly em: EntityManager) {}

  async items(request: CalendarRequest): Promise<CalendarItemJson[]> {
    const rows = await this.hosted(request.organizationId, request.userId, request, request.limit);
    return rows.map((row) => ({
      kind: 'open_house',
      title: 'Open house',
      startsAt: new Date(row.starts_at).toISOString(),
      endsAt: new Date(row.ends_at).toISOString(),
      allDay: false,
      status: row.status,
      leadId: null,
      eventId: row.id,
      attendeeCount: null,
      done: false,
      overdue: false,
    }));
  }

  async busyTimes(request: BusyRequest): Promise<BusyTime[]> {
    const rows = await this.hosted(request.organizationId, request.userId, request, 1_000);
    return rows.map((row) => ({ startsAt: new Date(row.starts_at), endsAt: new Date(row.ends_at) }));
  }

  private hosted(
    organizationId: string,
    userId: string,
    window: { startsAt: Date; endsAt: Date },
    limit: number,
  ) {
    return preparedRows<{ id: string; status: string; starts_at: Date | string; ends_at: Date | string }>(
      this.em,
      hostedOpenHousesStatement(organizationId, userId, window, limit),
    );
  }
}
