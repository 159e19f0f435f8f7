import { formatAmount, listingFacts, listingQuery, MAX_QUERY_FEATURES } from './listing-query';

const query = (record: Record<string, unknown>) => listingQuery(listingFacts(record));

describe('listingQuery', () => {
  it('says an own listing record as the issue shows it', () => {
    expect(
      query({
        id: '0190a0a0-0000-7000-8000-000000000001',
        ref: { source: 'internal', id: '0190a0a0-0000-7000-8000-000000000001' },
        title: 'Villa Los Olivos',
        operation: 'sale',
        propertyType: 'villa',
        price: '1250000.00',
        currency: 'EUR',
        rentPeriod: null,
        city: 'Marbella',
        community: 'Nueva Andalucía',
        region: 'Málaga',
        bedrooms: 3,
        features: ['sea_view', 'private_pool', 'alarm'],
        additionalFeatures: null,
      }),
    ).toBe('3-bedroom villa for sale in Marbella with pool, sea views, 1,250,000 EUR');
  });

  it('says a rental with its period, a portal record as demoportal serves it', () => {
    expect(
      query({
        id: 'dp-es-0007',
        ref: { source: 'demoportal', id: 'dp-es-0007', country: 'es' },
        operation: 'rent',
        propertyType: 'apartment',
        price: '1200.00',
        currency: 'eur',
        rentPeriod: 'month',
        bedrooms: 2,
        city: 'Málaga',
        community: 'Andalucía',
        features: ['elevator', 'terrace', 'pets_allowed'],
      }),
    ).toBe('2-bedroom apartment for rent in Málaga with terrace, lift, pets allowed, 1,200 EUR a month');
  });

  it('names no bedrooms for a studio, plot or none, and words the types people use', () => {
    expect(query({ propertyType: 'studio', bedrooms: 0, operation: 'rent', city: 'Porto' })).toBe(
      'studio for rent in Porto',
    );
    expect(query({ propertyType: 'land', bedrooms: 4, operation: 'sale', city: 'Lagos' })).toBe(
      'plot of land for sale in Lagos',
    );
    expect(query({ propertyType: 'commercial', bedrooms: null, operation: 'sale', city: 'Roma' })).toBe(
      'commercial premises for sale in Roma',
    );
  });

  it('falls back to the area or province without a city', () => {
    expect(query({ propertyType: 'house', operation: 'sale', city: '', community: 'Costa del Sol' })).toBe(
      'house for sale in Costa del Sol',
    );
    expect(query({ propertyType: 'house', operation: 'sale', region: 'Algarve' })).toBe(
      'house for sale in Algarve',
    );
    expect(query({ propertyType: 'house', operation: 'sale', province: 'Alicante' })).toBe(
      'house for sale in Alicante',
    );
  });

  it('degrades gracefully: missing or malformed fields are left out', () => {
    expect(query({})).toBe('property');
    expect(
      query({
        propertyType: 42,
        operation: 'swap',
        bedrooms: 'many',
        price: 'on request',
        features: 'pool',
        city: ['x'],
      }),
    ).toBe('property');
    expect(query({ propertyType: 'villa', price: 0, currency: 'EUR' })).toBe('villa');
    expect(query({ propertyType: 'villa', price: 350000, bedrooms: '3' })).toBe('3-bedroom villa, 350,000');
  });

  it('reads features from slugs, legacy flags and true additional features, each once, in a fixed order', () => {
    const facts = listingFacts({
      propertyType: 'penthouse',
      features: ['Sea view', 'pool', 'communal_pool', 'heating', 'unknown_thing', 7],
      hasGarage: true,
      hasGarden: false,
      additionalFeatures: { seaView: true, rooftopBar: true, gym: 'yes', roofTerrace: true },
    });
    expect(facts.features).toEqual(['pool', 'roof terrace', 'sea views', 'garage']);
  });

  it(`names at most ${MAX_QUERY_FEATURES} features`, () => {
    const facts = listingFacts({
      features: ['pool', 'garden', 'terrace', 'balcony', 'sea_view', 'garage', 'elevator', 'gym'],
    });
    expect(facts.features).toEqual(['pool', 'garden', 'terrace', 'balcony', 'sea views', 'garage']);
  });

  it('keeps the operation and the city for the boosts', () => {
    expect(listingFacts({ operation: 'RENT', city: '  Lisboa ' })).toMatchObject({
      operation: 'rent',
      city: 'Lisboa',
      place: 'Lisboa',
    });
    expect(listingFacts({ community: 'Algarve' })).toMatchObject({ operation: null, city: null });
  });
});

describe('formatAmount', () => {
  it('groups thousands and keeps cents only when there are some', () => {
    expect(formatAmount('1250000.00')).toBe('1,250,000');
    expect(formatAmount('999')).toBe('999');
    expect(formatAmount('1000')).toBe('1,000');
    expect(formatAmount('950.5')).toBe('950.50');
    expect(formatAmount(1234567.891)).toBe('1,234,567.89');
    expect(formatAmount('0012000')).toBe('12,000');
  });

  it('refuses what is not a positive amount', () => {
    for (const value of ['0.00', 0, -5, '-5', '1e6', 'abc', '', null, undefined, Number.NaN])
      expect(formatAmount(value)).toBeNull();
  });
});
