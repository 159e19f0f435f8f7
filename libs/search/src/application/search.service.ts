import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { LeadAccess } from '@app/crm';
import { Clock, preparedRows, Principal, transactionSettingsStatement } from '@app/platform';
import { occurredWindow } from '../domain/occurred-window';
import { Reranker, RerankCandidate, RerankQuery, Scored } from '../domain/reranker';
import { planQuery, QueryPlan, websearchOf } from '../domain/search-query';
import { isStopWord } from '../domain/stopwords';
import type { SearchSourceKind } from '../domain/search-source';
import { fuzzySnippetOf, snippetOf } from '../domain/snippet';
import type { SearchAnswerJson, SearchMatchJson } from '../views/search.view';
import { foldWord } from '../domain/words';
import {
  conceptsToRetrieve,
  estimatedConcepts,
  Estimates,
  RETRIEVAL_LIMITS,
  retrieveNewest,
  StatementRunner,
} from './retrieval';
import {
  analyzeStatement,
  CandidateRow,
  conceptQueriesStatement,
  headlineStatement,
  lexemeEstimatesStatement,
  RETRIEVAL_SETTINGS,
  SearchFilters,
  SEARCH_SETTINGS,
  SearchReach,
  similarWordsStatement,
  TRIGRAM_SETTINGS,
} from './search.sql';

/** `POST /v1/search` as the service takes it (the DTO checked types and lengths). */
export interface SearchRequest {
  query: string;
  leadId?: number;
  maxResults?: number;
  occurredFrom?: string;
  occurredTo?: string;
}

/** What a caller of the pipeline adds (listing matches). */
export interface PipelineOptions {
  /** Configurations searched besides `app_simple` and the agency's languages (`app_english`). */
  extraConfigs?: string[];
  /** A factor per lead on its best score (leads absent: 1). */
  leadBoosts?: (leadIds: number[]) => Promise<Map<number, number>>;
}

export const DEFAULT_MAX_RESULTS = 10;
/** Issue 18: evidence shown per lead. */
const EVIDENCE_PER_LEAD = 3;

interface Candidate extends RerankCandidate {
  sourceId: string;
  untrusted: boolean;
  organizationLeadMatches: number;
  organizationLeadKinds: number;
}

interface LeadGroup {
  leadId: number;
  score: number;
  /** The rerank's tier of its best passage (concepts held); -1 for a trigram fill-up. */
  tier: number;
  chunks: {
    id: string;
    source: SearchSourceKind;
    sourceId: string;
    occurredAt: Date;
    untrusted: boolean;
  }[];
  /** Found by the trigram pass: its passages hold the query's words only approximately. */
  fuzzy: boolean;
  matchCount: number;
  sourceCount: number;
}

/**
 * Issue 18 item 3: expand, retrieve (one statement), trigram fill-up, rerank, group by lead,
 * snippets of the chunks shown. Reach comes from LeadAccess and is in every statement; nothing is
 * kept between calls.
 */
@Injectable()
export class SearchService implements OnApplicationBootstrap {
  constructor(
    private readonly em: EntityManager,
    private readonly access: LeadAccess,
    private readonly reranker: Reranker,
    private readonly clock: Clock,
  ) {}

  /**
   * One rerank of made-up passages at boot: the first call compiles the parser (50-260 ms cold),
   * which would otherwise push the first search after a restart over the 50 ms budget.
   */
  onApplicationBootstrap(): void {
    const candidates = Array.from({ length: 50 }, (_, i) => ({
      chunkId: String(i),
      leadId: i,
      source: 'note' as const,
      occurredAt: new Date(0),
      rank: 1 / (i + 1),
      tsv: `'garden':${(i % 7) + 1}A 'jardin':${(i % 5) + 2}B 'sea':3B 'view':4A,9B`,
    }));
    const query: RerankQuery = {
      concepts: [
        {
          alternatives: [
            { lexemes: [['garden']], weight: 1 },
            { lexemes: [['jardin']], weight: 0.5 },
          ],
        },
        { alternatives: [{ lexemes: [['sea'], ['view', 'views']], weight: 1 }] },
      ],
      phrase: ['garden', 'sea', 'views'],
    };
    for (let round = 0; round < 20; round++) this.reranker.rerank(candidates, query, new Date(0));
  }

  async search(actor: Principal, request: SearchRequest): Promise<SearchAnswerJson> {
    const started = performance.now();
    const window = occurredWindow(request.occurredFrom, request.occurredTo);
    if (request.leadId !== undefined) await this.access.searchableLead(actor, request.leadId);
    return this.run(
      actor,
      planQuery(request.query),
      { leadId: request.leadId, ...window },
      request.maxResults ?? DEFAULT_MAX_RESULTS,
      started,
    );
  }

  /** The pipeline after validation; `started` is when the request was read (`tookMs`). */
  async run(
    actor: Principal,
    plan: QueryPlan,
    filters: SearchFilters,
    maxResults: number,
    started: number,
    options: PipelineOptions = {},
  ): Promise<SearchAnswerJson> {
    const reach: SearchReach = { organizationId: actor.organizationId, ...this.access.searchSql(actor, 'l') };
    const extra = options.extraConfigs ?? [];
    // one read transaction for the whole pipeline, with the search's settings (and the trigram
    // thresholds), then the retrieval's after the lead languages were counted
    return this.em.transactional(async (em) => {
      const db = SearchService.runner(em);
      await db(transactionSettingsStatement(SEARCH_SETTINGS, TRIGRAM_SETTINGS));
      const [analyzed] = await db<{ configs: string[]; lexemes: [number, string, string, number[]][] }>(
        analyzeStatement(actor.organizationId, [...plan.terms, ...plan.phraseWords], extra),
      );
      await db(transactionSettingsStatement(RETRIEVAL_SETTINGS));
      const rows =
        plan.terms.length === 0
          ? []
          : await this.retrieve(db, reach, plan, analyzed.configs, analyzed.lexemes, filters);
      const { ranked, reranked } = this.reranker.rerank(
        rows.map(toCandidate),
        rerankQuery(plan, analyzed.lexemes),
        this.clock.now(),
      );
      const groups = groupByLead(ranked);
      if (groups.length < maxResults && plan.trigramWords.length > 0) {
        groups.push(
          ...(await this.trigramGroups(db, reach, plan, filters, groups, maxResults - groups.length)),
        );
      }
      if (options.leadBoosts) await boost(groups, options.leadBoosts);
      const shown = groups.slice(0, maxResults);
      const snippets = await this.snippets(
        db,
        reach,
        shown,
        analyzed.configs,
        websearchPerConfig(plan, analyzed.configs, analyzed.lexemes, 'headline'),
        plan.trigramWords,
      );
      return {
        matches: shown.map((group) => toMatch(group, snippets)),
        tookMs: Math.round(performance.now() - started),
        reranked,
      };
    });
  }

  /** Runs statements on an entity manager (`StatementRunner`): the search transaction's. */
  private static runner(em: EntityManager): StatementRunner {
    return (statement, unprepared) => preparedRows(em, statement, unprepared ? { prepare: false } : {});
  }

  /**
   * Retrieval, in the search's transaction: each concept's tsqueries (with and without its
   * thesaurus alternatives) and the estimates in one statement, then `retrieveNewest`. A common
   * concept (its caller's forms alone expected in more than `WHOLE_READ_MATCHES` passages) is
   * retrieved by those forms only: its newest matches are plenty, and the alternatives would cost
   * every ranked passage (the rerank still weighs them).
   */
  private async retrieve(
    db: StatementRunner,
    reach: SearchReach,
    plan: QueryPlan,
    configs: string[],
    lexemes: [number, string, string, number[]][],
    filters: SearchFilters,
  ): Promise<CandidateRow[]> {
    const [planned] = await db<Estimates & { queries: [number, string, string][] }>(
      conceptQueriesStatement(reach.organizationId, configs, {
        all: websearchPerConfig(plan, configs, lexemes),
        own: websearchPerConfig(plan, configs, lexemes, 'own'),
      }),
    );
    return retrieveNewest(db, reach, conceptsToRetrieve(planned), Number(planned.chunks), filters);
  }

  /**
   * Leads only the trigram pass finds (typos, names), after those retrieval found: the agency's
   * words like the query's (`similarWordsStatement`), then their passages by full text, each
   * scored by the most similar word it holds (in the search's transaction: its trigram
   * thresholds and the retrieval's settings).
   */
  private async trigramGroups(
    db: StatementRunner,
    reach: SearchReach,
    plan: QueryPlan,
    filters: SearchFilters,
    found: LeadGroup[],
    wanted: number,
  ): Promise<LeadGroup[]> {
    const similar = await db<{ word: string; similarity: number }>(
      similarWordsStatement(reach.organizationId, [...new Set(plan.trigramWords.map(foldWord))]),
    );
    // closest first (the statement's order), each word once
    const similarity = new Map<string, number>();
    for (const row of similar) {
      const lexeme = lexemeText(row.word);
      if (!similarity.has(lexeme)) similarity.set(lexeme, Number(row.similarity));
    }
    if (similarity.size === 0) return [];
    const lexemes = [...similarity.keys()];
    const [estimates] = await db<Estimates>(lexemeEstimatesStatement(reach.organizationId, lexemes));
    const rows = await retrieveNewest(
      db,
      reach,
      estimatedConcepts(lexemes, estimates),
      Number(estimates.chunks),
      filters,
      RETRIEVAL_LIMITS,
      'concept',
    );
    const known = new Set(found.map((g) => g.leadId));
    const scored = rows
      .filter((row) => !known.has(Number(row.lead_id)))
      .map((row) => ({ row, similarity: closestWord(row.tsv, similarity) }));
    const groups = new Map<number, LeadGroup>();
    for (const { row, similarity: best } of scored) {
      const leadId = Number(row.lead_id);
      const group = groups.get(leadId) ?? {
        leadId,
        // below every lead full text found: they only fill up
        score: -1 + best / 2,
        tier: -1,
        chunks: [],
        matchCount: Number(row.lead_matches),
        sourceCount: Number(row.lead_kinds),
        fuzzy: true,
      };
      group.chunks.push({
        id: row.id,
        source: row.source_kind as SearchSourceKind,
        sourceId: row.source_id,
        occurredAt: new Date(row.occurred_at),
        untrusted: row.untrusted,
      });
      groups.set(leadId, group);
    }
    return [...groups.values()].slice(0, wanted);
  }

  private async snippets(
    db: StatementRunner,
    reach: SearchReach,
    shown: LeadGroup[],
    configs: string[],
    websearch: string[][],
    trigramWords: string[],
  ): Promise<Map<string, string>> {
    const ids = shown.flatMap((g) => g.chunks.slice(0, EVIDENCE_PER_LEAD).map((c) => c.id));
    if (ids.length === 0) return new Map();
    const fuzzy = new Set(shown.filter((g) => g.fuzzy).flatMap((g) => g.chunks.map((c) => c.id)));
    const rows = await db<{ id: string; text: string; headline: string }>(
      headlineStatement(reach, ids, configs, websearch),
    );
    return new Map(
      rows.map((row) => [
        String(row.id),
        fuzzy.has(String(row.id))
          ? fuzzySnippetOf(row.text, trigramWords)
          : snippetOf(row.text, row.headline),
      ]),
    );
  }
}

/** A word as a tsquery lexeme text (`'word'`, quotes and backslashes escaped). */
function lexemeText(word: string): string {
  return `'${word.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/** The similarity of the closest word (the first of `similarity`'s order) a passage's tsvector holds. */
function closestWord(tsv: string, similarity: Map<string, number>): number {
  for (const [lexeme, value] of similarity) if (tsv.includes(`${lexeme}:`)) return value;
  return 0;
}

function toCandidate(row: CandidateRow): Candidate {
  return {
    chunkId: String(row.id),
    leadId: Number(row.lead_id),
    source: row.source_kind as SearchSourceKind,
    occurredAt: new Date(row.occurred_at),
    rank: Number(row.rank),
    tsv: row.tsv,
    sourceId: row.source_id,
    untrusted: row.untrusted,
    organizationLeadMatches: Number(row.lead_matches),
    organizationLeadKinds: Number(row.lead_kinds),
  };
}

/**
 * The rerank's view of the plan: each alternative's words as lexemes (every configuration's form
 * of each word position), and the caller's words as `app_simple` lexemes for the phrase bonus.
 */
export function rerankQuery(plan: QueryPlan, lexemes: [number, string, string, number[]][]): RerankQuery {
  const byTerm = new Map<number, Map<number, Set<string>>>();
  const simple = new Map<number, string>();
  for (const [ord, config, lexeme, positions] of lexemes) {
    const term = Number(ord) - 1;
    const words = byTerm.get(term) ?? new Map<number, Set<string>>();
    for (const position of positions) words.set(position, (words.get(position) ?? new Set()).add(lexeme));
    byTerm.set(term, words);
    if (config === 'app_simple') simple.set(term, simple.get(term) ?? lexeme);
  }
  const lexemesOf = (term: number): string[][] =>
    [...(byTerm.get(term) ?? new Map<number, Set<string>>()).entries()]
      .sort(([a], [b]) => a - b)
      .map(([, forms]) => [...forms]);
  return {
    concepts: plan.concepts.map((concept) => ({
      alternatives: concept.alternatives
        .map((alternative) => ({
          lexemes: lexemesOf(plan.terms.indexOf(alternative.words.join(' '))),
          weight: alternative.weight,
        }))
        .filter((alternative) => alternative.lexemes.length > 0),
    })),
    phrase: plan.phraseWords.flatMap((_, i) => simple.get(plan.terms.length + i) ?? []),
  };
}

/**
 * Each concept's query text under each configuration (`[configuration][concept]`): the caller's
 * forms under every configuration (stemmed in each language), a thesaurus alternative under
 * `app_simple` only (its words as written, accents aside: a dictionary form needs no stemmer of
 * ours, and every configuration more adds its lexemes to each ranked passage's cost). A phrase is
 * searched under a configuration only when that configuration keeps each of its words that is no
 * stop word of ours (`"red sea"` is not searched as `red` under Spanish, where `sea` is a stop
 * word). `app_simple` keeps every word, so every phrase is searched at least there. `own`: the
 * caller's forms only; `headline`: the alternatives under every configuration too (`ts_headline`
 * reads a passage under its own language, so a Spanish note's `piso` is `pis` there).
 */
export function websearchPerConfig(
  plan: QueryPlan,
  configs: string[],
  lexemes: [number, string, string, number[]][],
  scope: 'all' | 'own' | 'headline' = 'all',
): string[][] {
  const kept = new Map<string, Set<number>>();
  for (const [ord, config, , positions] of lexemes) {
    const key = `${Number(ord) - 1}:${config}`;
    const set = kept.get(key) ?? new Set<number>();
    for (const position of positions) set.add(position);
    kept.set(key, set);
  }
  return configs.map((config) =>
    plan.concepts.map((concept) =>
      websearchOf([concept], (alternative) => {
        if (alternative.expansion && (scope === 'own' || (scope === 'all' && config !== 'app_simple')))
          return false;
        if (alternative.words.length === 1) return true;
        const positions = kept.get(`${plan.terms.indexOf(alternative.words.join(' '))}:${config}`);
        return alternative.words.every((word, i) => isStopWord(word) || (positions?.has(i + 1) ?? false));
      }),
    ),
  );
}

/** Best score first; a lead's chunks in score order (its evidence are the first three). */
function groupByLead(ranked: Scored<Candidate>[]): LeadGroup[] {
  const groups = new Map<number, LeadGroup>();
  for (const { candidate, score, tier } of ranked) {
    const group = groups.get(candidate.leadId) ?? {
      leadId: candidate.leadId,
      score,
      tier,
      chunks: [],
      matchCount: candidate.organizationLeadMatches,
      sourceCount: candidate.organizationLeadKinds,
      fuzzy: false,
    };
    group.chunks.push({
      id: candidate.chunkId,
      source: candidate.source,
      sourceId: candidate.sourceId,
      occurredAt: candidate.occurredAt,
      untrusted: candidate.untrusted,
    });
    groups.set(candidate.leadId, group);
  }
  return [...groups.values()];
}

async function boost(
  groups: LeadGroup[],
  leadBoosts: (leadIds: number[]) => Promise<Map<number, number>>,
): Promise<void> {
  const factors = await leadBoosts(groups.map((g) => g.leadId));
  for (const group of groups) {
    const factor = factors.get(group.leadId) ?? 1;
    // a fill-up's score is negative: a boost must not push it further down
    group.score = group.score >= 0 ? group.score * factor : group.score + (factor - 1) / 10;
  }
  groups.sort((a, b) => b.tier - a.tier || b.score - a.score);
}

function toMatch(group: LeadGroup, snippets: Map<string, string>): SearchMatchJson {
  const evidence = group.chunks.slice(0, EVIDENCE_PER_LEAD);
  return {
    leadId: group.leadId,
    matchCount: group.matchCount,
    sourceCount: group.sourceCount,
    bestMatchAt: evidence[0].occurredAt.toISOString(),
    evidence: evidence.map((chunk) => ({
      snippet: snippets.get(chunk.id) ?? '',
      source: chunk.source,
      sourceId: chunk.sourceId,
      occurredAt: chunk.occurredAt.toISOString(),
      untrusted: chunk.untrusted,
    })),
  };
}
