import { CalendarRequest, CalendarSource, CalendarSourceProvider } from '../extension-points/calendar-source';
import type { Deal } from '../domain/deal.entity';
import { DealRepository } from '../domain/deal.repository';
import type { CalendarItemJson } from '../views/calendar.view';

const DAY_MS = 86_400_000;

/**
 * `deal_close`: the expected close of each open deal the person is on, all-day on the UTC date of
 * `expectedCloseAt` whatever `tz` (a date-only value is stored as that date's midnight UTC).
 * Won and lost deals never show.
 */
@CalendarSourceProvider()
export class DealsCalendarSource implements CalendarSource {
  readonly kinds = ['deal_close'] as const;

  constructor(private readonly deals: DealRepository) {}

  async items(request: CalendarRequest): Promise<CalendarItemJson[]> {
    const deals = await this.deals.listOpenClosingOn(
      request.organizationId,
      request.userId,
      { fromDay: new Date(`${request.from}T00:00:00.000Z`), toDay: new Date(`${request.to}T00:00:00.000Z`) },
      request.limit,
    );
    return deals.map((deal) => dealCloseItem(deal, request.now));
  }
}

function dealCloseItem(deal: Deal, now: Date): CalendarItemJson {
  const at = deal.expectedCloseAt!.getTime();
  const startsAt = at - (at % DAY_MS);
  return {
    kind: 'deal_close',
    title: deal.title,
    startsAt: new Date(startsAt).toISOString(),
    endsAt: new Date(startsAt + DAY_MS).toISOString(),
    allDay: true,
    status: deal.status,
    leadId: Number(deal.leadId),
    eventId: deal.id,
    attendeeCount: null,
    done: false,
    // still open once its expected close date has passed
    overdue: now.getTime() >= startsAt + DAY_MS,
  };
}
