import type { Statement } from '@app/platform/core';
import { RECENT_INDEX_NAME } from '../domain/recent-indexes';

/**
 * The index's writes (issue 18 items 1-2), pure so the benchmark's baseline and the reindex run
 * the same text. `tsv` is a generated column: the chunk's language and `app_simple`.
 */

/** One passage to store. */
export interface ChunkRow {
  leadId: number;
  sourceKind: string;
  sourceId: string;
  position: number;
  occurredAt: Date;
  /** Null: the lead's language (read in the same statement), else `simple`. */
  language: string | null;
  text: string;
  untrusted: boolean;
}

/** Forgets every passage of these sources (of one kind). */
export const removeChunksStatement = (
  organizationId: string,
  kind: string,
  sourceIds: string[],
): Statement => ({
  sql: `delete from search_chunk where organization_id = ? and source_kind = ? and source_id = any(?::uuid[])`,
  params: [organizationId, kind, sourceIds],
});

/** Forgets every passage of these sources, whatever their kind (`kinds[i]` goes with `sourceIds[i]`). */
export const removeSourcesStatement = (
  organizationId: string,
  kinds: string[],
  sourceIds: string[],
): Statement => ({
  sql: `delete from search_chunk c
         using unnest(?::text[], ?::uuid[]) s(kind, source_id)
         where c.organization_id = ? and c.source_kind = s.kind and c.source_id = s.source_id`,
  params: [kinds, sourceIds, organizationId],
});

/** The vocabulary's words: `app_simple` lexemes of 3-40 characters starting with a letter. */
export const VOCABULARY_WORD = `length(w) between 3 and 40 and w ~ '^[[:alpha:]]'`;

/**
 * Stores passages of one organization, and their new words in its vocabulary (`search_word`, the
 * trigram pass's words: the `app_simple` half of the generated tsvector, weight B). The lead must
 * be the organization's (a row of another agency's lead is dropped by the join); a passage
 * without a language takes the lead's.
 */
export const insertChunksStatement = (organizationId: string, rows: ChunkRow[]): Statement => ({
  sql: `with stored as (
          insert into search_chunk (organization_id, lead_id, source_kind, source_id, position, occurred_at, language, text, untrusted)
          select l.organization_id, l.id, d.source_kind, d.source_id, d.position, d.occurred_at,
                 lower(coalesce(d.language, l.language, 'simple')), d.text, d.untrusted
            from unnest(?::bigint[], ?::text[], ?::uuid[], ?::smallint[], ?::timestamptz[], ?::text[], ?::text[], ?::boolean[])
                 as d(lead_id, source_kind, source_id, position, occurred_at, language, text, untrusted)
            join leads l on l.id = d.lead_id and l.organization_id = ?
          returning organization_id, tsv
        ), words as (
          insert into search_word (organization_id, word)
          select distinct s.organization_id, w
            from stored s cross join unnest(tsvector_to_array(ts_filter(s.tsv, '{b}'))) w
           where ${VOCABULARY_WORD}
          on conflict do nothing
        )
        select count(*)::int as stored from stored`,
  params: [
    rows.map((r) => r.leadId),
    rows.map((r) => r.sourceKind),
    rows.map((r) => r.sourceId),
    rows.map((r) => r.position),
    rows.map((r) => r.occurredAt),
    rows.map((r) => r.language),
    rows.map((r) => r.text),
    rows.map((r) => r.untrusted),
    organizationId,
  ],
});

/** The indexes of `search_chunk` named like a recent index (`RECENT_INDEX_NAME`), valid or not. */
export const recentIndexesStatement: Statement = {
  sql: `select c.relname as name, i.indisvalid as valid
          from pg_index i join pg_class c on c.oid = i.indexrelid
         where i.indrelid = 'search_chunk'::regclass and c.relname ~ ?
         order by c.relname`,
  params: [RECENT_INDEX_NAME.source],
};
