import { isStopWord, STOP_WORDS } from './stopwords';
import {
  foldedKey,
  groupOf,
  startsPhrase,
  THESAURUS_MAX_PHRASE_WORDS,
  type ThesaurusEntry,
} from './thesaurus';
import { foldWord, wordsOf } from './words';

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
  /** The caller's words outside quotes the trigram pass tries (typos, names): no stop words, at least 4 letters. */
  trigramWords: string[];
}

/** Thesaurus alternatives weigh this much against the caller's own words. */
export const EXPANSION_WEIGHT = 0.5;

/** Bounds that keep a long query (a listing as words, ~25 words) cheap to retrieve and rerank. */
export const PLAN_LIMITS = {
  /** Thesaurus alternatives per concept, the caller's form not counted (an option may change it). */
  alternativesPerConcept: 8,
  /** Alternatives of the whole plan, the caller's forms included (those are always kept). */
  alternatives: 60,
  phraseWords: 30,
  trigramWords: 8,
  trigramMinChars: 4,
  /** The vocabulary keeps words of at most 40 characters, a typo is 2 edits: a longer word has no match. */
  trigramMaxChars: 42,
} as const;

/** A concept as the caller wrote it, before expansion. */
interface Candidate {
  words: string[];
  /** The folded words joined by a space. */
  key: string;
  stop: boolean;
}

interface Draft {
  /** The caller's forms: one, or several when the caller wrote synonyms (`flat apartment`). */
  forms: string[][];
  /** Folded keys of the forms and of every member of their thesaurus groups. */
  group: Set<string>;
  synonyms: readonly ThesaurusEntry[];
  expansions: string[][];
}

/**
 * Issue 18 "Expand": the caller's query as concepts with their thesaurus alternatives and the
 * texts the retrieval statement, the trigram pass and the rerank take. Pure and fast (the
 * thesaurus is indexed at module load).
 */
export function planQuery(query: string, options: { maxAlternativesPerConcept?: number } = {}): QueryPlan {
  const perConcept = options.maxAlternativesPerConcept ?? PLAN_LIMITS.alternativesPerConcept;
  const segments = segmentsOf(query.trim());
  const candidates = segments.flatMap((segment) =>
    segment.quoted
      ? [{ words: segment.words, key: foldedKey(segment.words), stop: isStopPhrase(segment.words) }]
      : conceptsOf(segment.words),
  );
  const content = candidates.filter((candidate) => !candidate.stop);
  const drafts = collapse(content.length > 0 ? content : candidates);
  expand(drafts, perConcept);

  const concepts: QueryConcept[] = drafts.map((draft) => ({
    alternatives: [
      ...draft.forms.map((words) => ({ words, weight: 1, expansion: false })),
      ...draft.expansions.map((words) => ({ words, weight: EXPANSION_WEIGHT, expansion: true })),
    ],
  }));
  const callerWords = segments.flatMap((segment) => segment.words);
  return {
    concepts,
    websearch: websearchOf(concepts),
    terms: distinctTexts([
      ...drafts.flatMap((draft) => draft.forms),
      ...drafts.flatMap((draft) => draft.expansions),
    ]),
    phraseWords: callerWords.slice(0, PLAN_LIMITS.phraseWords),
    // quoted words are meant exactly: the typo pass leaves them out
    trigramWords: distinctTexts(
      segments
        .flatMap((segment) => (segment.quoted ? [] : segment.words))
        .filter((word) => !isStopWord(word) && typoLengthFits([...word].length))
        .map((word) => [word]),
    ).slice(0, PLAN_LIMITS.trigramWords),
  };
}

/** A word the typo pass can look up (levenshtein also refuses words past 255 characters). */
const typoLengthFits = (chars: number): boolean =>
  chars >= PLAN_LIMITS.trigramMinChars && chars <= PLAN_LIMITS.trigramMaxChars;

/** The query's `"quoted phrases"` and the free text between them, in order (typographic quotes too). */
function segmentsOf(query: string): { quoted: boolean; words: string[] }[] {
  const segments: { quoted: boolean; words: string[] }[] = [];
  const text = query.replace(/[“”„«»]/g, '"');
  let last = 0;
  for (const match of text.matchAll(/"([^"]*)"/g)) {
    segments.push({ quoted: false, words: wordsOf(text.slice(last, match.index)) });
    segments.push({ quoted: true, words: wordsOf(match[1]) });
    last = match.index + match[0].length;
  }
  // an unmatched quote is an ordinary character
  segments.push({ quoted: false, words: wordsOf(text.slice(last)) });
  return segments.filter((segment) => segment.words.length > 0);
}

/** A quoted phrase is a stop word only when it is one (`"the"`); a quoted `"to be"` is deliberate. */
function isStopPhrase(words: string[]): boolean {
  return words.length === 1 && isStopWord(words[0]);
}

/** Free text as concepts: the longest thesaurus phrase starting at each word (`sea views`), else the word. */
function conceptsOf(words: string[]): Candidate[] {
  const folded = words.map(foldWord);
  const concepts: Candidate[] = [];
  for (let i = 0; i < words.length;) {
    let length = startsPhrase(folded[i]) ? Math.min(THESAURUS_MAX_PHRASE_WORDS, words.length - i) : 1;
    while (length > 1 && groupOf(folded.slice(i, i + length).join(' ')).length === 0) length--;
    const key = length === 1 ? folded[i] : folded.slice(i, i + length).join(' ');
    concepts.push({ words: words.slice(i, i + length), key, stop: length === 1 && STOP_WORDS.has(key) });
    i += length;
  }
  return concepts;
}

/** Same concept twice → once; a synonym of an earlier concept (`flat apartment`) joins it as a caller's form. */
function collapse(candidates: Candidate[]): Draft[] {
  const drafts: Draft[] = [];
  const seen = new Set<string>();
  for (const { words, key } of candidates) {
    if (seen.has(key)) continue;
    seen.add(key);
    const owner = drafts.find((draft) => draft.group.has(key));
    if (owner) {
      owner.forms.push(words);
      continue;
    }
    const synonyms = groupOf(key);
    drafts.push({
      forms: [words],
      group: synonyms.length === 0 ? new Set([key]) : new Set(synonyms.map((entry) => entry.key)),
      synonyms,
      expansions: [],
    });
  }
  return drafts;
}

/** Alternatives in rounds (each concept's first, then each one's second…) so the plan's cap is shared fairly. */
function expand(drafts: Draft[], perConcept: number): void {
  let budget = PLAN_LIMITS.alternatives - drafts.reduce((sum, draft) => sum + draft.forms.length, 0);
  const pending = drafts.map((draft) => {
    const forms = new Set(draft.forms.map(foldedKey));
    return draft.synonyms
      .filter((entry) => !forms.has(entry.key))
      .slice(0, Math.max(0, perConcept))
      .map((entry) => entry.words);
  });
  for (let round = 0; budget > 0; round++) {
    let added = false;
    drafts.forEach((draft, i) => {
      if (budget > 0 && round < pending[i].length) {
        draft.expansions.push(pending[i][round]);
        budget--;
        added = true;
      }
    });
    if (!added) break;
  }
}

/**
 * Every alternative (those `keep` accepts) joined by ` or `; a phrase in double quotes. The words
 * hold only letters and digits, so nothing else is an operator; `or` alone would be one, so it
 * goes in quotes.
 */
export function websearchOf(
  concepts: QueryConcept[],
  keep: (alternative: ConceptAlternative) => boolean = () => true,
): string {
  const parts = concepts.flatMap((concept) =>
    concept.alternatives
      .filter(keep)
      .map(({ words }) => (words.length === 1 && words[0] !== 'or' ? words[0] : `"${words.join(' ')}"`)),
  );
  return [...new Set(parts)].join(' or ');
}

function distinctTexts(alternatives: string[][]): string[] {
  return [...new Set(alternatives.map((words) => words.join(' ')))];
}
