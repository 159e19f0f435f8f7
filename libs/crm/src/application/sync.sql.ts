/**
 * The SQL of sync by cursor (INTERFACES.md "Reads and sync"), as pure functions beside the lead
 * list's (lead-list.sql.ts), so a baseline server can run the very same statements.
 *
 * Every list is keyset-paged on `(changed_at, id)` (the database's stamp of a row's last change,
 * answered as `updatedAt`; see the sync migration): the page's ids are picked from an index in
 * that order after the cursor's position (constant cost at any depth), merged with the removals
 * the caller must hear of in the same order (UNION ALL, one keyset), and only then are the row's
 * columns computed for those ids. Rows at or after the horizon are left for a later call.
 */

import { leadReachSql, LeadReachScope, Statement } from '../domain/lead-reach';
import { personsTasksSql } from '../domain/task-audience';
import { LEAD_COLUMNS } from './lead-list.sql';
import type { SyncPosition } from './sync-cursor';

/** What one sync call reads: after `from`, before `horizon`, at most `rows` rows (a page + 1). */
export interface SyncWindow {
  from: SyncPosition;
  horizon: string;
  rows: number;
}

/** A position's time as text to the microsecond (a JavaScript Date keeps milliseconds only). */
const positionOf = (column: string) =>
  `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * The horizon: no transaction still in progress can commit a row stamped before it. Every writer
 * stamps `changed_at` with its own start (the `stamp_changed_at` trigger), so it is the
 * earliest start among the other transactions of this database, or now when there is none.
 * Read in its own statement, before the page's: read in the page's statement, a writer that
 * commits between that statement's snapshot and its look at `pg_stat_activity` would be neither
 * seen nor waited for, and its rows would fall behind the cursor. Client backends only:
 * autovacuum and the like never write these tables.
 */
export function syncHorizonStatement(): Statement {
  return {
    sql: `select ${positionOf(
      `least(now(), (select min(a.xact_start) from pg_stat_activity a
                      where a.datname = current_database() and a.pid <> pg_backend_pid()
                        and a.backend_type = 'client backend' and a.xact_start is not null))`,
    )} as horizon`,
    params: [],
  };
}

/** `(<time>, <id>) > from and <time> < horizon`, on a table's own columns. */
function keyset(time: string, id: string, idType: 'bigint' | 'uuid', window: SyncWindow): Statement {
  return {
    sql: `(${time}, ${id}) > (?::timestamptz, ?::${idType}) and ${time} < ?::timestamptz`,
    params: [window.from.at, window.from.id, window.horizon],
  };
}

/** The page: the kept rows and the removals, merged in (time, id) order. */
function merged(live: Statement, removed: Statement | null, rows: number): Statement {
  if (!removed) {
    return {
      sql: `page as (select id, at, false as removed from (${live.sql}) live)`,
      params: live.params,
    };
  }
  return {
    sql: `page as (
            select id, at, false as removed from (${live.sql}) live
            union all
            select id, at, true from (${removed.sql}) gone
            order by at, id limit ?)`,
    params: [...live.params, ...removed.params, rows],
  };
}

/**
 * Leads the caller reaches (lead-reach.ts) changed after the position, as list rows plus their
 * position; for a member, merged with the leads they were taken off (`removed`).
 */
export function leadSyncStatement(scope: LeadReachScope, window: SyncWindow): Statement {
  const reach = leadReachSql('l', scope);
  const after = keyset('l.changed_at', 'l.id', 'bigint', window);
  const live: Statement = {
    sql: `select l.id, l.changed_at as at from leads l where ${reach.sql} and ${after.sql}
           order by l.changed_at, l.id limit ?`,
    params: [...reach.params, ...after.params, window.rows],
  };
  const lostAfter = keyset('x.lost_at', 'x.lead_id', 'bigint', window);
  const lost: Statement | null =
    scope.memberId === null
      ? null // an admin reaches every lead of the agency, and leads are never deleted
      : {
          sql: `select x.lead_id as id, x.lost_at as at from lead_reach_losses x
                 where x.organization_id = ? and x.user_id = ? and ${lostAfter.sql}
                 order by x.lost_at, x.lead_id limit ?`,
          params: [scope.organizationId, scope.memberId, ...lostAfter.params, window.rows],
        };
  const page = merged(live, lost, window.rows);
  return {
    sql: `with ${page.sql}
          select page.removed, ${positionOf('page.at')} as position, page.id as entry_id, ${LEAD_COLUMNS}
            from page left join leads l on l.id = page.id and not page.removed
           order by page.at, page.id`,
    params: page.params,
  };
}

/**
 * Tasks the person created or is on (the tasks list's rule without `leadId`, admins included)
 * changed after the position, merged with the tasks they stopped seeing or that were deleted.
 */
export function taskSyncStatement(organizationId: string, personId: string, window: SyncWindow): Statement {
  const after = keyset('t.changed_at', 't.id', 'uuid', window);
  const audience = personsTasksSql('t', personId);
  const gone = keyset('r.removed_at', 'r.task_id', 'uuid', window);
  const page = merged(
    {
      sql: `select t.id, t.changed_at as at from tasks t
             where t.organization_id = ? and ${audience.sql} and ${after.sql}
             order by t.changed_at, t.id limit ?`,
      params: [organizationId, ...audience.params, ...after.params, window.rows],
    },
    {
      sql: `select r.task_id as id, r.removed_at as at from task_removals r
             where r.organization_id = ? and r.user_id = ? and ${gone.sql}
             order by r.removed_at, r.task_id limit ?`,
      params: [organizationId, personId, ...gone.params, window.rows],
    },
    window.rows,
  );
  return {
    sql: `with ${page.sql}
          select page.removed, ${positionOf('page.at')} as position, page.id as entry_id,
                 t.lead_id, t.assignee_ids, t.created_by, t.title, t.description, t.due_date, t.status,
                 t.completed_at, t.created_at
            from page left join tasks t on t.id = page.id and not page.removed
           order by page.at, page.id`,
    params: page.params,
  };
}

/** A lead's notes changed after the position, merged with its notes deleted since. */
export function noteSyncStatement(organizationId: string, leadId: number, window: SyncWindow): Statement {
  const after = keyset('n.changed_at', 'n.id', 'uuid', window);
  const gone = keyset('d.deleted_at', 'd.note_id', 'uuid', window);
  const page = merged(
    {
      sql: `select n.id, n.changed_at as at from notes n
             where n.lead_id = ? and n.organization_id = ? and ${after.sql}
             order by n.changed_at, n.id limit ?`,
      params: [leadId, organizationId, ...after.params, window.rows],
    },
    {
      sql: `select d.note_id as id, d.deleted_at as at from note_deletions d
             where d.lead_id = ? and d.organization_id = ? and ${gone.sql}
             order by d.deleted_at, d.note_id limit ?`,
      params: [leadId, organizationId, ...gone.params, window.rows],
    },
    window.rows,
  );
  return {
    sql: `with ${page.sql}
          select page.removed, ${positionOf('page.at')} as position, page.id as entry_id,
                 n.lead_id, n.author_id, n.content, n.is_pinned, n.occurred_at, n.created_at
            from page left join notes n on n.id = page.id and not page.removed
           order by page.at, page.id`,
    params: page.params,
  };
}
