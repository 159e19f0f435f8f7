import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { LeadAccess } from '@app/crm';
import { isAdmin, notFound, offsetResult, preparedRows, Principal, type OffsetResult } from '@app/platform';
import { toViewingJson, type ViewingJson, type ViewingRecord } from '../views/viewing.view';
import {
  viewingListStatement,
  viewingStatement,
  type ViewingListFilters,
  type ViewingReader,
} from './viewing-list.sql';

export interface ViewingListQuery extends ViewingListFilters {
  offset: number;
  limit: number;
}

/**
 * Reads of viewings on `/v1`: an admin sees every viewing of the agency, a member those whose lead
 * they reach (the CRM's `LeadAccess`) or where they are the agent.
 */
@Injectable()
export class ViewingsQueries {
  constructor(
    private readonly em: EntityManager,
    private readonly access: LeadAccess,
  ) {}

  /** Who reads, as the SQL takes it. */
  reader(actor: Principal): ViewingReader {
    return {
      organizationId: actor.organizationId,
      member: isAdmin(actor) ? null : { userId: actor.userId, leadReach: this.access.sql(actor, 'l') },
    };
  }

  async list(actor: Principal, query: ViewingListQuery): Promise<OffsetResult<ViewingJson>> {
    // the text varies with the filter set: pg's unnamed statement, planned with the values
    const rows = await preparedRows<ViewingRecord & { total: string }>(
      this.em,
      viewingListStatement(this.reader(actor), query, query.offset, query.limit),
      { prepare: false },
    );
    const data = rows.filter((row) => row.id !== null).map(toViewingJson);
    return offsetResult(data, query.offset, Number(rows[0]?.total ?? 0));
  }

  /** A viewing the caller sees, notes whole; else 404 `Viewing not found.` */
  async get(actor: Principal, viewingId: string): Promise<ViewingJson> {
    return toViewingJson(await this.record(this.em, actor, viewingId));
  }

  /** The row (locked inside a write's transaction with `lock`); 404 when the caller cannot see it. */
  async record(em: EntityManager, actor: Principal, viewingId: string, lock = false): Promise<ViewingRecord> {
    const [row] = await preparedRows<ViewingRecord>(
      em,
      viewingStatement(this.reader(actor), viewingId.toLowerCase(), lock),
      { prepare: false },
    );
    if (!row) throw notFound('Viewing');
    return row;
  }
}
