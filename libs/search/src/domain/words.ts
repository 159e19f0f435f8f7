/**
 * Words as search compares them (issue 18 "Expand"): runs of letters and digits, lower-case;
 * folded = without accents too, as `unaccent` reads them. Pure.
 */

const WORD = /[\p{L}\p{N}]+/gu;
const MARKS = /\p{M}+/gu;
const PLAIN = /^[a-z0-9]*$/;
/** Accented words already folded (bounded): normalizing is the slow part of planning a query. */
const FOLDED = new Map<string, string>();

/** The words of a text in order, lower-case, accents kept; apostrophes, hyphens and the rest split. */
export function wordsOf(text: string): string[] {
  return Array.from(text.toLowerCase().matchAll(WORD), (match) => match[0]);
}

/** A word lower-case and without accents (`Jardín` → `jardin`, `ß` kept). */
export function foldWord(word: string): string {
  const lower = word.toLowerCase();
  // most words are plain a-z and digits: nothing to normalize
  if (PLAIN.test(lower)) return lower;
  let folded = FOLDED.get(lower);
  if (folded === undefined) {
    folded = lower.normalize('NFD').replace(MARKS, '').normalize('NFC');
    if (FOLDED.size >= 10_000) FOLDED.clear();
    FOLDED.set(lower, folded);
  }
  return folded;
}
