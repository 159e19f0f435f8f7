/**
 * How retrieval reads each concept's newest matches (README "Search", "Retrieval plan"). Pure: the
 * numbers come from the planner's estimates (`search_estimate`), the decisions are made here.
 *
 * A concept the organization's passages rarely hold is read whole through the GIN index (its
 * matches are few). A common one (a word in a fifth of the passages) would make that read every
 * match to keep the newest few thousand; instead it is read in date slices, newest first, in one
 * statement: the first slice is the organization's newest passages expected to hold its share
 * with a little slack, from the planner's estimate; only when it held less than `SLICE_ENOUGH` of
 * the share (the estimate was high, or a member reaches few of the leads) is the second read,
 * reaching back twice the first's time span (an agency that grew wrote fewer passages a day
 * before); then a third, reaching back eight of the first's spans from its floor, and only when
 * those held too few, everything older.
 */

/** A concept expected to match at most this many passages is read whole (no slices). */
export const WHOLE_READ_MATCHES = 20_000;
/**
 * The first slice is sized to hold this many times the concept's share, by the estimate (read by
 * bitmaps, a slice costs the heap pages of its matches; a first slice that held too few costs the
 * second's: the concept's GIN entries again and a wider slice's matches).
 */
export const SLICE_SLACK = 1.3;
/**
 * Slices that held this share of a concept's newest matches are enough: the next would cost as
 * much again for the last few hundred (SQL ranks at most `NEWEST_MATCHES`; a common concept's
 * newest 4,000 hold its 200 best candidates as well as its newest 5,000).
 */
export const SLICE_ENOUGH = 0.8;
/**
 * How far back from the first slice's floor each later slice but the last reaches, in time spans
 * of the first. A phrase is estimated as common as its rarest word, often twice its matches: its
 * first slice holds half its share, and a second reaching back two spans (an agency that grew
 * wrote fewer passages a day before: one span held a little over half the first's passages)
 * holds the rest, where one reaching four spans read twice the matches needed.
 */
export const SLICE_SPANS = [2, 8];

/**
 * The top-level alternatives of a tsquery text (`'a' | 'b' <-> 'c'` → `'a'`, `'b' <-> 'c'`),
 * duplicates dropped, first occurrence order kept. A text with parentheses is one branch (our
 * websearch texts produce none: OR binds loosest, so no alternative needs them).
 */
export function tsqueryBranches(tsquery: string): string[] {
  const text = tsquery.trim();
  if (text === '') return [];
  if (/[()]/.test(withoutLexemes(text))) return [text];
  return [...new Set(splitOutsideLexemes(text, ' | ').map((b) => b.trim()))].filter(Boolean);
}

/**
 * A query ranked against only the branches a passage holds a word of costs less from this many
 * branches on (`ts_rank_cd` takes about a microsecond per query item per passage; below, the
 * tests cost what they save).
 */
export const HELD_BRANCHES_FROM = 4;

/**
 * A concept of this many alternatives or more is read by one GIN scan per alternative (retrieve
 * statement): "sea views" and "garagem", nine alternatives each, read their slices 10-25 ms
 * faster so; concepts of two or three alternatives a little slower.
 */
export const BRANCH_SCANS_FROM = 6;

/** A branch of a ranked query, and the test that a passage holds any of its words. */
export interface HeldBranchTest {
  branch: string;
  /** The branch's lexemes OR'ed (`'sea' | 'view'` for `'sea' <-> 'view'`). */
  anyWord: string;
}

/**
 * The branches of a query to rank a passage against, each with the test that the passage holds
 * one of its words; null when the query is ranked as it is (fewer than `HELD_BRANCHES_FROM`
 * branches, or a branch with a negation, a prefix or a weight, for which the test would not
 * hold). `ts_rank_cd` against the branches a passage holds a word of equals `ts_rank_cd` against
 * the whole query: its covers are made of the positions of the query's lexemes in the passage, and
 * a branch none of whose lexemes is there adds no position and is false in every cover.
 */
export function heldBranchTests(tsquery: string): HeldBranchTest[] | null {
  const branches = tsqueryBranches(tsquery);
  if (branches.length < HELD_BRANCHES_FROM) return null;
  if (branches.some((branch) => !/^[\s|&]*(?:(?:<->|<\d+>)[\s|&]*)*$/.test(withoutLexemes(branch))))
    return null;
  return branches.map((branch) => ({ branch, anyWord: lexemesOf(branch).join(' | ') }));
}

/** The quoted lexemes of a tsquery text, each as a tsquery text of its own (`'garden'`), once each. */
export function lexemesOf(tsquery: string): string[] {
  return [...new Set(tsquery.match(/'(?:[^']|'')*'/g) ?? [])];
}

/**
 * A phrase branch without its stop words, their places kept as distances (`'vista' <-> 'al' <->
 * 'mar'` → `'vista' <2> 'mar'`), as the language configurations parse it already. `app_simple`
 * keeps every word, and the GIN index reads a phrase by all its words' entries: `al`, in every
 * other Spanish passage, cost a phrase 60 ms of entries. A branch that is not a phrase of lexemes,
 * or holds nothing but stop words, is kept as it is.
 */
export function withoutStopWords(branch: string, isStop: (lexeme: string) => boolean): string {
  const parts = branch.trim().split(/\s*(<->|<\d+>)\s*/);
  if (parts.length < 3) return branch;
  const words: { lexeme: string; gap: number }[] = [];
  let gap = 0;
  for (let i = 0; i < parts.length; i += 2) {
    if (!/^'(?:[^']|'')*'$/.test(parts[i])) return branch;
    gap += i === 0 ? 0 : parts[i - 1] === '<->' ? 1 : Number(parts[i - 1].slice(1, -1));
    if (isStop(unquoted(parts[i]))) continue;
    words.push({ lexeme: parts[i], gap: words.length === 0 ? 0 : gap });
    gap = 0;
  }
  if (words.length === 0) return branch;
  return words
    .map((w, i) => (i === 0 ? w.lexeme : `${w.gap === 1 ? '<->' : `<${w.gap}>`} ${w.lexeme}`))
    .join(' ');
}

/**
 * A concept's expected matches: each alternative matches at most as many passages as its rarest
 * word (a phrase or an AND holds all its words); the forms of one alternative (the same words
 * under several configurations: `'hipoteca'`, `'hipotec'`; `'sea' <-> 'view'`, `'sea' <->
 * 'views'`) mostly match the same passages, since each passage holds its words under its own
 * language and as written (`sameWords`), so they count as their largest; different alternatives
 * add up. Still biased high (a phrase's words also appear apart): a high estimate costs a first
 * slice too small and the second read, a low one more passages read.
 */
export function conceptMatchesEstimate(branches: string[], lexemeMatches: Map<string, number>): number {
  const groups: { lexemes: string[]; matches: number }[] = [];
  for (const branch of branches) {
    const lexemes = lexemesOf(branch).map(unquoted);
    const counts = lexemesOf(branch).map((lexeme) => lexemeMatches.get(lexeme) ?? 0);
    const matches = counts.length ? Math.min(...counts) : 0;
    const group = groups.find((g) => sameWords(g.lexemes, lexemes));
    if (group) group.matches = Math.max(group.matches, matches);
    else groups.push({ lexemes, matches });
  }
  return groups.reduce((total, group) => total + group.matches, 0);
}

/**
 * Two alternatives are forms of the same words when each word of one (a stop word dropped by one
 * configuration aside) has a form in the other that begins with it or that it begins with: a
 * stemmer's lexeme is its word cut short (`hipotec`, `vist`), the `app_simple` one the word itself.
 */
export function sameWords(a: string[], b: string[]): boolean {
  const [shorter, longer] = a.length <= b.length ? [a, b] : [b, a];
  return shorter.length > 0 && shorter.every((word) => longer.some((other) => prefixForms(word, other)));
}

/** A lexeme this short is no evidence of a shared word (`al`, `de`). */
const MIN_STEM = 3;

function prefixForms(a: string, b: string): boolean {
  if (Math.min(a.length, b.length) < MIN_STEM) return a === b;
  return a.startsWith(b) || b.startsWith(a);
}

function unquoted(lexeme: string): string {
  return lexeme.slice(1, -1).replace(/''/g, "'");
}

/**
 * The first slice of a concept: how many of the organization's newest passages it covers (null:
 * the whole index, no slices).
 */
export function firstSliceRows(
  estimate: number,
  share: number,
  chunks: number,
  wholeReadMatches = WHOLE_READ_MATCHES,
): number | null {
  if (estimate <= wholeReadMatches || chunks <= 0) return null;
  const rows = Math.ceil((SLICE_SLACK * share * chunks) / estimate);
  return rows >= chunks ? null : rows;
}

/** A concept's date slices, newest first; the last reaches back to the start. */
export interface Slices {
  /** The first slice's lower bound (null: no slices, the concept is read whole). */
  floor: Date | null;
  /**
   * The lower bounds of the slices after the first, newest first; null for the last, which reads
   * everything older (absent: the first is the only slice).
   */
  earlier?: (Date | null)[];
}

/**
 * The slices of a concept whose first covers the passages from `floor` (the organization's newest
 * at `newest`): the next ones reach back `SLICE_SPANS` times the first's time span from its floor,
 * the last everything older. The caller's `occurredFrom` bounds them all: when it is later than
 * the first slice's floor it is the only slice's floor (nothing older is wanted), and when it is
 * later than a later slice's bound, that slice is the last.
 */
export function slicesOf(floor: Date | null, newest: Date | null, from?: Date): Slices {
  if (floor === null) return { floor: null };
  if (from !== undefined && from >= floor) return { floor: from };
  const span = Math.max(1, (newest ?? floor).getTime() - floor.getTime());
  const earlier: (Date | null)[] = [];
  for (const spans of SLICE_SPANS) {
    const bound = new Date(floor.getTime() - spans * span);
    if (from !== undefined && from >= bound) break;
    earlier.push(bound);
  }
  return { floor, earlier: [...earlier, null] };
}

/** The text with its quoted lexemes blanked (so `(` or ` | ` inside a lexeme is not read as syntax). */
function withoutLexemes(text: string): string {
  return text.replace(/'(?:[^']|'')*'/g, (m) => ' '.repeat(m.length));
}

function splitOutsideLexemes(text: string, separator: string): string[] {
  const blank = withoutLexemes(text);
  const parts: string[] = [];
  let start = 0;
  for (let i = blank.indexOf(separator); i !== -1; i = blank.indexOf(separator, i + separator.length)) {
    parts.push(text.slice(start, i));
    start = i + separator.length;
  }
  parts.push(text.slice(start));
  return parts;
}
