import {
  DESCRIPTION_LANGUAGES,
  DESCRIPTION_TONES,
  describeListing,
  featureLabel,
  fitToLength,
  type DescribedListing,
  type DescriptionLanguage,
  type DescriptionTone,
} from './description-templates';

const villa: DescribedListing = {
  propertyType: 'villa',
  operation: 'sale',
  rentPeriod: null,
  city: 'Marbella',
  community: 'Nueva Andalucía',
  bedrooms: 4,
  bathrooms: '3.5',
  areaUnit: 'sqm',
  livingArea: '320.00',
  plotArea: '1200.00',
  features: ['pool', 'sea_view', 'mystery_extra'],
  energyRating: 'B',
  price: '1850000.00',
  currency: 'EUR',
};

describe('description templates', () => {
  const pairs = DESCRIPTION_LANGUAGES.flatMap((language) =>
    DESCRIPTION_TONES.map((tone): [DescriptionLanguage, DescriptionTone] => [language, tone]),
  );
  it.each(pairs)('writes %s in the %s tone from the listing, deterministically', (language, tone) => {
    const options = { language, tone, maxLength: 1000 } as const;
    const text = describeListing(villa, options);
    expect(text).toBe(describeListing({ ...villa }, options));
    expect(text.length).toBeLessThanOrEqual(1000);
    expect(text).toContain('Marbella');
    expect(text).toContain('Nueva Andalucía');
    expect(text).toMatch(/\b4\b/);
    expect(text).toMatch(/320/);
    expect(text).toContain('mystery extra');
    expect(text).toMatch(/B\./);
    expect(text).toMatch(/1[.,\s\u00a0\u202f]?850[.,\s\u00a0\u202f]?000/);
  });

  it('differs between tones and between languages', () => {
    const texts = DESCRIPTION_LANGUAGES.flatMap((language) =>
      DESCRIPTION_TONES.map((tone) => describeListing(villa, { language, tone, maxLength: 5000 })),
    );
    expect(new Set(texts).size).toBe(texts.length);
  });

  it('translates known feature slugs and falls back to the slug with spaces', () => {
    expect(featureLabel('es', 'sea_view')).toBe('vistas al mar');
    expect(featureLabel('de', 'pool')).toBe('Swimmingpool');
    expect(featureLabel('fr', 'home_cinema')).toBe('home cinema');
    expect(describeListing(villa, { language: 'en', tone: 'neutral', maxLength: 1000 })).toContain(
      'a swimming pool, sea views and mystery extra',
    );
  });

  it('names the area unit, the rent period and leaves out what the listing lacks', () => {
    const flat: DescribedListing = {
      ...villa,
      propertyType: 'apartment',
      operation: 'rent',
      rentPeriod: 'week',
      community: null,
      bedrooms: 1,
      bathrooms: null,
      areaUnit: 'sqft',
      livingArea: 850,
      plotArea: null,
      features: [],
      energyRating: null,
      price: 700,
      currency: 'GBP',
    };
    const text = describeListing(flat, { language: 'en', tone: 'neutral', maxLength: 1000 });
    expect(text).toBe(
      'Apartment for rent in Marbella. It has 1 bedroom. The living area is 850 sq ft. Rent: £700 per week. ' +
        'Contact us for more information or to arrange a viewing.',
    );
  });

  it('cuts at a sentence end, else at a word end, never past maxLength', () => {
    expect(fitToLength('One two. Three four five.', 12)).toBe('One two.');
    expect(fitToLength('One two three four five', 12)).toBe('One two');
    expect(fitToLength('Onetwothreefour', 5)).toBe('Onetw');
    const long = { ...villa, features: Array.from({ length: 200 }, (_, i) => `feature_${i}`) };
    for (const maxLength of [200, 350, 1000]) {
      const text = describeListing(long, { language: 'it', tone: 'luxury', maxLength });
      expect(text.length).toBeLessThanOrEqual(maxLength);
      expect(text.endsWith('.')).toBe(true);
    }
  });
});
