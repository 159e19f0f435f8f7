import {
  conceptMatchesEstimate,
  firstSliceRows,
  heldBranchTests,
  lexemesOf,
  sameWords,
  withoutStopWords,
  tsqueryBranches,
  slicesOf,
  WHOLE_READ_MATCHES,
} from './retrieval-plan';

describe('retrieval plan', () => {
  it('splits a tsquery text into its top-level alternatives, once each', () => {
    expect(tsqueryBranches(`'hipoteca' | 'hipotec' | 'hipoteca' | 'home' <-> 'loan'`)).toEqual([
      `'hipoteca'`,
      `'hipotec'`,
      `'home' <-> 'loan'`,
    ]);
    expect(tsqueryBranches(`'a' & 'b' | 'c'`)).toEqual([`'a' & 'b'`, `'c'`]);
    expect(tsqueryBranches('')).toEqual([]);
  });

  it('reads a pipe or a parenthesis inside a lexeme as a letter, and keeps a grouped text whole', () => {
    expect(tsqueryBranches(`'a | b' | 'c(d'`)).toEqual([`'a | b'`, `'c(d'`]);
    expect(tsqueryBranches(`( 'a' | 'b' ) & 'c'`)).toEqual([`( 'a' | 'b' ) & 'c'`]);
  });

  it('lists the quoted lexemes of a tsquery text, quotes doubled inside kept', () => {
    expect(lexemesOf(`'o''neil' <-> 'home' | 'home'`)).toEqual([`'o''neil'`, `'home'`]);
  });

  it('estimates a concept as the sum of its alternatives, each as rare as its rarest word', () => {
    const counts = new Map([
      [`'sea'`, 50_000],
      [`'view'`, 30_000],
      [`'meerblick'`, 900],
    ]);
    expect(conceptMatchesEstimate([`'sea' <-> 'view'`, `'meerblick'`], counts)).toBe(30_900);
    expect(conceptMatchesEstimate([`'unknown'`], counts)).toBe(0);
  });

  it('counts the forms of one alternative under several configurations as the largest, not their sum', () => {
    const counts = new Map([
      [`'hipoteca'`, 118_000],
      [`'hipotec'`, 110_000],
      [`'mortgag'`, 40_000],
      [`'vistas'`, 60_000],
      [`'vista'`, 61_000],
      [`'vist'`, 62_000],
      [`'al'`, 500_000],
      [`'mar'`, 45_000],
    ]);
    expect(conceptMatchesEstimate([`'hipoteca'`, `'hipotec'`, `'mortgag'`], counts)).toBe(158_000);
    // a stop word one configuration dropped: still the same phrase
    expect(
      conceptMatchesEstimate(
        [`'vista' <-> 'al' <-> 'mar'`, `'vistas' <2> 'mar'`, `'vist' <2> 'mar'`],
        counts,
      ),
    ).toBe(45_000);
  });

  it('tells forms of the same words from other words', () => {
    expect(sameWords(['hipoteca'], ['hipotec'])).toBe(true);
    expect(sameWords(['vistas', 'mar'], ['vista', 'al', 'mar'])).toBe(true);
    expect(sameWords(['terraza'], ['terrazza'])).toBe(false);
    expect(sameWords(['al'], ['alto'])).toBe(false);
    expect(sameWords(['sea', 'view'], ['sea'])).toBe(true);
    expect(sameWords([], ['sea'])).toBe(false);
  });

  it('reads a rare concept whole and a common one from a first slice sized for 1.3 times its share', () => {
    expect(firstSliceRows(WHOLE_READ_MATCHES, 5000, 1_000_000)).toBeNull();
    // 200,000 of 1,000,000 passages: 6,500 expected matches in the newest 32,500
    expect(firstSliceRows(200_000, 5000, 1_000_000)).toBe(32_500);
    // a slice as large as the index is no slice
    expect(firstSliceRows(25_000, 20_000, 40_000)).toBeNull();
    expect(firstSliceRows(30, 5, 100, 10)).toBe(22);
  });

  it('reaches the second slice back two spans of the first, the third eight, the last to the start', () => {
    const day = 86_400_000;
    const newest = new Date('2026-11-20T00:00:00Z');
    const floor = new Date(newest.getTime() - 10 * day);
    const back = (days: number) => new Date(floor.getTime() - days * day);
    expect(slicesOf(floor, newest)).toEqual({ floor, earlier: [back(20), back(80), null] });
    expect(slicesOf(null, newest)).toEqual({ floor: null });
    // the caller's occurredFrom: after the first slice's floor, it is the only bound
    const lateFrom = new Date(newest.getTime() - 5 * day);
    expect(slicesOf(floor, newest, lateFrom)).toEqual({ floor: lateFrom });
    // inside the second slice: the second is the last
    expect(slicesOf(floor, newest, back(15))).toEqual({ floor, earlier: [null] });
    // inside the third: the third is the last
    expect(slicesOf(floor, newest, back(20))).toEqual({ floor, earlier: [null] });
    expect(slicesOf(floor, newest, back(50))).toEqual({ floor, earlier: [back(20), null] });
    // before it: four slices
    expect(slicesOf(floor, newest, back(200))).toEqual({ floor, earlier: [back(20), back(80), null] });
  });

  it('drops a phrase branch’s stop words, keeping their places as distances', () => {
    const stop = (word: string) => ['al', 'de', 'the'].includes(word);
    expect(withoutStopWords(`'vista' <-> 'al' <-> 'mar'`, stop)).toBe(`'vista' <2> 'mar'`);
    expect(withoutStopWords(`'plaza' <-> 'de' <2> 'garaje'`, stop)).toBe(`'plaza' <3> 'garaje'`);
    expect(withoutStopWords(`'the' <-> 'sea' <-> 'view'`, stop)).toBe(`'sea' <-> 'view'`);
    expect(withoutStopWords(`'sea' <-> 'the'`, stop)).toBe(`'sea'`);
    // nothing but stop words, no phrase, or other operators: as it is
    expect(withoutStopWords(`'de' <-> 'al'`, stop)).toBe(`'de' <-> 'al'`);
    expect(withoutStopWords(`'al'`, stop)).toBe(`'al'`);
    expect(withoutStopWords(`'vista' & 'al'`, stop)).toBe(`'vista' & 'al'`);
  });

  it('ranks a query of four branches or more against the branches a passage holds a word of', () => {
    expect(heldBranchTests(`'a' | 'b' <-> 'c' | 'd'`)).toBeNull();
    expect(heldBranchTests(`'sea' <-> 'view' | 'vistas' <2> 'mar' | 'price' & 'high' | 'meerblick'`)).toEqual(
      [
        { branch: `'sea' <-> 'view'`, anyWord: `'sea' | 'view'` },
        { branch: `'vistas' <2> 'mar'`, anyWord: `'vistas' | 'mar'` },
        { branch: `'price' & 'high'`, anyWord: `'price' | 'high'` },
        { branch: `'meerblick'`, anyWord: `'meerblick'` },
      ],
    );
    // a negation is true where none of its words is; a prefix or a weight matches other lexemes
    expect(heldBranchTests(`'a' | 'b' & !'c' | 'd' | 'e'`)).toBeNull();
    expect(heldBranchTests(`'a' | 'b':* | 'd' | 'e'`)).toBeNull();
    expect(heldBranchTests(`'a' | 'b':A | 'd' | 'e'`)).toBeNull();
    // operators inside a lexeme are letters
    expect(heldBranchTests(`'a!' | 'b:*' | 'd' | 'e'`)).toHaveLength(4);
  });
});
