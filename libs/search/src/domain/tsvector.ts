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

const WEIGHTS: readonly TsWeight[] = ['A', 'B', 'C', 'D'];

/**
 * The lexemes to keep, with a cheap first test on (length, first character) so the thousands of
 * other lexemes are skipped without building a string: that string and its hash were most of the
 * parse's time.
 */
export class LexemeFilter {
  private readonly wanted: ReadonlySet<string>;
  private readonly shapes = new Uint8Array(64 * 256);

  constructor(lexemes: Iterable<string>) {
    this.wanted = new Set(lexemes);
    for (const lexeme of this.wanted)
      this.shapes[LexemeFilter.shape(lexeme.length, lexeme.charCodeAt(0))] = 1;
  }

  private static shape(length: number, first: number): number {
    return (Math.min(length, 63) << 8) | (first & 255);
  }

  /** False means surely not wanted; true means look the lexeme up. */
  mayKeep(length: number, first: number): boolean {
    return this.shapes[LexemeFilter.shape(length, first)] === 1;
  }

  keeps(lexeme: string): boolean {
    return this.wanted.has(lexeme);
  }
}

const isSpace = (code: number): boolean => code === 32 || code === 9 || code === 10 || code === 13;

/** 0-3 for a weight letter (A-D, either case), -1 otherwise. */
const weightIndex = (code: number): number =>
  code >= 65 && code <= 68 ? code - 65 : code >= 97 && code <= 100 ? code - 97 : -1;

const unreadable = (at: number, why: string): never => {
  throw new Error(`Unreadable tsvector at character ${at}: ${why}.`);
};

/**
 * Parses `text`. `keep`, when given, chooses the lexemes whose positions are returned (the rerank
 * keeps only the query's); counts, lowest and highest positions cover every lexeme regardless.
 */
export function parseTsvector(text: string, keep?: LexemeFilter): ParsedTsvector {
  const lexemes = new Map<string, TsPosition[]>();
  const counts = [0, 0, 0, 0];
  const minimum = [0, 0, 0, 0];
  const maximum = [0, 0, 0, 0];
  const length = text.length;
  // Without a backslash anywhere (the usual case), a lexeme's end is found by the native indexOf.
  const noBackslash = text.indexOf('\\') === -1;
  let i = 0;

  while (i < length) {
    const code = text.charCodeAt(i);
    if (isSpace(code)) {
      i++;
      continue;
    }

    // The lexeme: quoted as PostgreSQL prints it, or bare as one may type it. Built as a string
    // only when it may be kept.
    let from: number;
    let to: number;
    let escaped: string | null = null;
    if (code === QUOTE) {
      i++;
      from = i;
      let start = i;
      for (;;) {
        if (noBackslash) {
          i = text.indexOf("'", i);
          if (i === -1) unreadable(length, 'unterminated lexeme');
        }
        if (i >= length) unreadable(i, 'unterminated lexeme');
        const c = text.charCodeAt(i);
        if (c === BACKSLASH) {
          if (i + 1 >= length) unreadable(i, 'dangling backslash');
          escaped = (escaped ?? '') + text.slice(start, i);
          start = i + 1; // the escaped character starts the next part
          i += 2;
        } else if (c === QUOTE) {
          if (i + 1 < length && text.charCodeAt(i + 1) === QUOTE) {
            escaped = (escaped ?? '') + text.slice(start, i + 1); // keep one quote
            i += 2;
            start = i;
          } else break;
        } else i++;
      }
      to = i;
      if (escaped !== null) escaped += text.slice(start, i);
      i++; // the closing quote
    } else {
      from = i;
      while (i < length && !isSpace(text.charCodeAt(i)) && text.charCodeAt(i) !== COLON) i++;
      to = i;
    }
    if (to === from) unreadable(i, 'empty lexeme');

    let lexeme: string | null = null;
    if (escaped !== null) {
      if (!keep || keep.keeps(escaped)) lexeme = escaped;
    } else if (!keep) lexeme = text.slice(from, to);
    else if (keep.mayKeep(to - from, text.charCodeAt(from))) {
      const candidate = text.slice(from, to);
      if (keep.keeps(candidate)) lexeme = candidate;
    }

    const positions: TsPosition[] | null = lexeme === null ? null : [];
    if (i < length && text.charCodeAt(i) === COLON) {
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
        if (i === digitsFrom) unreadable(i, 'position expected');
        if (position < 1 || position > 16383) unreadable(i, `position ${position} out of 1-16383`);
        let weight = i < length ? weightIndex(text.charCodeAt(i)) : -1;
        if (weight === -1)
          weight = 3; // D is printed without a letter
        else i++;
        counts[weight]++;
        if (minimum[weight] === 0 || position < minimum[weight]) minimum[weight] = position;
        if (position > maximum[weight]) maximum[weight] = position;
        if (positions !== null) positions.push({ position, weight: WEIGHTS[weight] });
        if (i >= length || text.charCodeAt(i) !== COMMA) break;
        i++;
      }
    }
    if (i < length && !isSpace(text.charCodeAt(i))) unreadable(i, 'space expected after a lexeme');
    if (lexeme !== null && positions !== null) {
      const known = lexemes.get(lexeme);
      if (known) known.push(...positions);
      else lexemes.set(lexeme, positions);
    }
  }
  const byWeight = (values: number[]): Record<TsWeight, number> => ({
    A: values[0],
    B: values[1],
    C: values[2],
    D: values[3],
  });
  return {
    lexemes,
    counts: byWeight(counts),
    minPosition: byWeight(minimum),
    maxPosition: byWeight(maximum),
  };
}
