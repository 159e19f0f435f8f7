/**
 * The SQL of the event log (issue 19 item 2), as pure functions: `EventsQueries` runs it as
 * prepared statements and a benchmark can run the very same text.
 */
import type { Statement } from '@app/platform/core';
import type { EventPageRow } from '../views/event.view';

export type { EventPageRow };

export interface EventPageRequest {
  organizationId: string;
  after: number;
  /** Rows to pick: the page's limit + 1 (the extra one tells `hasMore`). */
  take: number;
  /** Only these types; null: every type. */
  types: string[] | null;
  /**
   * The caller's lead reach as a WHERE fragment on `leads l` (a member: their leads); null for an
   * admin, who reads every event of the organization, lead or not.
   */
  leadReach: Statement | null;
}

const EVENT_COLUMNS = `e.id, e.organization_id, e.sequence, e.type, e.occurred_at, e.subject_type, e.subject_id,
  e.lead_id, e.record_version, e.actor, e.data, e.changed_fields`;

/**
 * One page of an organization's events after `after`, ascending by sequence, and the
 * organization's purge point, in one statement (one snapshot: a purge running meanwhile is either
 * wholly seen or not at all). The page's sequences are picked first (the unique index
 * `(organization_id, sequence)`; for a member, per reachable lead through the partial index
 * `(organization_id, lead_id, sequence)`, so events of other leads are never scanned), then their
 * rows are read. Always at least one row: the purge point alone when the page is empty.
 */
export function eventPageStatement(request: EventPageRequest): Statement {
  const typeFilter = request.types ? ' and e.type = any(?::text[])' : '';
  const typeParams = request.types ? [request.types] : [];
  const params: unknown[] = [request.organizationId];
  let page: string;
  if (request.leadReach === null) {
    page = `select e.sequence from event e
             where e.organization_id = ? and e.sequence > ?${typeFilter}
             order by e.sequence limit ?`;
    params.push(request.organizationId, request.after, ...typeParams, request.take);
  } else {
    page = `select p.sequence from leads l
             cross join lateral (
               select e.sequence from event e
                where e.organization_id = l.organization_id and e.lead_id = l.id
                  and e.sequence > ?${typeFilter}
                order by e.sequence limit ?
             ) p
             where ${request.leadReach.sql}
             order by p.sequence limit ?`;
    params.push(request.after, ...typeParams, request.take, ...request.leadReach.params, request.take);
  }
  params.push(request.organizationId);
  return {
    sql: `with cut as (
            select coalesce((select k.purged_through from org_event_counter k where k.organization_id = ?), 0)
                   as purged_through
          ), page as (${page})
          select cut.purged_through, ${EVENT_COLUMNS}
            from cut
            left join (page join event e on e.organization_id = ? and e.sequence = page.sequence) on true
           order by e.sequence`,
    params,
  };
}

/** Organizations with events older than the cut-off, and the highest sequence among those (the new purge point). */
export const purgeTargetsStatement = (cutoff: Date, limit: number): Statement => ({
  sql: `select e.organization_id, max(e.sequence) as through
          from event e where e.occurred_at < ?
         group by e.organization_id
         order by e.organization_id
         limit ?`,
  params: [cutoff, limit],
});

/**
 * Deletes up to `batch` of the organization's oldest events with a sequence up to `through`, and
 * raises its purge point to the highest sequence deleted, in one statement. Deleting whole
 * sequence prefixes keeps the purge point exact: everything at or below it is gone, everything
 * above it is kept (an event's `occurred_at` is taken before its commit, so it is not quite in
 * sequence order).
 */
export const purgeBatchStatement = (organizationId: string, through: number, batch: number): Statement => ({
  sql: `with doomed as (
            select e.sequence from event e
             where e.organization_id = ? and e.sequence <= ?
             order by e.sequence limit ?
          ), gone as (
            delete from event e using doomed
             where e.organization_id = ? and e.sequence = doomed.sequence
            returning e.sequence
          ), raised as (
            update org_event_counter k set purged_through = greatest(k.purged_through, (select max(sequence) from gone))
             where k.organization_id = ? and exists (select 1 from gone)
            returning k.purged_through
          )
          select (select count(*) from gone)::int as deleted`,
  params: [organizationId, through, batch, organizationId, organizationId],
});
