import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { Principal, validationFailed } from '@app/platform';
import type { Statement } from '../domain/lead-reach';
import { LeadSyncEntryJson, LeadSyncRow, toLeadSyncEntryJson } from '../views/lead.view';
import { NoteSyncEntryJson, NoteSyncRow, toNoteSyncEntryJson } from '../views/note.view';
import type { SyncPageJson } from '../views/sync.view';
import { TaskSyncEntryJson, TaskSyncRow, toTaskSyncEntryJson } from '../views/task.view';
import { LeadAccess } from './lead-access';
import { decodeCursor, encodeCursor, startOf, SyncList, SyncPosition, toMillis } from './sync-cursor';
import {
  leadSyncStatement,
  noteSyncStatement,
  syncHorizonStatement,
  SyncWindow,
  taskSyncStatement,
} from './sync.sql';

/** A sync call: `cursor` continues (then `updatedSince` is not read), else `updatedSince` starts. */
export interface SyncRequest {
  updatedSince?: string;
  cursor?: string;
  limit: number;
}

interface PositionedRow {
  position: string;
  entry_id: string | number;
}

/**
 * Sync by cursor on leads, tasks and a lead's notes (INTERFACES.md "Reads and sync"): each list's
 * own visibility rule, `(updatedAt, id)` keyset paging, removals merged in the same order, and
 * nothing at or after the horizon (sync.sql.ts), so no row committed later can land behind a
 * cursor already handed out.
 */
@Injectable()
export class SyncQueries {
  constructor(
    private readonly em: EntityManager,
    private readonly access: LeadAccess,
  ) {}

  /** The leads the caller reaches; for a member, also the leads they were taken off. */
  async leads(actor: Principal, request: SyncRequest): Promise<SyncPageJson<LeadSyncEntryJson>> {
    const scope = this.access.scope(actor);
    const list: SyncList = { kind: 'leads', reach: scope.memberId === null ? 'agency' : 'own' };
    return this.page<LeadSyncRow, LeadSyncEntryJson>(
      list,
      request,
      (window) => leadSyncStatement(scope, window),
      toLeadSyncEntryJson,
    );
  }

  /** The tasks the caller created or is on (admins too, as the list without `leadId`). */
  async tasks(actor: Principal, request: SyncRequest): Promise<SyncPageJson<TaskSyncEntryJson>> {
    return this.page<TaskSyncRow, TaskSyncEntryJson>(
      { kind: 'tasks' },
      request,
      (window) => taskSyncStatement(actor.organizationId, actor.userId, window),
      toTaskSyncEntryJson,
    );
  }

  /** A lead's notes; 404 `Lead not found.` when the caller does not reach the lead. */
  async notes(
    actor: Principal,
    leadId: number,
    request: SyncRequest,
  ): Promise<SyncPageJson<NoteSyncEntryJson>> {
    const list: SyncList = { kind: 'notes', leadId };
    const from = this.startOf(list, request); // a bad cursor is a 400 before the lead is looked up
    await this.access.reachableLead(actor, leadId);
    return this.page<NoteSyncRow, NoteSyncEntryJson>(
      list,
      request,
      (window) => noteSyncStatement(actor.organizationId, leadId, window),
      toNoteSyncEntryJson,
      from,
    );
  }

  private async page<Row extends PositionedRow, Entry>(
    list: SyncList,
    request: SyncRequest,
    statement: (window: SyncWindow) => Statement,
    toEntry: (row: Row, updatedAt: string) => Entry,
    from = this.startOf(list, request),
  ): Promise<SyncPageJson<Entry>> {
    // the horizon first, in its own statement: the page's snapshot must be taken after it (sync.sql.ts)
    const [{ horizon }] = await this.run<{ horizon: string }>(syncHorizonStatement());
    const rows = await this.run<Row>(statement({ from, horizon, rows: request.limit + 1 }));
    const page = rows.slice(0, request.limit);
    const last = page[page.length - 1] as Row | undefined;
    return {
      data: page.map((row) => toEntry(row, toMillis(row.position))),
      hasMore: rows.length > request.limit,
      nextCursor: last
        ? encodeCursor(list, { at: last.position, id: String(last.entry_id) })
        : (request.cursor ?? encodeCursor(list, from)),
    };
  }

  /** Where this call starts: the cursor's position, else `updatedSince` (400 VALIDATION_FAILED otherwise). */
  private startOf(list: SyncList, request: SyncRequest): SyncPosition {
    if (request.cursor !== undefined) {
      const decoded = decodeCursor(list, request.cursor);
      if ('problem' in decoded) throw validationFailed([{ path: 'cursor', message: decoded.problem }]);
      return decoded.position;
    }
    const start = request.updatedSince === undefined ? null : startOf(list, request.updatedSince);
    if (!start) {
      throw validationFailed([
        { path: 'updatedSince', message: 'updatedSince must be an ISO 8601 date-time with Z or an offset' },
      ]);
    }
    return start;
  }

  private run<T>(statement: Statement): Promise<T[]> {
    return this.em.execute<T[]>(statement.sql, statement.params);
  }
}
