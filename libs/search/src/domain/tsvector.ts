/**
 * Reads a tsvector as PostgreSQL prints it (`'jardin':4A,9B 'it''s':2 'x'`) so the rerank step can
 * work on positions without another round trip. Pure: no framework, no database.
 *
 * The printed form: lexemes in single quotes, a quote inside doubled (`''`) and a backslash
 * escaped (`\\`); positions 1-16383 after a colon, comma-separated, each followed by its weight
 * letter, except weight D which is printed without one; a lexeme may have no positions at all.
 */

export type TsWeight = 'A' | 'B' | 'C' | 'D';

export interface TsPosition {
  position: number;
  weight: TsWeight;
}

export interface ParsedTsvector {
  /** Lexeme → its positions, ascending (as PostgreSQL keeps them). Only the lexemes kept. */
  lexemes: Map<string, TsPosition[]>;
  /** How many positions carry each weight, over every lexeme (kept or not): the field lengths. */
  counts: Record<TsWeight, number>;
  /** The lowest and highest position of each weight, over every lexeme; 0 when there is none. */
  minPosition: Record<TsWeight, number>;
  maxPosition: Record<TsWeight, number>;
}

const QUOTE = 39; // '
const BACKSLASH = 92; // \
const COLON = 58;
const COMMA = 44;
const ZERO = 48;
const NINE = 57;

const WEIGHT_OF: Partial<Record<number, TsWeight>> = { 65: 'A', 66: 'B', 67: 'C', 68: 'D', 97: 'A', 98: 'B', 99: 'C', 100: 'D' };

const isSpace = (code: number): boolean => code === 32 || code === 9 || code === 10 || code === 13;

/**
 * Parses `text`. `keep` chooses the lexemes whose positions are returned (the rerank keeps only
 * the query's, so a 300-lexeme passage allocates a handful of arrays); counts cover everything.
 */
export function parseTsvector(text: string, keep: (lexeme: string) => boolean = () => true): ParsedTsvector {
  const lexemes = new Map<string, TsPosition[]>();
  const counts: Record<TsWeight, number> = { A: 0, B: 0, C: 0, D: 0 };
  const minPosition: Record<TsWeight, number> = { A: 0, B: 0, C: 0, D: 0 };
  const maxPosition: Record<TsWeight, number> = { A: 0, B: 0, C: 0, D: 0 };
  const length = text.length;
  let i = 0;

  const fail = (why: string): never => {
    throw new Error(`Unreadable tsvector at character ${i}: ${why}.`);
  };

  while (i < length) {
    const code = text.charCodeAt(i);
    if (isSpace(code)) {
      i++;
      continue;
    }

    // The lexeme: quoted as PostgreSQL prints it, or bare as one may type it.
    let lexeme: string;
    if (code === QUOTE) {
      i++;
      let start = i;
      let parts: string[] | null = null;
      for (;;) {
        if (i >= length) fail('unterminated lexeme');
        const c = text.charCodeAt(i);
        if (c === BACKSLASH) {
          (parts ??= []).push(text.slice(start, i));
          if (i + 1 >= length) fail('dangling backslash');
          start = i + 1; // the escaped character starts the next part
          i += 2;
        } else if (c === QUOTE) {
          if (text.charCodeAt(i + 1) === QUOTE) {
            (parts ??= []).push(text.slice(start, i + 1)); // keep one quote
            i += 2;
            start = i;
          } else break;
        } else i++;
      }
      lexeme = parts === null ? text.slice(start, i) : parts.join('') + text.slice(start, i);
      i++; // the closing quote
    } else {
      const start = i;
      while (i < length && !isSpace(text.charCodeAt(i)) && text.charCodeAt(i) !== COLON) i++;
      lexeme = text.slice(start, i);
    }
    if (lexeme.length === 0) fail('empty lexeme');

    const kept = keep(lexeme);
    const positions: TsPosition[] = [];
    if (text.charCodeAt(i) === COLON) {
      i++;
      for (;;) {
        let position = 0;
        const digitsFrom = i;
        while (i < length) {
          const c = text.charCodeAt(i);
          if (c < ZERO || c > NINE) break;
          position = position * 10 + (c - ZERO);
          i++;
        }
        if (i === digitsFrom) fail('position expected');
        if (position < 1 || position > 16383) fail(`position ${position} out of 1-16383`);
        let weight = WEIGHT_OF[text.charCodeAt(i)];
        if (weight === undefined) weight = 'D';
        else i++;
        counts[weight]++;
        if (minPosition[weight] === 0 || position < minPosition[weight]) minPosition[weight] = position;
        if (position > maxPosition[weight]) maxPosition[weight] = position;
        if (kept) positions.push({ position, weight });
        if (text.charCodeAt(i) !== COMMA) break;
        i++;
      }
    }
    if (i < length && !isSpace(text.charCodeAt(i))) fail('space expected after a lexeme');
    if (kept) {
      const known = lexemes.get(lexeme);
      if (known) known.push(...positions);
      else lexemes.set(lexeme, positions);
    }

  }
  return { lexemes, counts, minPosition, maxPosition };
}
