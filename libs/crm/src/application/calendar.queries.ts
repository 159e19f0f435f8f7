import { Injectable } from '@nestjs/common';
import { Clock, Principal } from '@app/platform';
import { CalendarSources } from '../extension-points/calendar-source';
import type { CalendarItemJson, CalendarJson } from '../views/calendar.view';
import { calendarWindow } from './calendar-window';

/** INTERFACES.md: at most 1,000 items, `truncated` when more. */
export const CALENDAR_CAP = 1000;

const byStart = (a: CalendarItemJson, b: CalendarItemJson) =>
  a.startsAt.localeCompare(b.startsAt) || a.kind.localeCompare(b.kind) || a.eventId.localeCompare(b.eventId);

/** The caller's own calendar: the items of every discovered `CalendarSource`, merged by `startsAt`. */
@Injectable()
export class CalendarQueries {
  constructor(
    private readonly sources: CalendarSources,
    private readonly clock: Clock,
  ) {}

  async read(actor: Principal, query: { from: string; to: string; tz: string }): Promise<CalendarJson> {
    const window = calendarWindow(query);
    const request = {
      ...window,
      organizationId: actor.organizationId,
      userId: actor.userId,
      now: this.clock.now(),
      limit: CALENDAR_CAP + 1, // each source's first 1,001 hold the merged first 1,001
    };
    const lists = await Promise.all(this.sources.all().map((source) => source.items(request)));
    const items = lists.flat().sort(byStart);
    return {
      window: { from: window.from, to: window.to, tz: window.tz },
      truncated: items.length > CALENDAR_CAP,
      items: items.slice(0, CALENDAR_CAP),
    };
  }
}
