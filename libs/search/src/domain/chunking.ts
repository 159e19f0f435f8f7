/**
 * Issue 18 item 1: a text over 2,000 characters is split at sentence ends into passages of at
 * most 2,000 characters, each starting 200 characters before the previous one ended (so a phrase
 * across the cut is whole in one of them). Pure.
 */
export const CHUNK_LIMITS = { maxChars: 2000, overlapChars: 200 } as const;

/** Where a sentence ends: after `.`, `!`, `?`, `…` or a line break, before the next word. */
const SENTENCE_END = /[.!?…\n]+["')\]]*\s+/g;

export function chunkText(text: string, limits = CHUNK_LIMITS): string[] {
  const whole = text.trim();
  if (whole.length <= limits.maxChars) return whole.length === 0 ? [] : [whole];
  const ends = sentenceEnds(whole);
  const chunks: string[] = [];
  let start = 0;
  for (;;) {
    if (whole.length - start <= limits.maxChars) {
      chunks.push(whole.slice(start).trim());
      return chunks;
    }
    const limit = start + limits.maxChars;
    // the last sentence end inside the window, past its overlap; else a space; else a hard cut
    const end =
      lastBefore(ends, limit, start + limits.overlapChars + 1) ??
      lastSpace(whole, limit, start + limits.overlapChars + 1) ??
      limit;
    chunks.push(whole.slice(start, end).trim());
    start = nextStart(whole, start, end - limits.overlapChars, ends);
  }
}

function sentenceEnds(text: string): number[] {
  const ends: number[] = [];
  for (const match of text.matchAll(SENTENCE_END)) ends.push(match.index + match[0].length);
  return ends;
}

function lastBefore(ends: number[], limit: number, min: number): number | null {
  for (let i = ends.length - 1; i >= 0; i--) {
    if (ends[i] <= limit) return ends[i] >= min ? ends[i] : null;
  }
  return null;
}

function lastSpace(text: string, limit: number, min: number): number | null {
  const at = text.lastIndexOf(' ', limit);
  return at >= min ? at + 1 : null;
}

/**
 * The next passage starts at least 200 characters before the cut: at the sentence start nearest
 * before that point (past the previous start), else at the next word.
 */
function nextStart(text: string, previous: number, from: number, ends: number[]): number {
  const sentence = lastBefore(ends, from, previous + 1);
  if (sentence !== null) return sentence;
  const space = text.indexOf(' ', from);
  return space === -1 || space - from > 40 ? from : space + 1;
}
