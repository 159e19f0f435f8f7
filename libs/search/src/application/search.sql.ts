import type { Statement, TransactionSettings } from '@app/platform/core';
import {
  BRANCH_SCANS_FROM,
  heldBranchTests,
  SLICE_ENOUGH,
  type Slices,
  tsqueryBranches,
} from '../domain/retrieval-plan';

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
  /** Matches each concept found (by concept index), before they were merged. */
  concept_found: Record<string, number>;
}

/**
 * The configurations to search under (`app_simple`, the organization's three most used lead
 * languages, `extra`), and the lexemes of each term under each of them: `[term index (1-based),
 * configuration, lexeme, positions]`. Lead languages: `leads_org_language_plain_idx`, index-only,
 * counted per language before anything maps them to configurations (`materialized`: inlined, the
 * mapping's filter ran on each of 100,000 leads).
 */
export function analyzeStatement(organizationId: string, terms: string[], extra: string[]): Statement {
  return {
    sql: `with languages as materialized (
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
 * A branch's rows ranked from the tsvector it read, which then stays behind (narrow rows
 * downstream): `ts_rank_cd` against the whole query, computed against the branches each passage
 * holds a word of (`heldBranchTests`: the same figure, cheaper; "sea views", nine alternatives:
 * the retrieve statement took 223 ms, 183 so).
 */
function rankedColumns(whole: string): Statement {
  const held = heldBranchTests(whole);
  const rank = held
    ? {
        sql: `ts_rank_cd(n.tsv, array_to_string(array[${held
          .map(() => 'case when n.tsv @@ ?::tsquery then ?::text end')
          .join(', ')}], ' | ')::tsquery)`,
        params: held.flatMap((test) => [test.anyWord, test.branch]),
      }
    : { sql: 'ts_rank_cd(n.tsv, ?::tsquery)', params: [whole] };
  return {
    sql: `n.id, n.lead_id, n.source_kind, n.source_id, n.occurred_at, n.untrusted, n.concept, ${rank.sql} as rank`,
    params: rank.params,
  };
}

/**
 * How retrieval ranks its matches: `relevance`, the concepts a passage holds then `ts_rank_cd`;
 * `concept`, the first concept (in the order given) a passage holds then `ts_rank_cd` (the
 * trigram pass: its words closest to the query first).
 */
export type RetrieveOrder = 'relevance' | 'concept';

/** A concept as the retrieve statement reads it: its tsquery text and its date slices. */
export interface RetrieveConcept extends Slices {
  tsquery: string;
}

/**
 * Each concept's query as a tsquery text, with its thesaurus alternatives (`all`) and without
 * (`own`: the caller's forms), and the planner's estimates the retrieval plan is made from: the
 * organization's passages, and the passages holding each lexeme of those queries
 * (`search_estimate`: `EXPLAIN`, no data read).
 */
export function conceptQueriesStatement(
  organizationId: string,
  configs: string[],
  queries: { all: ConceptQueries; own: ConceptQueries },
): Statement {
  const [concepts, cfgs, texts] = perConcept(configs, queries.all);
  const [ownConcepts, ownCfgs, ownTexts] = perConcept(configs, queries.own);
  return {
    sql: `with cq as (
            select x.concept, x.kind, search_tsquery_or(websearch_to_tsquery(x.cfg::regconfig, x.text)) as tq
              from unnest(?::int[], ?::text[], ?::text[], ?::text[]) x(concept, kind, cfg, text)
             group by x.concept, x.kind
          ), lexemes as (
            select distinct m[1] as lexeme
              from cq cross join regexp_matches(cq.tq::text, '(''([^'']|'''')*'')', 'g') m
          )
          select search_estimate(?::uuid, null) as chunks,
                 (select coalesce(json_agg(json_build_array(concept, kind, tq::text) order by concept, kind), '[]'::json)
                    from cq) as queries,
                 (select coalesce(json_object_agg(lexeme, search_estimate(?::uuid, lexeme)), '{}'::json)
                    from lexemes) as lexemes`,
    params: [
      [...concepts, ...ownConcepts],
      [...concepts.map(() => 'all'), ...ownConcepts.map(() => 'own')],
      [...cfgs, ...ownCfgs],
      [...texts, ...ownTexts],
      organizationId,
      organizationId,
    ],
  };
}

/**
 * Sort memory of the retrieval's transaction: the newest matches are sorted with their tsvectors
 * (5,000 rows of about 600 bytes), which spilled to disk under the default 4 MB.
 */
export const RETRIEVAL_WORK_MEM = '16MB';

/**
 * The search's settings: its sort memory, and no parallel workers. The planner gave the
 * lead-language count of a 100,000-lead agency two workers, whose start cost 40 ms of a 50 ms
 * statement (the same count alone takes 13 ms); a search is one of many requests on the server's
 * cores, so it never takes more than its own core.
 */
export const SEARCH_SETTINGS: TransactionSettings = {
  work_mem: RETRIEVAL_WORK_MEM,
  max_parallel_workers_per_gather: '0',
};

/**
 * The retrieval's setting, after the analyze statement: no plain index scans. A date slice is
 * read by bitmaps (the concept's GIN entries AND its dates), visiting only the heap pages of its
 * matches; the planner would otherwise often walk the date index newest first, fetching every
 * passage of the slice (a word in 15 % of them: 34,000 fetches for 5,000 matches, 220 ms against
 * 88 ms). Bitmap scans serve every other read of the retrieval as well. Not before the
 * lead-language count: it turns index-only scans off too (that count took 70 ms by bitmaps
 * against 13 ms index-only).
 */
export const RETRIEVAL_SETTINGS: TransactionSettings = { enable_indexscan: 'off' };

/**
 * From this many passages on, a slice floor is read from the one-in-64 sample
 * (`search_sampled_floor`): below, the exact walk reads fewer than 6,400 index entries, under a
 * millisecond; above, the sample's 100 or more entries place the floor within a few percent.
 */
export const SAMPLED_FLOOR_FROM = 6400;

/**
 * The lower bound of each first slice: the `occurred_at` of the organization's passage with n newer
 * ones (offset n, newest first; null: it has no more). From `sampledFrom` passages on, about it, from
 * the sample (`search_chunk_floor_sample_idx`): a common word's floor of 195,000 passages took
 * 15-27 ms walked exactly. A slice's bound only sizes it: its matches are still read newest first
 * and limited.
 */
export const sliceFloorsStatement = (
  organizationId: string,
  rows: number[],
  sampledFrom = SAMPLED_FLOOR_FROM,
): Statement => ({
  sql: `select w::bigint as rows,
               case when w < ? then search_recent_floor(?::uuid, w) else search_sampled_floor(?::uuid, w) end as floor
          from unnest(?::bigint[]) w`,
  params: [sampledFrom, organizationId, organizationId, rows],
});

/**
 * A passage `c` holds a concept. From `BRANCH_SCANS_FROM` alternatives on, one GIN scan per
 * alternative, OR'ed into one bitmap: one scan of the whole query checks it on every passage
 * holding any of its words, and alternatives sharing common words (`'vista' <-> 'mar'`, `'sea'
 * <-> 'view'`: `mar` and `view` are in a passage in eight) cost a slice 45 ms of entries; a scan
 * per alternative starts from its rarest word. Below, the scans' own cost outweighs that.
 */
function matchesConcept(tsquery: string): Statement {
  const branches = tsqueryBranches(tsquery);
  if (branches.length < BRANCH_SCANS_FROM) return { sql: 'c.tsv @@ ?::tsquery', params: [tsquery] };
  return { sql: `(${branches.map(() => 'c.tsv @@ ?::tsquery').join(' or ')})`, params: branches };
}

/**
 * One concept's newest matches in reach: the agency's leads the caller reaches, then as many of
 * the leads shared with the caller (a few leads: their own index, no slices). Without slices the
 * concept is read whole behind a fence (`offset 0`), so the planner reads it through the GIN index
 * and never walks the date index hoping to meet its few matches early. With slices, each is a
 * common table expression of its own, read newest first, and a later one runs only when the
 * earlier held less than `SLICE_ENOUGH` of `limit` (its condition on their counts is a one-time
 * filter: when false, the slice's scans never start), taking only what they lacked.
 */
function newestOfConcept(
  reach: SearchReach,
  index: number,
  concept: RetrieveConcept,
  filters: SearchFilters,
  limit: number,
  ranked: Statement,
): { slices: Statement[]; branch: Statement } {
  const filter = filterSql('c', filters);
  const columns = `${COLUMNS}, c.tsv, ${index} as concept`;
  const own = reach.own
    ? {
        sql: `and exists (select 1 from leads l where l.id = c.lead_id and ${reach.own.sql})`,
        params: reach.own.params,
      }
    : { sql: '', params: [] };
  const matching = matchesConcept(concept.tsquery);
  const agency = (bounds: string, boundParams: unknown[], gate = ''): Statement => ({
    sql: `select ${columns}
            from search_chunk c
           where c.organization_id = ? and ${matching.sql} ${bounds} ${filter.sql}
             ${own.sql} ${gate}`,
    params: [reach.organizationId, ...matching.params, ...boundParams, ...filter.params, ...own.params],
  });
  const shared: Statement = {
    sql: `(select ${ranked.sql} from (
              select ${columns}
                from (${reach.shared.sql}) s
                join search_chunk c on c.organization_id = s.organization_id and c.lead_id = s.lead_id
               where c.tsv @@ ?::tsquery ${filter.sql}
               order by c.occurred_at desc
               limit ${limit}) n)`,
    params: [...ranked.params, ...reach.shared.params, concept.tsquery, ...filter.params],
  };
  if (concept.floor === null) {
    const read = agency('', []);
    return {
      slices: [],
      branch: {
        sql: `(select ${ranked.sql} from (select * from (${read.sql} offset 0) f order by f.occurred_at desc limit ${limit}) n)
            union all ${shared.sql}`,
        params: [...ranked.params, ...read.params, ...shared.params],
      },
    };
  }
  const names: string[] = [];
  const slices: Statement[] = [];
  const slice = (bounds: string, boundParams: unknown[]) => {
    const name = `s${index}_${names.length + 1}`;
    const before = names.map((n) => `(select count(*) from ${n})`).join(' + ');
    const read = before
      ? agency(bounds, boundParams, `and ${before} < ${Math.ceil(limit * SLICE_ENOUGH)}`)
      : agency(bounds, boundParams);
    const take = before ? `greatest(0, ${limit} - (${before}))` : String(limit);
    slices.push({
      sql: `${name} as (${read.sql} order by c.occurred_at desc limit ${take})`,
      params: read.params,
    });
    names.push(name);
  };
  slice('and c.occurred_at >= ?', [concept.floor]);
  let upper = concept.floor;
  for (const bound of concept.earlier ?? []) {
    if (bound === null) {
      slice('and c.occurred_at < ?', [upper]);
    } else {
      slice('and c.occurred_at < ? and c.occurred_at >= ?', [upper, bound]);
      upper = bound;
    }
  }
  return {
    slices,
    branch: {
      sql: `(select ${ranked.sql} from (${names.map((n) => `select * from ${n}`).join(' union all ')}) n)
            union all ${shared.sql}`,
      params: [...ranked.params, ...shared.params],
    },
  };
}

/**
 * Retrieve, one statement: each concept takes its own newest matches in reach, `share` of
 * `NEWEST_MATCHES` (so a rare word is never crowded out by a common one beside it), whole or by
 * date slices (`newestOfConcept`); those are ranked by the concepts they hold (a passage found by
 * several concepts' reads), then by `ts_rank_cd` against the whole query (which, over an OR,
 * counts occurrences and would put a passage saying one concept three times before one saying each
 * once); the best `CANDIDATES` come with their tsvector for the rerank, their lead's match counts,
 * and how many matches each concept found (`concept_found`). Only the ranked rows' tsvectors are
 * read again. Run unprepared: each call is planned with its own tsqueries and bounds.
 */
export function retrieveStatement(
  reach: SearchReach,
  concepts: RetrieveConcept[],
  whole: string,
  filters: SearchFilters,
  share: number,
  order: RetrieveOrder = 'relevance',
): Statement {
  const ranked = rankedColumns(whole);
  const reads = concepts.map((concept, i) => newestOfConcept(reach, i, concept, filters, share, ranked));
  const slices = reads.flatMap((read) => read.slices);
  const first = order === 'relevance' ? 'concepts desc' : 'first_concept';
  return {
    sql: `with ${slices.map((slice) => `${slice.sql},\n          `).join('')}found as (
            ${reads.map((read) => read.branch.sql).join('\n            union all\n            ')}
          ), matches as (
            select distinct on (id) *, count(*) over (partition by id) as concepts,
                   min(concept) over (partition by id) as first_concept
              from found
          ), per_concept as (
            select coalesce(json_object_agg(concept, n), '{}'::json) as found
              from (select concept, count(*) as n from found group by concept) x
          ), leads_matched as (
            select lead_id, count(*) as lead_matches, count(distinct source_kind) as lead_kinds
              from matches group by lead_id
          ), best as (
            select * from matches
             order by ${first}, rank desc, occurred_at desc, id desc
             limit ${CANDIDATES}
          )
          select b.id, b.lead_id, b.source_kind, b.source_id, b.occurred_at, b.untrusted,
                 b.rank, c.tsv::text as tsv, lm.lead_matches, lm.lead_kinds, pc.found as concept_found
            from best b
            join search_chunk c on c.id = b.id
            join leads_matched lm on lm.lead_id = b.lead_id
           cross join per_concept pc
           order by b.${first}, b.rank desc, b.occurred_at desc, b.id desc`,
    params: [...slices.flatMap((slice) => slice.params), ...reads.flatMap((read) => read.branch.params)],
  };
}

/**
 * The trigram pass, first half (typos, names): for each query word (folded: lower-case, no
 * accents), the organization's words (`search_word`) at least `TRIGRAM_SIMILARITY` like it
 * (`word_similarity`), or at most `TYPO_EDITS` edits from it among those a little like it
 * (trigram similarity ≥ `TYPO_CANDIDATE_SIMILARITY`: two swapped letters in a short name leave
 * it only a third of its trigrams), closest first (fewest edits, then most similar), the
 * `SIMILAR_WORDS` closest. GIN trigram index; run after `TRIGRAM_SETTINGS` in the same
 * transaction. Full text then searches those words.
 */
export function similarWordsStatement(organizationId: string, words: string[]): Statement {
  return {
    sql: `select q.ord::int as ord, w.word, w.similarity
            from unnest(?::text[]) with ordinality q(word, ord)
           cross join lateral (
             select v.word, word_similarity(q.word, v.word) as similarity
               from search_word v
              where v.organization_id = ?
                and (v.word %> q.word or (v.word % q.word and levenshtein(q.word, v.word) <= ${TYPO_EDITS}))
              order by levenshtein(q.word, v.word), word_similarity(q.word, v.word) desc, v.word
              limit ${SIMILAR_WORDS}
           ) w
           order by q.ord, levenshtein(q.word, w.word), w.similarity desc, w.word`,
    params: [words, organizationId],
  };
}

/** The trigram pass keeps this many words per query word. */
export const SIMILAR_WORDS = 5;
/** A word this many edits from a query word is a typo of it (a transposition is two). */
export const TYPO_EDITS = 2;
/** The trigram similarity a word needs to be weighed by edits. */
export const TYPO_CANDIDATE_SIMILARITY = 0.2;

/** The planner's estimates for tsquery lexemes (`'word'`) and the organization's passages. */
export const lexemeEstimatesStatement = (organizationId: string, lexemes: string[]): Statement => ({
  sql: `select search_estimate(?::uuid, null) as chunks,
               (select coalesce(json_object_agg(l, search_estimate(?::uuid, l)), '{}'::json)
                  from unnest(?::text[]) l) as lexemes`,
  params: [organizationId, organizationId, lexemes],
});

/** `word_similarity` thresholds of the trigram operators (the typo fill-up's `%>` and `%`). */
export const TRIGRAM_SETTINGS: TransactionSettings = {
  'pg_trgm.word_similarity_threshold': String(TRIGRAM_SIMILARITY),
  'pg_trgm.similarity_threshold': String(TYPO_CANDIDATE_SIMILARITY),
};

/**
 * Snippets of the chunks shown only: `ts_headline` under each chunk's language, plain text (no
 * markers), one fragment of at most 30 words. The query's alternatives once each: the same words
 * under several configurations often parse alike, and `ts_headline`'s cost grows with the query's
 * items (a phrase with its thesaurus forms under four configurations: 34 branches, 15 distinct;
 * 50 ms for 30 passages against 10). Split at the top level's `|` (a websearch query has no
 * parentheses, and no lexeme holds a space). The ids came from statements that checked reach;
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
            select coalesce(string_agg(distinct b.branch, ' | ') filter (where b.branch <> ''), '')::tsquery as tq
              from unnest(?::text[], ?::text[]) x(cfg, text)
             cross join regexp_split_to_table(websearch_to_tsquery(x.cfg::regconfig, x.text)::text, ' \\| ') b(branch)
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
