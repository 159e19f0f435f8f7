/**
 * `search:reindex` (issue 18 item 2): the organization's searchable records, a kind at a time in
 * pages by id, and the passages whose record is gone. Pure. The pages return the records' columns
 * only; `search-documents.ts` turns them into texts with the same rules the writes use.
 */
import type { SearchSourceKind } from '../extension-points/search-indexer';
import type { Statement } from '../domain/lead-reach';

/** Records per page (and per reindex transaction). */
export const SEARCH_PAGE_SIZE = 500;

/** Before every uuid: the first page's "after". */
const FIRST_ID = '00000000-0000-0000-0000-000000000000';

/** Each kind: its table, the columns its text and dates need, and which rows have a text at all. */
const SOURCES: Record<SearchSourceKind, { table: string; columns: string; where: string }> = {
  note: { table: 'notes', columns: 'r.content, r.occurred_at, r.created_at', where: '' },
  task: { table: 'tasks', columns: 'r.title, r.description, r.created_at', where: '' },
  message: { table: 'chat_messages', columns: 'r.body, r.direction, r.at', where: '' },
  email: {
    table: 'emails',
    columns: 'r.subject, r.body_text, r.source, r.capture_direction, r.message_at',
    where: '',
  },
  transcript: {
    table: 'calls',
    columns: 'r.transcript, r.detected_language, r.started_at',
    where: ' and r.transcript is not null',
  },
  analysis: { table: 'calls', columns: 'r.analysis, r.started_at', where: ' and r.analysis is not null' },
};

/**
 * One page of a kind's records after `afterId`, by id. The rows stay share-locked until the
 * page's transaction ends, so a write of one of them waits for its passages to be rebuilt and then
 * indexes its own text over them, never the other way round.
 */
export function searchSourcePageStatement(
  organizationId: string,
  kind: SearchSourceKind,
  afterId: string | null,
  limit = SEARCH_PAGE_SIZE,
): Statement {
  const { table, columns, where } = SOURCES[kind];
  return {
    sql: `select r.id, r.lead_id, ${columns}
            from ${table} r
           where r.organization_id = ? and r.id > ?::uuid${where}
           order by r.id limit ?
             for share of r`,
    params: [organizationId, afterId ?? FIRST_ID, limit],
  };
}

/**
 * Deletes the passages of one kind whose record no longer exists (or, for a call's transcript or
 * analysis, no longer has one); the number of passages deleted.
 */
export function orphanChunksStatement(organizationId: string, kind: SearchSourceKind): Statement {
  const { table, where } = SOURCES[kind];
  return {
    sql: `with gone as (
            delete from search_chunk c
             where c.organization_id = ? and c.source_kind = ?
               and not exists (select 1 from ${table} r
                                where r.id = c.source_id and r.organization_id = c.organization_id${where})
            returning 1)
          select count(*) as removed from gone`,
    params: [organizationId, kind],
  };
}

/**
 * A call whose start moved after its transcript or analysis was indexed: its texts, so their
 * passages take the new date; no row when the passages already carry the call's start.
 */
export function redatedCallStatement(organizationId: string, callId: string): Statement {
  return {
    sql: `select r.id, r.lead_id, r.transcript, r.detected_language, r.analysis, r.started_at
            from calls r
           where r.organization_id = ? and r.id = ?
             and exists (select 1 from search_chunk c
                          where c.organization_id = r.organization_id and c.source_kind in ('transcript', 'analysis')
                            and c.source_id = r.id and c.occurred_at <> r.started_at)`,
    params: [organizationId, callId],
  };
}

/** How many passages the organization's index holds. */
export function chunkCountStatement(organizationId: string): Statement {
  return {
    sql: `select count(*) as chunks from search_chunk where organization_id = ?`,
    params: [organizationId],
  };
}
