import { canonicalJson, portalCacheKey } from './portal-cache';

describe('portal cache keys', () => {
  it('equal requests give equal keys whatever the key order; undefined fields are left out', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { y: 1, x: 0 }], c: undefined } })).toBe(
      '{"a":{"d":[2,{"x":0,"y":1}]},"b":1}',
    );
    expect(portalCacheKey('search', 'demoportal', 'es', { page: 1, sort: 'newest' })).toBe(
      portalCacheKey('search', 'demoportal', 'es', { sort: 'newest', page: 1 }),
    );
  });

  it('kind, portal and country are part of the key', () => {
    const keys = new Set([
      portalCacheKey('search', 'demoportal', 'es', { id: 'x' }),
      portalCacheKey('listing', 'demoportal', 'es', { id: 'x' }),
      portalCacheKey('listing', 'demoportal', 'it', { id: 'x' }),
      portalCacheKey('listing', 'other', 'it', { id: 'x' }),
    ]);
    expect(keys.size).toBe(4);
    expect([...keys][0]).toMatch(/^search:demoportal:es:[0-9a-f]{64}$/);
  });
});
