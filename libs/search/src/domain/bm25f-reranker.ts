import { Reranker, RerankCandidate, RerankQuery, RerankResult } from './reranker';

/** Placeholder until the BM25F reranker lands: SQL order. */
export class Bm25fReranker extends Reranker {
  rerank<T extends RerankCandidate>(candidates: T[], _query: RerankQuery, _now: Date): RerankResult<T> {
    return { ranked: candidates.map((candidate) => ({ candidate, score: candidate.rank })), reranked: false };
  }
}
