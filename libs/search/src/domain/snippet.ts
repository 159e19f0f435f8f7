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
