/**
 * A search query as the pipeline uses it (issue 18 item 3, "Expand"): the caller's concepts (its
 * words and "quoted phrases", stop words left out), each with the thesaurus' alternatives at a
 * lower weight, and the texts the SQL statements take. Pure: no framework, no database.
 */

/** One way of saying a concept: the caller's own words (weight 1) or a thesaurus alternative. */
export interface ConceptAlternative {
  /** The words, in order (one for a word, several for a phrase such as `sea views`). */
  words: string[];
  weight: number;
  /** From the thesaurus, not typed by the caller. */
  expansion: boolean;
}

export interface QueryConcept {
  /** The caller's form first, then the thesaurus' alternatives. */
  alternatives: ConceptAlternative[];
}

export interface QueryPlan {
  concepts: QueryConcept[];
  /**
   * The `websearch_to_tsquery` text matching any alternative of any concept: alternatives joined
   * by ` or `, a several-word alternative as a "quoted phrase", characters websearch reads as
   * operators removed from inside words.
   */
  websearch: string;
  /** Every distinct alternative as text (one entry per alternative, words joined by a space). */
  terms: string[];
  /** The caller's words in order, stop words included: the exact-phrase bonus looks for them. */
  phraseWords: string[];
  /** The caller's words the trigram pass tries (typos, names): no stop words, at least 4 letters. */
  trigramWords: string[];
}

/** Thesaurus alternatives weigh this much against the caller's own words. */
export const EXPANSION_WEIGHT = 0.5;

/** Placeholder until the thesaurus lands: each word one concept, no expansion. */
export function planQuery(query: string): QueryPlan {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const unique = [...new Set(words)];
  return {
    concepts: unique.map((w) => ({ alternatives: [{ words: [w], weight: 1, expansion: false }] })),
    websearch: unique.join(' or '),
    terms: unique,
    phraseWords: words.slice(0, 30),
    trigramWords: unique.filter((w) => w.length >= 4).slice(0, 8),
  };
}
