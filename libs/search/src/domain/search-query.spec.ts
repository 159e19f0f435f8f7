import { EXPANSION_WEIGHT, planQuery, PLAN_LIMITS, type QueryPlan } from './search-query';

const texts = (plan: QueryPlan) => plan.concepts.map((c) => c.alternatives.map((a) => a.words.join(' ')));
const callerForms = (plan: QueryPlan) => plan.concepts.map((c) => c.alternatives[0].words.join(' '));
const alternativeCount = (plan: QueryPlan) =>
  plan.concepts.reduce((sum, c) => sum + c.alternatives.length, 0);

/** What websearch_to_tsquery would read as syntax: a bare `or` word, `-` before a word, an odd number of quotes. */
function expectValidWebsearch(websearch: string) {
  expect(websearch.trim()).not.toBe('');
  expect((websearch.match(/"/g) ?? []).length % 2).toBe(0);
  expect(websearch).not.toMatch(/(^|\s)-/);
  // outside quotes, `or` appears only as the joiner between two alternatives
  const unquoted = websearch.replace(/"[^"]*"/g, 'PHRASE');
  const parts = unquoted.split(' or ');
  for (const part of parts) {
    expect(part).not.toBe('');
    expect(part.split(' ')).toHaveLength(1);
    expect(part.toLowerCase()).not.toBe('or');
  }
}

describe('planQuery', () => {
  it('expands a word accent-insensitively, the caller form first at weight 1', () => {
    const plan = planQuery('jardin');
    expect(plan.concepts).toHaveLength(1);
    const [own, ...expansions] = plan.concepts[0].alternatives;
    expect(own).toEqual({ words: ['jardin'], weight: 1, expansion: false });
    expect(expansions.map((a) => a.words.join(' '))).toEqual(
      expect.arrayContaining(['garden', 'giardino', 'jardim', 'garten']),
    );
    expect(expansions.every((a) => a.weight === EXPANSION_WEIGHT && a.expansion)).toBe(true);
    // jardín (es) and jardin (fr) are the caller's word to an unaccented index: not repeated
    expect(expansions.some((a) => ['jardin', 'jardín'].includes(a.words[0]))).toBe(false);
    expect(texts(planQuery('Jardín'))[0]).toEqual(['jardín', ...expansions.map((a) => a.words.join(' '))]);
  });

  it('expands flat to piso, apartment and appartamento', () => {
    expect(texts(planQuery('Flat'))[0]).toEqual(
      expect.arrayContaining(['flat', 'piso', 'apartment', 'appartamento']),
    );
  });

  it('reads a thesaurus phrase as one concept, the longest match first', () => {
    const plan = planQuery('sea views with a swimming pool');
    expect(callerForms(plan)).toEqual(['sea views', 'swimming pool']);
    expect(texts(plan)[0]).toContain('vistas al mar');
    expect(texts(plan)[1]).toEqual(expect.arrayContaining(['piscina', 'piscine', 'pool']));
    // a phrase holding a stop word
    expect(callerForms(planQuery('piso con vistas al mar'))).toEqual(['piso', 'vistas al mar']);
    // the longest: "too expensive" rather than "expensive"
    expect(callerForms(planQuery('client finds it too expensive'))).toEqual([
      'client',
      'finds',
      'too expensive',
    ]);
    // hyphens split like spaces
    expect(callerForms(planQuery('semi-detached'))).toEqual(['semi detached']);
  });

  it('keeps a quoted phrase as one concept, its words in order, stop words included', () => {
    const plan = planQuery('"casa de campo" "a b c" piscina "vistas al mar"');
    expect(callerForms(plan)).toEqual(['casa de campo', 'a b c', 'piscina', 'vistas al mar']);
    expect(texts(plan)[0]).toEqual(expect.arrayContaining(['farmhouse', 'finca']));
    expect(plan.concepts[1].alternatives).toHaveLength(1);
    expect(plan.websearch).toContain('"casa de campo"');
    expect(plan.websearch).toContain('"a b c"');
    expect(plan.phraseWords).toEqual([
      'casa',
      'de',
      'campo',
      'a',
      'b',
      'c',
      'piscina',
      'vistas',
      'al',
      'mar',
    ]);
    // an unmatched quote is ignored
    expect(callerForms(planQuery('"piso grande'))).toEqual(['piso', 'grande']);
  });

  it('drops stop words, but keeps them when the query has nothing else', () => {
    expect(callerForms(planQuery('the flat of the Señora with el jardín'))).toEqual([
      'flat',
      'señora',
      'jardín',
    ]);
    const only = planQuery('The or of');
    expect(callerForms(only)).toEqual(['the', 'or', 'of']);
    expectValidWebsearch(only.websearch);
    expect(only.websearch).toBe('the or "or" or of');
    expect(planQuery('or').websearch).toBe('"or"');
    expect(callerForms(planQuery('flat or house'))).toEqual(['flat', 'house']);
  });

  it('collapses duplicate concepts and folds synonyms the caller wrote into one concept', () => {
    const plan = planQuery('piso Piso jardin jardín flat');
    expect(plan.concepts).toHaveLength(2);
    expect(plan.concepts[0].alternatives.slice(0, 2)).toEqual([
      { words: ['piso'], weight: 1, expansion: false },
      { words: ['flat'], weight: 1, expansion: false },
    ]);
    expect(texts(plan)[0].filter((t) => t === 'flat')).toHaveLength(1);
    expect(callerForms(plan)).toEqual(['piso', 'jardin']);
  });

  it('caps alternatives per concept (8, or as asked) and for the whole plan', () => {
    const plan = planQuery('garage');
    expect(plan.concepts[0].alternatives).toHaveLength(1 + PLAN_LIMITS.alternativesPerConcept);
    expect(planQuery('garage', { maxAlternativesPerConcept: 2 }).concepts[0].alternatives).toHaveLength(3);
    expect(planQuery('garage', { maxAlternativesPerConcept: 0 }).concepts[0].alternatives).toHaveLength(1);
    const listing = planQuery(
      '3-bedroom villa for sale in Marbella with pool, sea views, garden, garage, terrace, lift, air conditioning, heating, furnished, near the beach and golf, 1,250,000 EUR',
    );
    expect(alternativeCount(listing)).toBeLessThanOrEqual(PLAN_LIMITS.alternatives);
    // shared fairly: every thesaurus concept keeps some alternatives
    for (const concept of listing.concepts.filter((c) =>
      ['villa', 'garden', 'lift', 'golf'].includes(c.alternatives[0].words.join(' ')),
    ))
      expect(concept.alternatives.length).toBeGreaterThan(1);
  });

  it('writes a websearch text of alternatives joined by or, phrases quoted, nothing else websearch reads as syntax', () => {
    const plan = planQuery('-piso "sea views" OR   jardin - pool "unclosed');
    expect(plan.websearch.startsWith('piso or ')).toBe(true);
    expect(plan.websearch).toContain(' or "sea views" or ');
    expect(plan.websearch).toContain(' or "vistas al mar" or ');
    expectValidWebsearch(plan.websearch);
    for (const query of ["l'appartement à Paris", '«villa» — 3 dormitorios', '¿precio?', '100%', 'Über'])
      expectValidWebsearch(planQuery(query).websearch);
    expect(planQuery('...').websearch).toBe('');
    expect(planQuery('').concepts).toEqual([]);
  });

  it('lists distinct terms, the caller forms first', () => {
    const plan = planQuery('garden pool garden');
    expect(plan.terms.slice(0, 2)).toEqual(['garden', 'pool']);
    expect(new Set(plan.terms).size).toBe(plan.terms.length);
    expect(plan.terms).toEqual(expect.arrayContaining(['jardín', 'piscina']));
  });

  it('keeps the caller words for the phrase bonus (≤ 30) and the trigram pass (no stop words, ≥ 4 characters, ≤ 8)', () => {
    const plan = planQuery('Marbela villa with the pool in Estepona, near the PLAYA');
    expect(plan.phraseWords).toEqual([
      'marbela',
      'villa',
      'with',
      'the',
      'pool',
      'in',
      'estepona',
      'near',
      'the',
      'playa',
    ]);
    expect(plan.trigramWords).toEqual(['marbela', 'villa', 'pool', 'estepona', 'near', 'playa']);
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    expect(planQuery(words).phraseWords).toHaveLength(PLAN_LIMITS.phraseWords);
    expect(planQuery(words).trigramWords).toEqual([
      'word0',
      'word1',
      'word2',
      'word3',
      'word4',
      'word5',
      'word6',
      'word7',
    ]);
    expect(planQuery('ab abc ab').trigramWords).toEqual([]);
  });

  it('plans a 500-character query within its bounds', () => {
    const query =
      'Looking for a quiet flat near the beach with a garden, pool and sea views, budget around 400000 euros, two bedrooms, parking, "too expensive"; '
        .repeat(5)
        .slice(0, 500);
    const plan = planQuery(query);
    expect(alternativeCount(plan)).toBeLessThanOrEqual(PLAN_LIMITS.alternatives);
    expect(plan.trigramWords.length).toBeLessThanOrEqual(PLAN_LIMITS.trigramWords);
    expectValidWebsearch(plan.websearch);
  });
});
