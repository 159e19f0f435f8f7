import { Bm25fReranker, recency } from './bm25f-reranker';
import type { RerankCandidate, RerankQuery } from './reranker';
import type { SearchSourceKind } from './search-source';

/**
 * Builds a tsvector the way the `search_chunk.tsv` column does, for a toy language: weight A = the
 * words minus STOP, "stemmed" by dropping a final s; then the seam `' '` (weight D) right after
 * the highest A position; weight B = every word, positions shifted past the seam (what `||` does).
 * Accents are dropped on both sides (unaccent).
 */
const STOP = new Set(['the', 'a', 'with', 'in', 'of', 'and', 'for', 'near', 'is', 'to', 'at', 'has']);
const stem = (word: string) => (word.length > 3 && word.endsWith('s') ? word.slice(0, -1) : word);
const plain = (word: string) => word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

function tsvOf(text: string): string {
  const words = text
    .split(/[^\p{L}\d]+/u)
    .filter(Boolean)
    .map(plain);
  const positions = new Map<string, string[]>();
  const add = (lexeme: string, position: string) =>
    positions.set(lexeme, [...(positions.get(lexeme) ?? []), position]);
  let maxA = 0;
  words.forEach((word, i) => {
    if (STOP.has(word)) return;
    add(stem(word), `${i + 1}A`);
    maxA = i + 1;
  });
  add(' ', `${maxA + 1}`);
  words.forEach((word, i) => add(word, `${i + 2 + maxA}B`));
  return [...positions].map(([lexeme, at]) => `'${lexeme.replace(/'/g, "''")}':${at.join(',')}`).join(' ');
}

/** An alternative as the pipeline hands it: each word's stem and plain form. */
const alternative = (text: string, weight = 1) => ({
  lexemes: text.split(' ').map((word) => [...new Set([stem(plain(word)), plain(word)])]),
  weight,
});

/** A query of one concept per caller word (stop words left out), `extra` adding expansions. */
function queryOf(text: string, extra: Record<string, string[]> = {}): RerankQuery {
  const words = text.split(' ').map(plain);
  return {
    concepts: words
      .filter((word) => !STOP.has(word))
      .map((word) => ({
        alternatives: [alternative(word), ...(extra[word] ?? []).map((alt) => alternative(alt, 0.5))],
      })),
    phrase: words,
  };
}

const NOW = new Date('2026-11-24T12:00:00Z');
let nextId = 0;

function chunk(text: string, overrides: Partial<RerankCandidate> = {}): RerankCandidate & { text: string } {
  nextId++;
  return {
    chunkId: `c${nextId}`,
    leadId: nextId,
    source: 'note',
    occurredAt: NOW,
    rank: 1 / nextId,
    tsv: tsvOf(text),
    text,
    ...overrides,
  };
}

/** Unrelated passages so IDFs behave as in a real candidate set. */
const filler = () =>
  [
    'Called the owner about the keys',
    'Sent the contract draft to the notary',
    'Viewing moved to Thursday morning',
  ].map((text) => chunk(text));

const texts = (ranked: { candidate: { text: string } }[]) => ranked.map(({ candidate }) => candidate.text);
const reranker = new Bm25fReranker({ budgetMs: Infinity });

describe('Bm25fReranker', () => {
  it('ranks a passage holding every concept above one repeating a single concept', () => {
    // "garden" and "pool" are in nearly every candidate (tiny IDF), "villa" in two: on BM25F alone
    // the passage repeating "villa" would win; coverage puts the one holding all three first.
    const all = chunk('Buyer wants a villa with a pool and a garden');
    const one = chunk('Villa villa villa: the villa tour, villa photos, villa plans, villa');
    const common = Array.from({ length: 27 }, () => chunk('Garden and pool maintenance invoice paid'));
    const { ranked, reranked } = reranker.rerank([one, ...common, all], queryOf('villa pool garden'), NOW);
    expect(reranked).toBe(true);
    expect(texts(ranked)[0]).toBe(all.text);
    const score = new Map(ranked.map((s) => [s.candidate, s.score]));
    expect(score.get(all)).toBeGreaterThan(2 * score.get(one)!);
  });

  it('counts a thesaurus expansion less than the caller’s own word', () => {
    const own = chunk('Looking for a flat in Madrid centre');
    const expanded = chunk('Looking for a piso in Madrid centre');
    const { ranked } = reranker.rerank(
      [expanded, own, ...filler()],
      queryOf('flat Madrid', { flat: ['piso'] }),
      NOW,
    );
    expect(texts(ranked).slice(0, 2)).toEqual([own.text, expanded.text]);
    expect(ranked[1].score).toBeGreaterThan(0);
    expect(ranked[1].score).toBeLessThan(ranked[0].score);
  });

  it('matches accents and word forms through the lexemes, and a several-word alternative only with its words together', () => {
    const together = chunk('Wants sea views from the terrace');
    const apart = chunk('The sea is far; the views are of the mountains');
    const gap = chunk('Sea with a view toward Gibraltar');
    const none = chunk('Mountain house, quiet street');
    const query: RerankQuery = {
      concepts: [{ alternatives: [alternative('sea views')] }],
      phrase: ['sea', 'views'],
    };
    const { ranked } = reranker.rerank([none, apart, gap, together], query, NOW);
    const score = Object.fromEntries(
      ranked.map(({ candidate, score }) => [(candidate as typeof together).text, score]),
    );
    expect(score[together.text]).toBeGreaterThan(0);
    expect(score[gap.text]).toBeGreaterThan(0); // two stop words between, stems match "view"
    expect(score[apart.text]).toBe(0);
    expect(score[none.text]).toBe(0);

    const accents = reranker.rerank(
      [chunk('Un jardín precioso'), chunk('Nada que ver')],
      queryOf('jardin'),
      NOW,
    );
    expect(accents.ranked[0].score).toBeGreaterThan(0);
    expect(accents.ranked[1].score).toBe(0);
  });

  it('gives the exact phrase a bonus, none for a one-word phrase', () => {
    const exact = chunk('They loved the sea view apartment');
    const reversed = chunk('They loved the view sea apartment');
    const { ranked } = reranker.rerank([reversed, exact, ...filler()], queryOf('sea view'), NOW);
    expect(texts(ranked).slice(0, 2)).toEqual([exact.text, reversed.text]);
    expect(ranked[0].score).toBeGreaterThan(ranked[1].score);

    const candidates = [chunk('A garden'), chunk('Another garden here'), ...filler()];
    const withPhrase = reranker.rerank(candidates, { ...queryOf('garden'), phrase: ['garden'] }, NOW);
    const withoutPhrase = reranker.rerank(candidates, { ...queryOf('garden'), phrase: [] }, NOW);
    expect(withPhrase.ranked.map((s) => s.score)).toEqual(withoutPhrase.ranked.map((s) => s.score));

    // a query of stop words only: the phrase alone orders
    const toBe = chunk('Whether to be or not');
    const stopWords = reranker.rerank(
      [chunk('Be quick to call'), toBe],
      { concepts: [], phrase: ['to', 'be'] },
      NOW,
    );
    expect(stopWords.ranked[0].candidate).toBe(toBe);
    expect(stopWords.ranked[1].score).toBe(0);
  });

  it('prefers the passage where the concepts stand close together', () => {
    const close = chunk(
      'Pool garden, then a long talk about schools, transport, prices, taxes and the notary',
    );
    const far = chunk('Pool, then a long talk about schools, transport, prices, taxes and the notary garden');
    const { ranked } = reranker.rerank([far, close, ...filler()], queryOf('garden pool'), NOW);
    expect(texts(ranked).slice(0, 2)).toEqual([close.text, far.text]);
    expect(ranked[0].score).toBeGreaterThan(ranked[1].score);
  });

  it('lines up field B with field A (shifted past the seam) to measure proximity across fields', () => {
    // "house" is only a stem (field A), "near" only a plain word (field B, a stop word in A).
    // Lined up, "Houses near …" has them adjacent; compared raw, "Near … houses" would look closer.
    const filling = Array.from({ length: 20 }, (_, i) => `word${i}`).join(' ');
    const adjacent = chunk(`Houses near ${filling}`);
    const apart = chunk(`Near ${filling} houses`);
    const query: RerankQuery = {
      concepts: [
        { alternatives: [{ lexemes: [['house']], weight: 1 }] },
        { alternatives: [{ lexemes: [['near']], weight: 1 }] },
      ],
      phrase: [],
    };
    const { ranked } = reranker.rerank([apart, adjacent, ...filler()], query, NOW);
    expect(texts(ranked).slice(0, 2)).toEqual([adjacent.text, apart.text]);
    expect(ranked[0].score).toBeGreaterThan(ranked[1].score);
  });

  it('orders otherwise equal passages by source: analysis, note, transcript = message (SQL order), email, task', () => {
    const sources: SearchSourceKind[] = ['task', 'email', 'message', 'transcript', 'note', 'analysis'];
    const candidates = sources.map((source) => chunk('Budget of 400k for a villa', { source }));
    const { ranked } = reranker.rerank([...candidates, ...filler()], queryOf('villa budget'), NOW);
    expect(ranked.slice(0, 6).map(({ candidate }) => candidate.source)).toEqual([
      'analysis',
      'note',
      'message',
      'transcript',
      'email',
      'task',
    ]);
    expect(ranked[0].score / ranked[1].score).toBeCloseTo(1.2 / 1.1, 10);
  });

  it('halves the score every 365 days, a future date counting as now', () => {
    const fresh = chunk('Wants a penthouse', { occurredAt: NOW });
    const old = chunk('Wants a penthouse', { occurredAt: new Date(NOW.getTime() - 365 * 86_400_000) });
    const older = chunk('Wants a penthouse', { occurredAt: new Date(NOW.getTime() - 730 * 86_400_000) });
    const future = chunk('Wants a penthouse', { occurredAt: new Date(NOW.getTime() + 86_400_000) });
    const { ranked } = reranker.rerank([older, old, fresh, future, ...filler()], queryOf('penthouse'), NOW);
    const score = new Map(ranked.map(({ candidate, score }) => [candidate, score]));
    expect(score.get(old)! / score.get(fresh)!).toBeCloseTo(0.5, 10);
    expect(score.get(older)! / score.get(fresh)!).toBeCloseTo(0.25, 10);
    expect(score.get(future)).toBe(score.get(fresh));
    expect(recency(new Date(NOW.getTime() - 182.5 * 86_400_000), NOW)).toBeCloseTo(Math.SQRT1_2, 10);
  });

  it('keeps the SQL order for ties', () => {
    const candidates = [chunk('Villa in Nerja'), chunk('Villa in Nerja'), chunk('Villa in Nerja')];
    const { ranked } = reranker.rerank(candidates, queryOf('villa'), NOW);
    expect(ranked.map(({ candidate }) => candidate)).toEqual(candidates);
  });

  it('puts a passage holding every concept first, however old, then orders by score', () => {
    const old = chunk('Wood oven in Riogordo', { occurredAt: new Date('2024-01-10T12:00:00Z') });
    const recent = chunk('Wood oven wood oven in Gaucin', { occurredAt: new Date('2026-11-20T12:00:00Z') });
    const { ranked } = reranker.rerank([recent, old], queryOf('wood oven riogordo'), NOW);
    expect(ranked.map((s) => s.candidate)).toEqual([old, recent]);
    expect(ranked.map((s) => s.tier)).toEqual([3, 2]);
    // without the tier, recency (two and a half half-lives) would have put the recent one first
    expect(ranked[1].score).toBeGreaterThan(ranked[0].score);
  });

  it('skips one candidate or none: SQL order, its rank as score, reranked false', () => {
    const only = chunk('Villa in Nerja', { rank: 0.42 });
    expect(reranker.rerank([only], queryOf('villa'), NOW)).toEqual({
      ranked: [{ candidate: only, score: 0.42, tier: 0 }],
      reranked: false,
    });
    expect(reranker.rerank([], queryOf('villa'), NOW)).toEqual({ ranked: [], reranked: false });
  });

  it('keeps the SQL order when the work goes over the budget', () => {
    const candidates = [
      chunk('Nothing about it', { rank: 0.9 }),
      ...Array.from({ length: 40 }, (_, i) => chunk(`Unrelated passage number ${i}`, { rank: 0.5 })),
      chunk('Villa with pool', { rank: 0.1 }),
    ];
    const query = queryOf('villa pool');
    // Unlimited, the rerank moves the only match first: the skip below is what keeps it last.
    expect(reranker.rerank(candidates, query, NOW).ranked[0].candidate).toBe(candidates.at(-1));

    let now = 0;
    const clock = () => (now += 20); // each look at the clock costs 20 ms
    const result = new Bm25fReranker({ budgetMs: 50, clock }).rerank(candidates, query, NOW);
    expect(result.reranked).toBe(false);
    expect(result.ranked.map(({ candidate }) => candidate)).toEqual(candidates);
    expect(result.ranked.map(({ score }) => score)).toEqual(candidates.map((c) => c.rank));

    const inTime = new Bm25fReranker({ budgetMs: 50, clock: () => 0 }).rerank(candidates, query, NOW);
    expect(inTime.reranked).toBe(true);
  });

  it('handles 200 candidates of about 300 lexemes', () => {
    const vocabulary = Array.from({ length: 2000 }, (_, i) => `word${i}`);
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const candidates = Array.from({ length: 200 }, (_, i) => {
      const words = Array.from({ length: 350 }, () => vocabulary[Math.floor(random() * vocabulary.length)]);
      if (i % 3 === 0) words.splice(100, 0, 'villa', 'with', 'pool');
      if (i % 5 === 0) words.splice(10, 0, 'garden');
      return chunk(words.join(' '));
    });
    const query = queryOf('villa with pool garden', { villa: ['chalet'], garden: ['jardin'] });
    const { ranked, reranked } = reranker.rerank(candidates, query, NOW);
    expect(reranked).toBe(true);
    expect(ranked).toHaveLength(200);
    // every fifteenth passage has all three concepts and the phrase
    const top = new Set(ranked.slice(0, 14).map(({ candidate }) => candidate));
    expect(candidates.filter((_, i) => i % 15 === 0).every((c) => top.has(c))).toBe(true);
  });
});
