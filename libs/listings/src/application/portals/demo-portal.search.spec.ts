import { FEATURE_SLUGS, PORTAL_COUNTRIES } from '../../domain/listing-catalogue';
import { demoListings } from './demo-portal.data';
import { fold, inBox, searchDemoListings } from './demo-portal.search';

const request = (over: Partial<Parameters<typeof searchDemoListings>[1]> = {}) => ({
  filters: {},
  boundingBox: null,
  sort: 'newest',
  page: 1,
  limit: 200,
  ...over,
});

describe('demoportal sample listings', () => {
  it('are 200 per country with ids dp-<country>-0001…0200, valid values and picsum images', () => {
    for (const country of PORTAL_COUNTRIES) {
      const listings = demoListings(country);
      expect(listings).toHaveLength(200);
      expect(listings[0].id).toBe(`dp-${country}-0001`);
      expect(listings[199].id).toBe(`dp-${country}-0200`);
      for (const listing of listings) {
        expect(listing.ref).toEqual({ source: 'demoportal', id: listing.id, country });
        expect(listing.countryCode).toBe(country.toUpperCase());
        expect(listing.mainImageUrl).toBe(`https://picsum.photos/seed/${listing.id}/1200/800`);
        expect(Number(listing.price)).toBeGreaterThan(0);
        expect(listing.features.every((slug) => FEATURE_SLUGS.includes(slug))).toBe(true);
        expect(Date.parse(listing.updatedAt)).toBeGreaterThanOrEqual(Date.parse(listing.createdAt));
      }
    }
  });

  it('are the same on every run (a seeded generator)', () => {
    const first = demoListings('es')[0];
    expect(first).toMatchObject({ id: 'dp-es-0001', currency: 'EUR', areaUnit: 'sqm', status: 'ACTIVE' });
    expect(JSON.stringify(demoListings('it'))).toBe(JSON.stringify(demoListings('it')));
  });
});

describe('demoportal search', () => {
  const all = demoListings('es');

  it('ANDs the filters and counts every match', () => {
    const { data, total } = searchDemoListings(
      all,
      request({ filters: { operation: 'rent', propertyTypes: ['apartment', 'penthouse'], bathroomsMin: 1 } }),
    );
    expect(total).toBe(
      all.filter(
        (l) =>
          l.operation === 'rent' &&
          ['apartment', 'penthouse'].includes(l.propertyType) &&
          (l.bathrooms ?? 0) >= 1,
      ).length,
    );
    expect(data).toHaveLength(total);
  });

  it('features are all-of; an agentId matches nothing; city is case- and accent-insensitive', () => {
    const { data } = searchDemoListings(all, request({ filters: { features: ['terrace', 'elevator'] } }));
    for (const row of data) {
      const listing = all.find((l) => l.id === row.id);
      expect(listing?.features).toEqual(expect.arrayContaining(['terrace', 'elevator']));
    }
    expect(
      searchDemoListings(all, request({ filters: { agentId: '0190a0a0-0000-7000-8000-000000000001' } }))
        .total,
    ).toBe(0);
    const malaga = all.filter((l) => l.city === 'Málaga').length;
    expect(searchDemoListings(all, request({ filters: { city: 'MÁLAGA' } })).total).toBe(malaga);
    expect(fold('Málaga Ñ')).toBe('malaga n');
  });

  it('sorts with the id as the tie-break and pages', () => {
    const byPrice = searchDemoListings(all, request({ sort: 'price_asc' })).data.map((r) => Number(r.price));
    expect([...byPrice].sort((a, b) => a - b)).toEqual(byPrice);
    const bedrooms = searchDemoListings(all, request({ sort: 'bedrooms_desc' })).data.map((r) => r.bedrooms);
    const firstNull = bedrooms.indexOf(null);
    expect(bedrooms.slice(firstNull).every((b) => b === null)).toBe(true);
    const page2 = searchDemoListings(all, request({ sort: 'updated', page: 2, limit: 10 }));
    const full = searchDemoListings(all, request({ sort: 'updated' }));
    expect(page2.data).toEqual(full.data.slice(10, 20));
  });

  it('a bounding box, also across the antimeridian', () => {
    const box = { southWest: { lat: 10, lon: 170 }, northEast: { lat: 20, lon: -170 } };
    expect(inBox({ lat: 15, lon: 175 }, box)).toBe(true);
    expect(inBox({ lat: 15, lon: -175 }, box)).toBe(true);
    expect(inBox({ lat: 15, lon: 0 }, box)).toBe(false);
    expect(inBox({ lat: 25, lon: 175 }, box)).toBe(false);
    expect(inBox(null, box)).toBe(false);
    expect(inBox(null, null)).toBe(true);
  });
});
