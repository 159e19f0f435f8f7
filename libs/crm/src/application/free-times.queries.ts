import { Injectable } from '@nestjs/common';
import { Clock, Principal } from '@app/platform';
import { defaultWorkingHours, freeSlots, Span, workingSpans } from '../domain/free-slots';
import { BusySources } from '../extension-points/busy-source';
import type { FreeTimesJson } from '../views/free-times.view';
import { calendarWindow } from './calendar-window';
import { LeadAccess } from './lead-access';
import { WorkingHoursService } from './working-hours.service';

/** INTERFACES.md: a free-times window of at most 14 days. */
export const FREE_TIMES_MAX_DAYS = 14;

export interface FreeTimesQuery {
  from: string;
  to: string;
  tz: string;
  durationMinutes: number;
  leadId?: number;
}

const iso = (at: number) => new Date(at).toISOString();

/**
 * The caller's free slots: inside their working hours (their own, in their zone, or 09:00-18:00
 * Monday to Friday in `tz`), after now, clear of every `BusySource`'s busy times.
 */
@Injectable()
export class FreeTimesQueries {
  constructor(
    private readonly busy: BusySources,
    private readonly workingHours: WorkingHoursService,
    private readonly access: LeadAccess,
    private readonly clock: Clock,
  ) {}

  async read(actor: Principal, query: FreeTimesQuery): Promise<FreeTimesJson> {
    const window = calendarWindow(query, FREE_TIMES_MAX_DAYS);
    const leadId = query.leadId ?? null;
    if (leadId !== null) await this.access.reachableLead(actor, leadId);
    const request = {
      organizationId: actor.organizationId,
      userId: actor.userId,
      leadId,
      startsAt: window.startsAt,
      endsAt: window.endsAt,
    };
    const [rule, busy] = await Promise.all([
      this.workingHours.ruleOf(actor),
      Promise.all(this.busy.all().map((source) => source.busyTimes(request))),
    ]);
    const span: Span = { start: window.startsAt.getTime(), end: window.endsAt.getTime() };
    const slots = freeSlots({
      window: span,
      tz: query.tz,
      durationMinutes: query.durationMinutes,
      working: workingSpans(rule ?? defaultWorkingHours(query.tz), span),
      busy: busy.flat().map((b) => ({ start: b.startsAt.getTime(), end: b.endsAt.getTime() })),
      now: this.clock.now().getTime(),
    });
    return {
      timeZone: query.tz,
      durationMinutes: query.durationMinutes,
      slots: slots.map((slot) => ({ startsAt: iso(slot.start), endsAt: iso(slot.end) })),
    };
  }
}
