import {
  Reranker,
  type RerankAlternative,
  type RerankCandidate,
  type RerankQuery,
  type RerankResult,
  type Scored,
} from './reranker';
import { RECENCY_HALF_LIFE_DAYS, SOURCE_WEIGHTS } from './search-source';
import { LexemeFilter, parseTsvector, type ParsedTsvector, type TsPosition } from './tsvector';

/**
 * Issue 18 item 3, "Rerank": the default reranker.
 *
 *   score = (BM25F + proximity + coverage + phrase) × source weight × recency
 *   order: the concepts a passage holds (its `tier`), then the score
 *
 * - BM25F over the candidates (k1 1.2, b 0.75) with two fields taken from the tsvector's weights:
 *   A (the chunk language's stems) and B (its plain words). A concept counts through its best
 *   alternative, scaled by that alternative's weight, so thesaurus expansions count less.
 * - Proximity: the smallest window of words holding every matched concept; coverage: the share of
 *   the query's concepts matched (squared), large enough that a passage holding every concept
 *   beats one repeating a single concept; phrase: the caller's words consecutively in field B.
 *   The three bonuses are expressed in `unit`, the most one concept can bring in BM25F, so they
 *   keep their weight whatever the collection's IDFs.
 * - Recency halves the score every 365 days.
 * - A passage holding more of the query's concepts ranks first whatever its age or repetitions
 *   (`tier`): recency alone would put a year-old passage naming both the subject and the village
 *   after a new one naming only the subject; the score orders passages holding as many.
 *
 * Positions: `tsv = setweight(language, 'A') || seam || setweight(simple, 'B')`, and `||` shifts
 * the right side's positions by the left side's highest one; the seam (one weight-D lexeme) sits
 * right after A. Both sides share one parser, so a word at position p in A is at p + seam in B: B
 * positions are shifted back to compare words across fields.
 */

const K1 = 1.2;
const B = 0.75;
const FIELD_WEIGHT = { A: 1.0, B: 0.7 };
/** Words of a several-word alternative may be this many positions apart beyond adjacent (stop words). */
const MAX_GAP = 2;
const COVERAGE_BONUS = 1.5;
const PROXIMITY_BONUS = 0.5;
const PHRASE_BONUS = 0.5;
/** The budget is looked at every this many candidates. */
const CHECK_EVERY = 16;
const DAY_MS = 86_400_000;

export interface Bm25fRerankerOptions {
  /** Over this, the SQL order is kept (`reranked: false`). */
  budgetMs?: number;
  /** Milliseconds, monotonic; a test passes its own. */
  clock?: () => number;
}

/** A candidate's positions, words numbered as the chunk's text (fields A and B aligned). */
interface Passage {
  lexemes: Map<string, TsPosition[]>;
  lengthA: number;
  lengthB: number;
  shiftB: number;
}

/** What a candidate holds of the query, before the collection's IDFs. */
interface Match {
  /** Per concept: the best alternative's saturated, weighted term frequency (0 when absent). */
  strength: Float64Array;
  /** Per concept: the weight of the best alternative present (0 when absent). */
  present: Float64Array;
  matched: number;
  /** matched / smallest window (at most 1), when at least two concepts matched; else 0. */
  closeness: number;
  phrase: boolean;
}

export class Bm25fReranker extends Reranker {
  private readonly budgetMs: number;
  private readonly clock: () => number;

  constructor({ budgetMs = 50, clock = () => performance.now() }: Bm25fRerankerOptions = {}) {
    super();
    this.budgetMs = budgetMs;
    this.clock = clock;
  }

  override rerank<T extends RerankCandidate>(
    candidates: T[],
    query: RerankQuery,
    now: Date,
  ): RerankResult<T> {
    if (candidates.length <= 1) return sqlOrder(candidates);
    const started = this.clock();
    const overBudget = () => this.clock() - started > this.budgetMs;

    const wanted = [...query.phrase];
    for (const concept of query.concepts)
      for (const alternative of concept.alternatives)
        for (const forms of alternative.lexemes) wanted.push(...forms);
    const keep = new LexemeFilter(wanted);

    const passages: Passage[] = [];
    let totalA = 0;
    let totalB = 0;
    for (let i = 0; i < candidates.length; i++) {
      if (i % CHECK_EVERY === CHECK_EVERY - 1 && overBudget()) return sqlOrder(candidates);
      const passage = toPassage(parseTsvector(candidates[i].tsv, keep));
      totalA += passage.lengthA;
      totalB += passage.lengthB;
      passages.push(passage);
    }
    const averageA = totalA / candidates.length;
    const averageB = totalB / candidates.length;

    const matches: Match[] = [];
    for (let i = 0; i < passages.length; i++) {
      if (i % CHECK_EVERY === CHECK_EVERY - 1 && overBudget()) return sqlOrder(candidates);
      matches.push(match(passages[i], query, averageA, averageB));
    }

    // IDF per concept over the candidates.
    const conceptCount = query.concepts.length;
    const idf = new Float64Array(conceptCount);
    let maxIdf = 0;
    for (let c = 0; c < conceptCount; c++) {
      let holding = 0;
      for (const m of matches) if (m.present[c] > 0) holding++;
      if (holding === 0) continue;
      idf[c] = Math.log(1 + (candidates.length - holding + 0.5) / (holding + 0.5));
      maxIdf = Math.max(maxIdf, idf[c]);
    }
    // Nothing matched anywhere (a query of stop words): only the phrase can tell passages apart.
    const unit = (K1 + 1) * (maxIdf > 0 ? maxIdf : 1);

    const scored: { candidate: T; score: number; tier: number; order: number }[] = candidates.map(
      (candidate, i) => {
        const m = matches[i];
        let relevance = 0;
        let covered = 0;
        for (let c = 0; c < conceptCount; c++) {
          relevance += idf[c] * m.strength[c];
          covered += m.present[c];
        }
        const coverage = conceptCount === 0 ? 0 : covered / conceptCount;
        relevance += COVERAGE_BONUS * unit * coverage * coverage;
        relevance += PROXIMITY_BONUS * unit * m.closeness;
        if (m.phrase) relevance += PHRASE_BONUS * unit;
        return {
          candidate,
          score: relevance * SOURCE_WEIGHTS[candidate.source] * recency(candidate.occurredAt, now),
          tier: covered,
          order: i,
        };
      },
    );
    if (overBudget()) return sqlOrder(candidates);
    scored.sort((x, y) => y.tier - x.tier || y.score - x.score || x.order - y.order);
    return {
      ranked: scored.map(({ candidate, score, tier }) => ({ candidate, score, tier })),
      reranked: true,
    };
  }
}

function sqlOrder<T extends RerankCandidate>(candidates: T[]): RerankResult<T> {
  return {
    ranked: candidates.map((candidate): Scored<T> => ({ candidate, score: candidate.rank, tier: 0 })),
    reranked: false,
  };
}

/** 0.5 ^ (age in days / half-life); a date in the future counts as now. */
export function recency(occurredAt: Date, now: Date): number {
  const ageDays = Math.max(0, (now.getTime() - occurredAt.getTime()) / DAY_MS);
  return Math.pow(0.5, ageDays / RECENCY_HALF_LIFE_DAYS);
}

function toPassage(parsed: ParsedTsvector): Passage {
  // B was appended after A (see the header); anything else (B overlapping A) is taken as is.
  // the seam (the one weight-D lexeme) sits right after A: B starts after it
  const shiftB = parsed.counts.D > 0 ? parsed.maxPosition.D : 0;
  return { lexemes: parsed.lexemes, lengthA: parsed.counts.A, lengthB: parsed.counts.B, shiftB };
}

/** The word numbers where any of `forms` stands in `field`, ascending, once each. */
function wordsOf(passage: Passage, forms: string[], field: 'A' | 'B'): number[] {
  const shift = field === 'B' ? passage.shiftB : 0;
  let out: number[] | null = null;
  let several = false;
  for (const form of forms) {
    const positions = passage.lexemes.get(form);
    if (!positions) continue;
    if (out === null) out = [];
    else several = true;
    for (const { position, weight } of positions) if (weight === field) out.push(position - shift);
  }
  if (out === null) return [];
  if (several) {
    out.sort((x, y) => x - y);
    out = out.filter((value, i, all) => i === 0 || value !== all[i - 1]);
  }
  return out;
}

/**
 * Where an alternative occurs in a field (its first word's number). Several words count where
 * each follows the previous within MAX_GAP skipped positions.
 */
function occurrences(passage: Passage, alternative: RerankAlternative, field: 'A' | 'B'): number[] {
  const words = alternative.lexemes.filter((forms) => forms.length > 0);
  if (words.length === 0) return [];
  const starts = wordsOf(passage, words[0], field);
  if (words.length === 1 || starts.length === 0) return starts;
  let ends = starts.slice();
  let kept = starts;
  for (let w = 1; w < words.length && kept.length > 0; w++) {
    const next = wordsOf(passage, words[w], field);
    const keptStarts: number[] = [];
    const keptEnds: number[] = [];
    let j = 0;
    for (let k = 0; k < kept.length; k++) {
      while (j < next.length && next[j] <= ends[k]) j++;
      if (j < next.length && next[j] <= ends[k] + 1 + MAX_GAP) {
        keptStarts.push(kept[k]);
        keptEnds.push(next[j]);
      }
    }
    kept = keptStarts;
    ends = keptEnds;
  }
  return kept;
}

function match(passage: Passage, query: RerankQuery, averageA: number, averageB: number): Match {
  const conceptCount = query.concepts.length;
  const strength = new Float64Array(conceptCount);
  const present = new Float64Array(conceptCount);
  const normA = averageA > 0 ? 1 - B + (B * passage.lengthA) / averageA : 1;
  const normB = averageB > 0 ? 1 - B + (B * passage.lengthB) / averageB : 1;
  const places: number[][] = [];
  let matched = 0;

  for (let c = 0; c < conceptCount; c++) {
    let where: number[] = [];
    for (const alternative of query.concepts[c].alternatives) {
      const inA = occurrences(passage, alternative, 'A');
      const inB = occurrences(passage, alternative, 'B');
      if (inA.length === 0 && inB.length === 0) continue;
      const frequency = (FIELD_WEIGHT.A * inA.length) / normA + (FIELD_WEIGHT.B * inB.length) / normB;
      const value = (alternative.weight * frequency * (K1 + 1)) / (K1 + frequency);
      if (value > strength[c]) strength[c] = value;
      if (alternative.weight > present[c]) present[c] = alternative.weight;
      where = where.concat(inA, inB);
    }
    if (present[c] > 0) {
      matched++;
      places.push(where);
    }
  }

  return {
    strength,
    present,
    matched,
    closeness: matched >= 2 ? Math.min(1, matched / smallestWindow(places)) : 0,
    phrase: hasPhrase(passage, query.phrase),
  };
}

/** The fewest consecutive word numbers holding at least one entry of every list (each non-empty). */
function smallestWindow(lists: number[][]): number {
  const entries: { at: number; list: number }[] = [];
  lists.forEach((list, index) => {
    for (const at of list) entries.push({ at, list: index });
  });
  entries.sort((x, y) => x.at - y.at);
  const inWindow = new Int32Array(lists.length);
  let missing = lists.length;
  let best = Infinity;
  let left = 0;
  for (const entry of entries) {
    if (inWindow[entry.list]++ === 0) missing--;
    while (missing === 0) {
      const first = entries[left];
      best = Math.min(best, entry.at - first.at + 1);
      if (--inWindow[first.list] === 0) missing++;
      left++;
    }
  }
  return best;
}

/** The caller's words (two or more) at consecutive positions of field B. */
function hasPhrase(passage: Passage, phrase: string[]): boolean {
  if (phrase.length < 2) return false;
  const lists = phrase.map((lexeme) => wordsOf(passage, [lexeme], 'B'));
  if (lists.some((list) => list.length === 0)) return false;
  const following = lists.slice(1).map((list) => new Set(list));
  return lists[0].some((start) => following.every((set, k) => set.has(start + k + 1)));
}
