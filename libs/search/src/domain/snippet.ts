/** INTERFACES.md "Search": a snippet is plain text of at most 30 words, `…` where the text was cut. */
export const SNIPPET_WORDS = 30;

const bare = (word: string) =>
  word
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}]/gu, '')
    .toLowerCase();

/** The snippet of `text` from its headline (`ts_headline` without markers): cut to 30 words, `…` at cut ends. */
export function snippetOf(text: string, headline: string): string {
  const textWords = text.split(/\s+/).filter((w) => bare(w) !== '');
  let words = headline.split(/\s+/).filter((w) => w !== '');
  if (words.length === 0) words = textWords.slice(0, SNIPPET_WORDS);
  const cutEnd = words.length > SNIPPET_WORDS;
  words = words.slice(0, SNIPPET_WORDS);
  const first = bare(words.find((w) => bare(w) !== '') ?? '');
  const last = bare([...words].reverse().find((w) => bare(w) !== '') ?? '');
  const startsText = textWords.length > 0 && bare(textWords[0]) === first;
  const endsText = !cutEnd && textWords.length > 0 && bare(textWords[textWords.length - 1]) === last;
  const body = words.join(' ');
  return `${startsText ? '' : '…'}${body}${endsText ? '' : '…'}`;
}

const trigramsOf = (word: string): Set<string> => {
  const padded = `  ${word} `;
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) grams.add(padded.slice(i, i + 3));
  return grams;
};

const likeness = (a: Set<string>, b: Set<string>): number => {
  let shared = 0;
  for (const gram of a) if (b.has(gram)) shared++;
  return shared / (a.size + b.size - shared);
};

/**
 * A passage the trigram pass found holds no word of the query as such, so its headline would be
 * its start: the 30 words around the word most like one of `words` (trigram likeness) instead.
 */
export function fuzzySnippetOf(text: string, words: string[]): string {
  const textWords = text.split(/\s+/).filter((w) => w !== '');
  const wanted = words.map((w) => trigramsOf(bare(w)));
  let best = 0;
  let bestScore = -1;
  textWords.forEach((word, i) => {
    const grams = trigramsOf(bare(word).normalize('NFD').replace(/\p{M}/gu, ''));
    const score = Math.max(...wanted.map((w) => likeness(w, grams)));
    if (score > bestScore) [best, bestScore] = [i, score];
  });
  const start = Math.max(0, Math.min(best - Math.floor(SNIPPET_WORDS / 3), textWords.length - SNIPPET_WORDS));
  return snippetOf(text, textWords.slice(start, start + SNIPPET_WORDS).join(' '));
}
