import type { Statement } from '@app/platform/core';

/**
 * The statements of `POST /v1/search` (issue 18 item 3), pure so the benchmark's baseline runs the
 * same text. Every one carries the organization and the caller's reach (LeadAccess's fragments);
 * each filter combination is its own text, so a prepared plan never hides an optional filter.
 */

/** Issue 18: SQL ranks at most this many newest matches, so a common word stays cheap. */
export const NEWEST_MATCHES = 5000;
/** Issue 18: the best chunks handed to the rerank. */
export const CANDIDATES = 200;
/** Issue 18: the trigram pass keeps words this similar (`word_similarity`). */
export const TRIGRAM_SIMILARITY = 0.4;

/**
 * Who is searching: LeadAccess's fragments (own reach on leads `l`, null when it is every lead of
 * the organization: an admin; the shared leads' pairs).
 */
export interface SearchReach {
  organizationId: string;
  own: Statement | null;
  shared: Statement;
}

/**
 * The query text of each concept under each configuration (`[configuration][concept]`; an empty
 * text where a configuration searches no alternative of that concept), or one text for all.
 */
export type ConceptQueries = string | string[] | string[][];

/** Optional filters of a search. */
export interface SearchFilters {
  leadId?: number;
  /** Inclusive. */
  from?: Date;
  /** Exclusive. */
  to?: Date;
}

/** A chunk as retrieval returns it. */
export interface CandidateRow {
  id: string;
  lead_id: string;
  source_kind: string;
  source_id: string;
  occurred_at: Date | string;
  untrusted: boolean;
  rank: number;
  tsv: string;
  /** Matches (of the newest ranked) on the chunk's lead, and their distinct source kinds. */
  lead_matches: string;
  lead_kinds: string;
}

/** A chunk the trigram pass found. */
export interface TrigramRow {
  id: string;
  lead_id: string;
  source_kind: string;
  source_id: string;
  occurred_at: Date | string;
  untrusted: boolean;
  similarity: number;
}

/**
 * The configurations to search under (`app_simple`, the organization's three most used lead
 * languages, `extra`), and the lexemes of each term under each of them: `[term index (1-based),
 * configuration, lexeme, positions]`. Lead languages: `leads_org_language_plain_idx`, index-only.
 */
export function analyzeStatement(organizationId: string, terms: string[], extra: string[]): Statement {
  return {
    sql: `with languages as (
            select l.language, count(*) as leads
              from leads l
             where l.organization_id = ? and l.language is not null
             group by 1
          ), configs as (
            select 'app_simple'::regconfig as cfg
            union
            (select search_config(language) from languages
              where search_config(language) <> 'app_simple'::regconfig
              group by 1 order by sum(leads) desc, 1 limit 3)
            union
            select unnest(?::text[])::regconfig
          )
          select (select array_agg(cfg::text order by cfg::text) from configs) as configs,
                 (select coalesce(json_agg(json_build_array(t.ord, c.cfg::text, p.lexeme, p.positions)), '[]'::json)
                    from unnest(?::text[]) with ordinality t(term, ord)
                   cross join configs c
                   cross join lateral unnest(to_tsvector(c.cfg, t.term)) p) as lexemes`,
    params: [organizationId, extra, terms],
  };
}

/** The whole query under each configuration: its concepts OR'ed. */
const perConfig = (configs: string[], queries: ConceptQueries): string[] =>
  typeof queries === 'string'
    ? configs.map(() => queries)
    : queries.map((texts) => (typeof texts === 'string' ? texts : texts.filter(Boolean).join(' or ')));

/** Each concept's query under each configuration, flattened: `[concept, configuration, text]` arrays. */
const perConcept = (configs: string[], queries: ConceptQueries): [number[], string[], string[]] => {
  const grid =
    typeof queries === 'string' || typeof queries[0] === 'string'
      ? perConfig(configs, queries).map((text) => [text])
      : (queries as string[][]);
  const concepts: number[] = [];
  const cfgs: string[] = [];
  const texts: string[] = [];
  grid.forEach((row, i) =>
    row.forEach((text, concept) => {
      if (text === '') return;
      concepts.push(concept);
      cfgs.push(configs[i]);
      texts.push(text);
    }),
  );
  return [concepts, cfgs, texts];
};

const filterSql = (alias: string, filters: SearchFilters): Statement => {
  const sql: string[] = [];
  const params: unknown[] = [];
  if (filters.leadId !== undefined) {
    sql.push(`and ${alias}.lead_id = ?`);
    params.push(filters.leadId);
  }
  if (filters.from !== undefined) {
    sql.push(`and ${alias}.occurred_at >= ?`);
    params.push(filters.from);
  }
  if (filters.to !== undefined) {
    sql.push(`and ${alias}.occurred_at < ?`);
    params.push(filters.to);
  }
  return { sql: sql.join(' '), params };
};

/** Narrow: the newest matches are sorted by date before anything wide (tsv, text) is read. */
const COLUMNS = 'c.id, c.lead_id, c.source_kind, c.source_id, c.occurred_at, c.untrusted';

/**
 * The newest `NEWEST_MATCHES` chunks matching `match` in reach (the agency's leads the caller
 * reaches), then as many of the leads shared with the caller: two `union all` branches, each
 * walking its own index.
 */
function newestInReach(
  reach: SearchReach,
  columns: string,
  match: Statement,
  filters: SearchFilters,
  limit = String(NEWEST_MATCHES),
): Statement {
  const filter = filterSql('c', filters);
  // an admin reaches every lead of the organization: the chunk's own organization says it all
  const own = reach.own
    ? {
        sql: `and exists (select 1 from leads l where l.id = c.lead_id and ${reach.own.sql})`,
        params: reach.own.params,
      }
    : { sql: '', params: [] };
  return {
    sql: `(select ${columns}
               from search_chunk c
              where c.organization_id = ? and ${match.sql} ${filter.sql}
                ${own.sql}
              order by c.occurred_at desc
              limit ${limit})
            union all
            (select ${columns}
               from (${reach.shared.sql}) s
               join search_chunk c on c.organization_id = s.organization_id and c.lead_id = s.lead_id
              where ${match.sql} ${filter.sql}
              order by c.occurred_at desc
              limit ${limit})`,
    params: [
      reach.organizationId,
      ...match.params,
      ...filter.params,
      ...own.params,
      ...reach.shared.params,
      ...match.params,
      ...filter.params,
    ],
  };
}

/**
 * Retrieve, one statement: each concept's query (its alternatives under every configuration, OR)
 * takes its own newest matches in reach (own agency, plus leads shared with the caller), an equal
 * share of `NEWEST_MATCHES`, so a rare word is never crowded out by a common one beside it; those
 * (at most `NEWEST_MATCHES`) are ranked by `ts_rank_cd` against the whole query; the best
 * `CANDIDATES` come with their tsvector for the rerank and their lead's match counts. Only the
 * ranked rows' tsvectors are read.
 */
export function retrieveStatement(
  reach: SearchReach,
  configs: string[],
  queries: ConceptQueries,
  filters: SearchFilters,
): Statement {
  const [concepts, cfgs, texts] = perConcept(configs, queries);
  const share = Math.max(1, Math.ceil(NEWEST_MATCHES / Math.max(1, new Set(concepts).size)));
  const matches = newestInReach(
    reach,
    COLUMNS,
    { sql: 'c.tsv @@ cq.tq', params: [] },
    filters,
    String(share),
  );
  return {
    sql: `with cq as (
            select x.concept, search_tsquery_or(websearch_to_tsquery(x.cfg::regconfig, x.text)) as tq
              from unnest(?::int[], ?::text[], ?::text[]) x(concept, cfg, text)
             group by x.concept
          ), q as (
            select search_tsquery_or(tq) as tq from cq
          ), found as (
            select f.* from cq cross join lateral (${matches.sql}) f
          ), matches as (
            select distinct on (id) * from found
          ), leads_matched as (
            select lead_id, count(*) as lead_matches, count(distinct source_kind) as lead_kinds
              from matches group by lead_id
          ), best as (
            select m.id, ts_rank_cd(c.tsv, q.tq) as rank
              from matches m
              join search_chunk c on c.id = m.id
             cross join q
             order by rank desc, m.occurred_at desc, m.id desc
             limit ${CANDIDATES}
          )
          select m.id, m.lead_id, m.source_kind, m.source_id, m.occurred_at, m.untrusted,
                 b.rank, c.tsv::text as tsv, lm.lead_matches, lm.lead_kinds
            from best b
            join matches m on m.id = b.id
            join search_chunk c on c.id = b.id
            join leads_matched lm on lm.lead_id = m.lead_id
           order by b.rank desc, m.occurred_at desc, m.id desc`,
    params: [concepts, cfgs, texts, ...matches.params],
  };
}

/**
 * The trigram pass (typos, names): chunks in reach holding a word at least `TRIGRAM_SIMILARITY`
 * like one of `words` (GIN trigram index; run after `trigramThresholdStatement` in the same
 * transaction), outside the leads retrieval found, most similar first. Of the newest
 * `NEWEST_MATCHES` matches, like retrieval.
 */
export function trigramStatement(
  reach: SearchReach,
  words: string[],
  filters: SearchFilters,
  exceptLeadIds: number[],
  limit: number,
): Statement {
  const similar = words.map(() => 'c.text %> ?').join(' or ');
  const similarity = `greatest(${words.map(() => 'word_similarity(?, m.text)').join(', ')})`;
  const matches = newestInReach(
    reach,
    `${COLUMNS}, c.text`,
    { sql: `(${similar}) and not (c.lead_id = any(?::bigint[]))`, params: [...words, exceptLeadIds] },
    filters,
  );
  return {
    sql: `with matches as (
            ${matches.sql}
          )
          select m.id, m.lead_id, m.source_kind, m.source_id, m.occurred_at, m.untrusted,
                 ${similarity} as similarity
            from matches m
           order by similarity desc, m.occurred_at desc, m.id desc
           limit ${limit}`,
    params: [...matches.params, ...words],
  };
}

/**
 * The trigram pass gives up after this long (it only fills up: on a very large index a word close
 * to many others can take seconds, and the answer goes without the fill-up instead).
 */
export const TRIGRAM_BUDGET_MS = 800;

/** `word_similarity` threshold of the trigram operators and the pass's budget, for this transaction only. */
export const trigramThresholdStatement = (): Statement => ({
  sql: `select set_config('pg_trgm.word_similarity_threshold', ?, true), set_config('statement_timeout', ?, true)`,
  params: [String(TRIGRAM_SIMILARITY), String(TRIGRAM_BUDGET_MS)],
});

/**
 * Snippets of the chunks shown only: `ts_headline` under each chunk's language, plain text (no
 * markers), one fragment of at most 30 words. The ids came from statements that checked reach;
 * the organization (or the share) is checked again.
 */
export function headlineStatement(
  reach: SearchReach,
  chunkIds: string[],
  configs: string[],
  websearch: ConceptQueries,
): Statement {
  return {
    sql: `with q as (
            select search_tsquery_or(websearch_to_tsquery(x.cfg::regconfig, x.text)) as tq
              from unnest(?::text[], ?::text[]) x(cfg, text)
          )
          select c.id, c.text,
                 ts_headline(search_config(c.language), c.text, q.tq,
                   'StartSel="", StopSel="", MaxWords=30, MinWords=12, ShortWord=2, MaxFragments=1, FragmentDelimiter=" … "') as headline
            from search_chunk c cross join q
           where c.id = any(?::bigint[])
             and (c.organization_id = ?
                  or exists (select 1 from (${reach.shared.sql}) s
                              where s.organization_id = c.organization_id and s.lead_id = c.lead_id))`,
    params: [configs, perConfig(configs, websearch), chunkIds, reach.organizationId, ...reach.shared.params],
  };
}
