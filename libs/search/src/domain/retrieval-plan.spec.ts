import {
  conceptMatchesEstimate,
  firstWindow,
  lexemesOf,
  sameWords,
  tsqueryBranches,
  widened,
  WHOLE_READ_MATCHES,
  WIDENING,
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

  it('reads a rare concept whole and a common one in a window sized for three times its share', () => {
    expect(firstWindow(WHOLE_READ_MATCHES, 5000, 1_000_000)).toBeNull();
    // 200,000 of 1,000,000 passages: 15,000 expected matches in the newest 75,000
    expect(firstWindow(200_000, 5000, 1_000_000)).toBe(75_000);
    // a window as large as the index is no window
    expect(firstWindow(25_000, 10_000, 40_000)).toBeNull();
    expect(firstWindow(30, 5, 100, 10)).toBe(50);
  });

  it('widens a window to the density it showed, eightfold when it held nothing, whole past the index', () => {
    // 1,000 matches in 10,000 passages: 5,000 expected in 50,000, with half as much again
    expect(widened(10_000, 1_000_000, 1000, 5000)).toBe(75_000);
    expect(widened(10_000, 1_000_000, 0, 5000)).toBe(10_000 * WIDENING);
    // at least twice as wide
    expect(widened(10_000, 1_000_000, 4900, 5000)).toBe(20_000);
    expect(widened(200_000, 1_000_000, 10, 5000)).toBeNull();
  });
});
