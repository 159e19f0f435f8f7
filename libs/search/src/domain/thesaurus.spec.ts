import { isStopWord, STOP_WORDS } from './stopwords';
import {
  foldedKey,
  groupOf,
  synonymsOf,
  THESAURUS_GROUPS,
  THESAURUS_LANGUAGES,
  THESAURUS_MAX_PHRASE_WORDS,
} from './thesaurus';
import { foldWord, wordsOf } from './words';

const texts = (words: string[][]) => words.map((w) => w.join(' '));
const entriesOf = (group: (typeof THESAURUS_GROUPS)[number]) =>
  THESAURUS_LANGUAGES.flatMap((language) => group[language] ?? []);

describe('words', () => {
  it('splits on anything but letters and digits, lower-case, accents kept', () => {
    expect(wordsOf("L'appartement 3-pièces, Jardín & m2!")).toEqual([
      'l',
      'appartement',
      '3',
      'pièces',
      'jardín',
      'm2',
    ]);
    expect(wordsOf(' \n"-" ')).toEqual([]);
  });

  it('folds case and accents as unaccent does', () => {
    expect(foldWord('Jardín')).toBe('jardin');
    expect(foldWord('ÉTÉ')).toBe('ete');
    expect(foldWord('Küche')).toBe('kuche');
    expect(foldWord('ação')).toBe('acao');
    expect(foldWord('plain')).toBe('plain');
  });
});

describe('stop words', () => {
  it('covers the six languages, without case or accents', () => {
    for (const word of [
      'the',
      'of',
      'with',
      'el',
      'los',
      'para',
      'il',
      'di',
      'che',
      'do',
      'da',
      'les',
      'du',
      'der',
      'und',
      'mit',
      'or',
    ])
      expect(isStopWord(word)).toBe(true);
    expect(isStopWord('THE')).toBe(true);
    expect(isStopWord('à')).toBe(true);
    expect(isStopWord('Über')).toBe(true);
    for (const word of ['piso', 'garden', 'jardín', 'pool', 'mar', 'sea', 'car', 'villa'])
      expect(isStopWord(word)).toBe(false);
    expect(STOP_WORDS.size).toBeGreaterThan(300);
  });
});

describe('thesaurus', () => {
  it('has about 300 concept groups with distinct ids', () => {
    expect(THESAURUS_GROUPS.length).toBeGreaterThanOrEqual(280);
    expect(new Set(THESAURUS_GROUPS.map((g) => g.id)).size).toBe(THESAURUS_GROUPS.length);
  });

  it('spans at least 4 of the 6 languages per group on average, and every group 4 or more', () => {
    const spans = THESAURUS_GROUPS.map(
      (g) => THESAURUS_LANGUAGES.filter((l) => (g[l] ?? []).length > 0).length,
    );
    expect(spans.reduce((a, b) => a + b, 0) / spans.length).toBeGreaterThanOrEqual(4);
    expect(THESAURUS_GROUPS.filter((_, i) => spans[i] < 4).map((g) => g.id)).toEqual([]);
  });

  it('stores words lower-case with single spaces, nothing a query could not type', () => {
    const bad = THESAURUS_GROUPS.flatMap(entriesOf).filter((entry) => wordsOf(entry).join(' ') !== entry);
    expect(bad).toEqual([]);
  });

  it('puts no word or phrase in two groups (accents ignored)', () => {
    const owner = new Map<string, string>();
    const twice: string[] = [];
    for (const group of THESAURUS_GROUPS) {
      for (const key of new Set(entriesOf(group).map((entry) => foldedKey(wordsOf(entry))))) {
        if (owner.has(key)) twice.push(`${key}: ${owner.get(key)} and ${group.id}`);
        owner.set(key, group.id);
      }
    }
    expect(twice).toEqual([]);
  });

  it('holds no stop word, and no phrase made only of stop words', () => {
    const stops = THESAURUS_GROUPS.flatMap(entriesOf).filter((entry) => wordsOf(entry).every(isStopWord));
    expect(stops).toEqual([]);
  });

  it('covers the budget and objection talk', () => {
    const talk = [
      'budget',
      'presupuesto',
      'price',
      'cheap',
      'too expensive',
      'demasiado caro',
      'trop cher',
      'zu teuer',
      'too small',
      'too far',
      'noisy',
      'needs work',
      'not ready',
      'thinking about it',
      'spouse must see it',
      'waiting for the mortgage',
      'mortgage',
      'mutuo',
      'deposit',
      'commission',
      'notary',
      'discount',
    ];
    expect(talk.filter((key) => groupOf(foldedKey(wordsOf(key))).length === 0)).toEqual([]);
  });

  it('finds a group without accents and answers its other members', () => {
    const garden = texts(synonymsOf(['jardin']));
    expect(garden).toEqual(expect.arrayContaining(['garden', 'giardino', 'jardim', 'garten']));
    expect(texts(synonymsOf(['JARDÍN']))).toEqual(garden);
    expect(garden).not.toContain('jardin');
    expect(texts(synonymsOf(['flat']))).toEqual(
      expect.arrayContaining(['piso', 'apartment', 'appartamento', 'wohnung']),
    );
    expect(texts(synonymsOf(['sea', 'views']))).toContain('vistas al mar');
    expect(synonymsOf(['zzzunknown'])).toEqual([]);
  });

  it('lists each language first before the second words of any', () => {
    const first = texts(synonymsOf(['garden'])).slice(0, 5);
    expect(first).toEqual(['jardín', 'giardino', 'jardim', 'garten', 'yard']);
  });

  it('knows its longest phrase', () => {
    const longest = Math.max(...THESAURUS_GROUPS.flatMap(entriesOf).map((entry) => wordsOf(entry).length));
    expect(THESAURUS_MAX_PHRASE_WORDS).toBe(longest);
    expect(longest).toBeLessThanOrEqual(6);
  });
});
