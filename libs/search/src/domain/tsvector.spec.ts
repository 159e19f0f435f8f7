import { LexemeFilter, parseTsvector } from './tsvector';

describe('parseTsvector', () => {
  it('reads what PostgreSQL prints for setweight(english, A) || setweight(simple, B)', () => {
    // psql: select setweight(to_tsvector('english', $$It's a lovely garden, the gardens near Marbella$$), 'A')
    //            || setweight(to_tsvector('simple', <same>), 'B')
    const parsed = parseTsvector(
      "'a':12B 'garden':5A,7A,14B 'gardens':16B 'it':10B 'love':4A 'lovely':13B 'marbella':9A,18B 'near':8A,17B 's':11B 'the':15B",
    );
    expect(parsed.lexemes.get('garden')).toEqual([
      { position: 5, weight: 'A' },
      { position: 7, weight: 'A' },
      { position: 14, weight: 'B' },
    ]);
    expect(parsed.lexemes.get('the')).toEqual([{ position: 15, weight: 'B' }]);
    expect(parsed.lexemes.size).toBe(10);
    expect(parsed.counts).toEqual({ A: 5, B: 9, C: 0, D: 0 });
    expect(parsed.minPosition).toEqual({ A: 4, B: 10, C: 0, D: 0 });
    expect(parsed.maxPosition).toEqual({ A: 9, B: 18, C: 0, D: 0 });
  });

  it('undoes doubled quotes and backslashes inside lexemes', () => {
    // psql: select $$'it''s':1A 'a\\b':2 '''':3B 'x''''y':4$$::tsvector prints it sorted, as here
    const parsed = parseTsvector("'''':3B 'a\\\\b':2 'it''s':1A 'x''''y':4");
    expect([...parsed.lexemes.keys()]).toEqual(["'", 'a\\b', "it's", "x''y"]);
    expect(parsed.lexemes.get("it's")).toEqual([{ position: 1, weight: 'A' }]);
  });

  it('reads a position without a letter as weight D, C as C, and a lexeme without positions', () => {
    const parsed = parseTsvector("'c':3C,5 'd':16383 'bare' plain:2B");
    expect(parsed.lexemes.get('c')).toEqual([
      { position: 3, weight: 'C' },
      { position: 5, weight: 'D' },
    ]);
    expect(parsed.lexemes.get('d')).toEqual([{ position: 16383, weight: 'D' }]);
    expect(parsed.lexemes.get('bare')).toEqual([]);
    expect(parsed.lexemes.get('plain')).toEqual([{ position: 2, weight: 'B' }]);
    expect(parsed.counts).toEqual({ A: 0, B: 1, C: 1, D: 2 });
    expect(parseTsvector('').lexemes.size).toBe(0);
  });

  it('keeps only the lexemes asked for, yet counts every position', () => {
    const keep = new LexemeFilter(['pool', "it's", 'pole', 'x']);
    const parsed = parseTsvector("'garden':1A,4B 'pool':2A,5B 'sea':3A,6B 'pooh':7 'it''s':8 'its':9", keep);
    expect([...parsed.lexemes.keys()]).toEqual(['pool', "it's"]);
    expect(parsed.counts).toEqual({ A: 3, B: 3, C: 0, D: 3 });
    expect(parsed.maxPosition.D).toBe(9);
  });

  it('refuses what is not a tsvector', () => {
    expect(() => parseTsvector("'open:1")).toThrow(/unterminated/);
    expect(() => parseTsvector("'x':0")).toThrow(/out of 1-16383/);
    expect(() => parseTsvector("'x':16384")).toThrow(/out of 1-16383/);
    expect(() => parseTsvector("'x':A")).toThrow(/position expected/);
    expect(() => parseTsvector("'x':1Q")).toThrow(/space expected/);
  });
});
