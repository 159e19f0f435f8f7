import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { DomainError, preparedRows, Principal } from '@app/platform';
import { LeadAccess } from '@app/crm';
import { EventPageJson, toEventJson } from '../views/event.view';
import { eventPageStatement, EventPageRow } from './events.sql';

export interface EventsRequest {
  after: number;
  limit: number;
  /** The catalogued types selected (`types` parsed); null: every type. */
  types: string[] | null;
}

/**
 * `GET /v1/events` (issue 19 item 2). An admin reads every event of the organization; a member
 * only events whose lead they reach now (`LeadAccess`), so a lead taken off them takes its events
 * along, and events on no lead are never theirs.
 */
@Injectable()
export class EventsQueries {
  constructor(
    private readonly em: EntityManager,
    private readonly access: LeadAccess,
  ) {}

  async list(actor: Principal, request: EventsRequest): Promise<EventPageJson> {
    const scope = this.access.scope(actor);
    const rows = await preparedRows<EventPageRow>(
      this.em,
      eventPageStatement({
        organizationId: actor.organizationId,
        after: request.after,
        take: request.limit + 1,
        types: request.types,
        leadReach: scope.memberId === null ? null : this.access.sql(actor, 'l'),
      }),
    );
    const purgedThrough = Number(rows[0].purged_through);
    if (isExpired(request.after, purgedThrough)) {
      throw new DomainError(
        'EVENT_CURSOR_EXPIRED',
        'Events after this sequence are past the 30-day retention; start again with after=0.',
        { purgedThrough },
      );
    }
    const events = rows.filter((row) => row.id !== null).map(toEventJson);
    const data = events.slice(0, request.limit);
    return {
      data,
      hasMore: events.length > request.limit,
      nextAfter: data.length > 0 ? data[data.length - 1].sequence : request.after,
    };
  }
}

/**
 * A cursor is expired when the retention job deleted events it had not seen yet: `after` below
 * the organization's purge point (the highest sequence deleted). `after=0` means "from the
 * oldest event kept" and never expires.
 */
export const isExpired = (after: number, purgedThrough: number): boolean =>
  after > 0 && after < purgedThrough;
