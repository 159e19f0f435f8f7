/**
 * How retrieval reads each concept's newest matches (README "Search", "Retrieval plan"). Pure: the
 * numbers come from the planner's estimates (`search_estimate`), the decisions are made here.
 *
 * A concept the organization's passages rarely hold is read whole through the GIN index (its
 * matches are few). A common one (a word in a fifth of the passages) would make that read every
 * match to keep the newest few thousand; instead it is read in a date window, the organization's
 * newest passages expected to hold its share with some slack, from the planner's estimate. When
 * the window held fewer than the share (the estimate was high, or a member reaches few of the
 * leads), the next pass widens it to the density it showed, and after that reads the concept
 * whole.
 */

/** A concept expected to match at most this many passages is read whole (no window). */
export const WHOLE_READ_MATCHES = 20_000;
/**
 * A window is sized to hold this many times the concept's share, by the estimate (read by bitmaps,
 * a window costs the heap pages of its matches, and a second pass a whole statement; the estimate
 * counts a word's forms under several configurations apart, so it runs high).
 */
export const WINDOW_SLACK = 3;
/** A window that held no match grows by this factor on the next pass. */
export const WIDENING = 8;
/** A window refitted to the density it showed holds this many times the share. */
export const REFIT_SLACK = 1.5;
/** Passes at most (the last one reads whole). */
export const MAX_PASSES = 3;

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

/** The quoted lexemes of a tsquery text, each as a tsquery text of its own (`'garden'`), once each. */
export function lexemesOf(tsquery: string): string[] {
  return [...new Set(tsquery.match(/'(?:[^']|'')*'/g) ?? [])];
}

/**
 * A concept's expected matches: each alternative matches at most as many passages as its rarest
 * word (a phrase or an AND holds all its words); the forms of one alternative (the same words
 * under several configurations: `'hipoteca'`, `'hipotec'`; `'sea' <-> 'view'`, `'sea' <->
 * 'views'`) mostly match the same passages, since each passage holds its words under its own
 * language and as written (`sameWords`), so they count as their largest; different alternatives
 * add up. Still biased high (a phrase's words also appear apart): a high estimate costs a window
 * too small and one more pass, a low one more passages read.
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
 * The window of a concept's first pass: how many of the organization's newest passages to read
 * (null: the whole index, no window).
 */
export function firstWindow(
  estimate: number,
  share: number,
  chunks: number,
  wholeReadMatches = WHOLE_READ_MATCHES,
): number | null {
  if (estimate <= wholeReadMatches || chunks <= 0) return null;
  const rows = Math.ceil((WINDOW_SLACK * share * chunks) / estimate);
  return rows >= chunks ? null : rows;
}

/**
 * The next pass's window after one of `rows` passages held `found` matches, fewer than `share`
 * (null: read whole): sized from the density the window showed, with half as much again for
 * slack; `WIDENING` times when it held none.
 */
export function widened(rows: number, chunks: number, found: number, share: number): number | null {
  const next = found > 0 ? Math.ceil((rows * share * REFIT_SLACK) / found) : rows * WIDENING;
  return next >= chunks ? null : Math.max(next, rows * 2);
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
