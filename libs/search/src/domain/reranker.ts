import type { SearchSourceKind } from './search-source';

/**
 * Issue 18 item 3, "Rerank": reorders at most 200 candidates inside this process. Behind this
 * abstract class so a model can replace the default (`Bm25fReranker`) without touching the
 * pipeline. Pure: no framework, no database.
 */

/** A retrieved chunk, in the order SQL ranked it. */
export interface RerankCandidate {
  chunkId: string;
  leadId: number;
  source: SearchSourceKind;
  occurredAt: Date;
  /** `ts_rank_cd` from SQL (the order kept when the rerank is skipped). */
  rank: number;
  /**
   * The chunk's tsvector as PostgreSQL prints it (`'jardin':4A,9B 'marbella':6B …`): weight A
   * positions are the chunk language's stems, weight B its plain words (`app_simple`).
   */
  tsv: string;
}

/** One alternative of a concept as lexemes: for each of its words, that word's forms under every configuration searched. */
export interface RerankAlternative {
  lexemes: string[][];
  weight: number;
}

export interface RerankQuery {
  concepts: { alternatives: RerankAlternative[] }[];
  /** The caller's words in order as `app_simple` lexemes (stop words included): the exact-phrase bonus. */
  phrase: string[];
}

export interface Scored<T extends RerankCandidate> {
  candidate: T;
  score: number;
  /**
   * How many of the query's concepts the passage holds (0 when not reranked): passages holding
   * more come first, `score` orders those holding as many.
   */
  tier: number;
}

export interface RerankResult<T extends RerankCandidate> {
  /** Best first. */
  ranked: Scored<T>[];
  /** False when skipped: one candidate or none, or over the time budget (SQL order kept). */
  reranked: boolean;
}

export abstract class Reranker {
  abstract rerank<T extends RerankCandidate>(candidates: T[], query: RerankQuery, now: Date): RerankResult<T>;
}
