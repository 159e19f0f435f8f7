import type { Response } from 'supertest';
import { ListingSources, PortalAllowanceExhausted, type ResolvedListing } from '@app/listings';
import { portalCacheKey } from '../../libs/listings/src/application/portal-cache';
import { DemoPortalAdapter } from '../../libs/listings/src/application/portals/demo-portal.adapter';
import { Agency, api, count, MINUTE, sql, TestApp, codeOf } from '../fixtures';
import { agentOf, insertListings } from '../fixtures/listings';

/**
 * Property sources (issue 16 item 5, INTERFACES.md "Listings"): the source list, searches and
 * listing reads of `demoportal` through the shared cache and the 300-a-day allowance (reserved
 * atomically before each upstream call, all-or-none for `ListingSources.resolve`), UTC-midnight
 * reset, feeds connected per agency, and the routes reaching the internal/feed reads.
 */

const messageOf = (res: Response): string | undefined => res.body.message ?? res.body.error?.message;

describe('Property sources: /property-sources and ListingSources', () => {
  let t: TestApp;
  let a: Agency;
  let b: Agency;
  let keyA: string;
  let memberKeyA: string;
  let keyB: string;
  /** Each test's searches differ from every other's, so the shared cache never links them. */
  let salt = 1;
  const distinct = () => ({ filters: { priceMin: salt++ } });

  const as = (key: string) => api(t, key);
  const search = (key: string, source: string, body: Record<string, unknown>) =>
    as(key).post(`/property-sources/${source}/search`).send(body);
  const setUsed = (organizationId: string, used: number, day = new Date()) =>
    sql(
      t,
      `insert into portal_allowance (organization_id, day, used) values (?, ?::date, ?)
       on conflict (organization_id, day) do update set used = excluded.used`,
      [organizationId, day.toISOString().slice(0, 10), used],
    );
  const usedOf = async (organizationId: string, day = new Date()) =>
    (
      await sql<{ used: number }>(
        t,
        'select used from portal_allowance where organization_id = ? and day = ?::date',
        [organizationId, day.toISOString().slice(0, 10)],
      )
    )[0]?.used ?? 0;
  const connectFeed = (organizationId: string, source: string) =>
    sql(
      t,
      `insert into property_feeds (id, organization_id, source, url, refresh_minutes, next_import_at, created_at, updated_at)
       values (gen_random_uuid(), ?, ?, 'https://feeds.example/x.xml', 60, now(), now(), now())
       on conflict (organization_id, source) do nothing`,
      [organizationId, source],
    );

  beforeAll(async () => {
    t = await TestApp.start();
    a = await t.seed.agency('Casa Sources');
    b = await t.seed.agency('Other Sources');
    keyA = (await t.seed.apiKey(a.admin, ['sources:read'])).key;
    memberKeyA = (await t.seed.apiKey(a.member, ['sources:read'])).key;
    keyB = (await t.seed.apiKey(b.admin, ['sources:read'])).key;
  });
  afterAll(() => t.stop());
  afterEach(async () => {
    t.clock.reset();
    await sql(t, 'delete from portal_allowance');
    jest.restoreAllMocks();
  });

  describe('GET /property-sources', () => {
    it('lists internal, the three feeds (connected per agency) and demoportal with its countries, marked simulated', async () => {
      const before = await as(keyA).get('/property-sources').expect(200);
      expect(before.body).toEqual({
        data: [
          { source: 'internal', kind: 'internal', connected: true, countries: [], simulated: false },
          { source: 'kyero', kind: 'feed', connected: false, countries: [], simulated: false },
          { source: 'redsp', kind: 'feed', connected: false, countries: [], simulated: false },
          { source: 'jsonfeed', kind: 'feed', connected: false, countries: [], simulated: false },
          {
            source: 'demoportal',
            kind: 'portal',
            connected: true,
            countries: ['es', 'it', 'pt'],
            simulated: true,
          },
        ],
      });

      await connectFeed(a.admin.organizationId, 'kyero');
      const after = await as(keyA).get('/property-sources').expect(200);
      expect(after.body.data.find((s: { source: string }) => s.source === 'kyero').connected).toBe(true);
      // another agency's feed connects nothing here
      const other = await as(keyB).get('/property-sources').expect(200);
      expect(other.body.data.find((s: { source: string }) => s.source === 'kyero').connected).toBe(false);
    });

    it('a member key with sources:read reads the same as an admin key', async () => {
      const admin = await as(keyA).get('/property-sources').expect(200);
      const member = await as(memberKeyA).get('/property-sources').expect(200);
      expect(member.body).toEqual(admin.body);
      await search(memberKeyA, 'demoportal', { country: 'it', ...distinct() }).expect(200);
    });

    it('a key without sources:read → 403 API_KEY_SCOPE_MISSING on every route', async () => {
      const key = (await t.seed.apiKey(a.admin, ['properties:read'])).key;
      for (const res of [
        await as(key).get('/property-sources'),
        await search(key, 'demoportal', { country: 'es' }),
        await as(key).get('/property-sources/demoportal/listings/dp-es-0001?country=es'),
      ]) {
        expect(res.status).toBe(403);
        expect(codeOf(res)).toBe('API_KEY_SCOPE_MISSING');
      }
      expect(await usedOf(a.admin.organizationId)).toBe(0);
    });

    it('a session token is refused (API keys only)', async () => {
      const res = await t.http.get('/property-sources').auth(a.admin.token, { type: 'bearer' });
      expect(res.status).toBe(401);
    });
  });

  describe('POST /property-sources/{source}/search', () => {
    it('a portal needs `country` es, it or pt (400 VALIDATION_FAILED), and nothing is counted', async () => {
      for (const body of [{}, { country: 'fr' }, { country: 'ES' }]) {
        const res = await search(keyA, 'demoportal', body);
        expect(res.status).toBe(400);
        expect(codeOf(res)).toBe('VALIDATION_FAILED');
        expect(JSON.stringify(res.body)).toContain('country');
      }
      expect(await usedOf(a.admin.organizationId)).toBe(0);
    });

    it('limit is 1-50 (51 → 400); the body is validated as /properties/search', async () => {
      for (const body of [
        { country: 'es', limit: 51 },
        { country: 'es', limit: 0 },
        { country: 'es', sort: 'cheapest' },
        { country: 'es', filters: { propertyTypes: ['castle'] } },
        { country: 'es', filters: { features: ['moat'] } },
        { country: 'es', boundingBox: { northEast: { lat: 91, lon: 0 }, southWest: { lat: 0, lon: 0 } } },
      ]) {
        const res = await search(keyA, 'demoportal', body);
        expect({ body, status: res.status, code: codeOf(res) }).toEqual({
          body,
          status: 400,
          code: 'VALIDATION_FAILED',
        });
      }
      await search(keyA, 'demoportal', { country: 'es', limit: 50, ...distinct() }).expect(200);
    });

    it('an unknown source → 404 `Property source not found.`', async () => {
      for (const source of ['idealista', 'INTERNAL', 'demoportal2']) {
        const res = await search(keyA, source, { country: 'es' });
        expect(res.status).toBe(404);
        expect(codeOf(res)).toBe('NOT_FOUND');
        expect(messageOf(res)).toBe('Property source not found.');
      }
    });

    it('a feed the agency has not connected → 404 (connected by another agency or not at all)', async () => {
      await connectFeed(b.admin.organizationId, 'redsp');
      const res = await search(keyA, 'redsp', {});
      expect(res.status).toBe(404);
      expect(messageOf(res)).toBe('Property source not found.');
      const jsonfeed = await search(keyB, 'jsonfeed', {});
      expect(jsonfeed.status).toBe(404);
    });

    it('a portal search answers a page of summaries with ref {source, id, country}, cached false, simulated and the allowance', async () => {
      t.clock.set(new Date('2027-03-10T10:00:00Z'));
      const res = await search(keyA, 'demoportal', {
        country: 'es',
        page: 2,
        limit: 7,
        ...distinct(),
      }).expect(200);
      expect(Object.keys(res.body).sort()).toEqual(
        ['allowance', 'cached', 'data', 'hasMore', 'limit', 'page', 'simulated', 'total'].sort(),
      );
      // demoportal is sample data: the page says so
      expect(res.body).toMatchObject({ page: 2, limit: 7, hasMore: true, cached: false, simulated: true });
      expect(res.body.total).toBeGreaterThan(7);
      expect(res.body.total).toBeLessThanOrEqual(200);
      expect(res.body.allowance).toEqual({ used: 1, limit: 300, resetsAt: '2027-03-11T00:00:00.000Z' });
      expect(res.body.data).toHaveLength(7);
      for (const row of res.body.data) {
        expect(row.ref).toEqual({ source: 'demoportal', id: row.id, country: 'es' });
        expect(row.id).toMatch(/^dp-es-\d{4}$/);
        expect(row).toMatchObject({
          countryCode: 'ES',
          currency: 'EUR',
          status: 'ACTIVE',
          areaUnit: 'sqm',
          price: expect.stringMatching(/^\d+\.\d{2}$/),
          mainImageUrl: `https://picsum.photos/seed/${row.id}/1200/800`,
          imageCount: expect.any(Number),
          coordinates: { lat: expect.any(Number), lon: expect.any(Number) },
        });
      }
      // newest first (the default sort)
      const created = res.body.data.map((row: { createdAt: string }) => row.createdAt);
      expect([...created].sort().reverse()).toEqual(created);
      expect(await usedOf(a.admin.organizationId, t.clock.now())).toBe(1);
    });

    it('the sample data: 200 listings a country, deterministic, filters and sorts applied', async () => {
      const all = await search(keyA, 'demoportal', { country: 'pt', limit: 1 }).expect(200);
      expect(all.body.total).toBe(200);
      const again = await search(keyB, 'demoportal', { country: 'pt', limit: 1 }).expect(200);
      expect(again.body.data).toEqual(all.body.data);

      const body = {
        country: 'it',
        filters: { operation: 'sale', priceMin: 200_000, priceMax: 900_000, bedroomsMin: 2 },
        sort: 'price_asc',
        limit: 50,
      };
      const res = await search(keyA, 'demoportal', body).expect(200);
      expect(res.body.total).toBeGreaterThan(0);
      const prices = res.body.data.map((row: { price: string }) => Number(row.price));
      expect([...prices].sort((x, y) => x - y)).toEqual(prices);
      for (const row of res.body.data) {
        expect(row.operation).toBe('sale');
        expect(Number(row.price)).toBeGreaterThanOrEqual(200_000);
        expect(Number(row.price)).toBeLessThanOrEqual(900_000);
        expect(row.bedrooms).toBeGreaterThanOrEqual(2);
      }

      // a box around Lisbon only holds Lisbon's listings
      const box = await search(keyA, 'demoportal', {
        country: 'pt',
        boundingBox: { southWest: { lat: 38.6, lon: -9.25 }, northEast: { lat: 38.85, lon: -9.0 } },
        limit: 50,
      }).expect(200);
      expect(box.body.total).toBeGreaterThan(0);
      for (const row of box.body.data) expect(row.city).toBe('Lisboa');
      // a box crossing the antimeridian (lon 170 → -170) holds nothing of Europe
      const far = await search(keyA, 'demoportal', {
        country: 'pt',
        boundingBox: { southWest: { lat: -60, lon: 170 }, northEast: { lat: 60, lon: -170 } },
      }).expect(200);
      expect(far.body.total).toBe(0);
      // …but one from lon 30 around the world to lon 20 holds every one of them
      const wide = await search(keyA, 'demoportal', {
        country: 'pt',
        boundingBox: { southWest: { lat: -89, lon: 30 }, northEast: { lat: 89, lon: 20 } },
        limit: 1,
      }).expect(200);
      expect(wide.body.total).toBe(200);
      // q: accent-insensitive words
      const q = await search(keyA, 'demoportal', {
        country: 'es',
        filters: { q: 'malaga' },
        limit: 5,
      }).expect(200);
      expect(q.body.total).toBeGreaterThan(0);
      for (const row of q.body.data) expect(row.city).toBe('Málaga');
    });

    it('the same search again (keys in another order, scope sent) is a cache hit: cached true, allowance unchanged', async () => {
      const body = {
        country: 'es',
        sort: 'price_desc',
        filters: { priceMin: 123_456, propertyTypes: ['villa', 'house'] },
      };
      const first = await search(keyA, 'demoportal', body).expect(200);
      expect(first.body.cached).toBe(false);
      expect(first.body.allowance.used).toBe(1);
      const again = await search(keyA, 'demoportal', {
        scope: 'network',
        filters: { propertyTypes: ['house', 'villa', 'house'], priceMin: 123_456 },
        sort: 'price_desc',
        country: 'es',
        page: 1,
        limit: 20,
      }).expect(200);
      expect(again.body).toEqual({ ...first.body, cached: true });
      expect(await usedOf(a.admin.organizationId)).toBe(1);
      // another country is another request
      const italy = await search(keyA, 'demoportal', { ...body, country: 'it' }).expect(200);
      expect(italy.body.cached).toBe(false);
      expect(italy.body.allowance.used).toBe(2);
    });

    it('the cache expires after 15 minutes: the next search costs a call again', async () => {
      const start = new Date('2027-04-02T09:00:00Z');
      t.clock.set(start);
      const body = { country: 'pt', ...distinct() };
      expect((await search(keyA, 'demoportal', body).expect(200)).body.cached).toBe(false);
      t.clock.set(new Date(start.getTime() + 14 * MINUTE));
      expect((await search(keyA, 'demoportal', body).expect(200)).body.cached).toBe(true);
      t.clock.set(new Date(start.getTime() + 15 * MINUTE + 1000));
      const later = await search(keyA, 'demoportal', body).expect(200);
      expect(later.body).toMatchObject({ cached: false, allowance: { used: 2 } });
      // the write purged the expired rows (lazily, no job)
      expect(
        await count(t, 'select count(*) as n from portal_cache where expires_at <= ?', [t.clock.now()]),
      ).toBe(0);
    });

    it('another agency shares the cache but not the allowance', async () => {
      const body = { country: 'it', ...distinct() };
      await search(keyA, 'demoportal', body).expect(200);
      await setUsed(a.admin.organizationId, 300);
      const res = await search(keyB, 'demoportal', body).expect(200);
      expect(res.body).toMatchObject({ cached: true, allowance: { used: 0, limit: 300 } });
      const own = await search(keyB, 'demoportal', { country: 'it', ...distinct() }).expect(200);
      expect(own.body).toMatchObject({ cached: false, allowance: { used: 1 } });
      expect(await usedOf(a.admin.organizationId)).toBe(300);
    });

    it('call 301 of the day → 400 PROPERTY_PORTAL_QUOTA_EXHAUSTED; cached answers still serve', async () => {
      const cachedBody = { country: 'es', ...distinct() };
      await search(keyA, 'demoportal', cachedBody).expect(200);
      await setUsed(a.admin.organizationId, 300);
      const res = await search(keyA, 'demoportal', { country: 'es', ...distinct() });
      expect(res.status).toBe(400);
      expect(codeOf(res)).toBe('PROPERTY_PORTAL_QUOTA_EXHAUSTED');
      expect(await usedOf(a.admin.organizationId)).toBe(300);
      const hit = await search(keyA, 'demoportal', cachedBody).expect(200);
      expect(hit.body).toMatchObject({ cached: true, allowance: { used: 300, limit: 300 } });
      // a portal listing not cached is refused the same way
      const read = await as(keyA).get('/property-sources/demoportal/listings/dp-pt-0123?country=pt');
      expect(read.status).toBe(400);
      expect(codeOf(read)).toBe('PROPERTY_PORTAL_QUOTA_EXHAUSTED');
    });

    it('the allowance resets at midnight UTC', async () => {
      const lateEvening = new Date('2027-05-20T23:59:00Z');
      t.clock.set(lateEvening);
      await setUsed(a.admin.organizationId, 300, lateEvening);
      const refused = await search(keyA, 'demoportal', { country: 'es', ...distinct() });
      expect(codeOf(refused)).toBe('PROPERTY_PORTAL_QUOTA_EXHAUSTED');

      t.clock.set(new Date('2027-05-21T00:00:01Z'));
      const res = await search(keyA, 'demoportal', { country: 'es', ...distinct() }).expect(200);
      expect(res.body.allowance).toEqual({ used: 1, limit: 300, resetsAt: '2027-05-22T00:00:00.000Z' });
      expect(await usedOf(a.admin.organizationId, lateEvening)).toBe(300);
    });

    it('20 parallel distinct searches at 295 used → exactly 5 go upstream, 15 are refused', async () => {
      await setUsed(a.admin.organizationId, 295);
      const responses = await Promise.all(
        Array.from({ length: 20 }, () => search(keyA, 'demoportal', { country: 'it', ...distinct() })),
      );
      const statuses = responses.map((res) => res.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(5);
      expect(statuses.filter((s) => s === 400)).toHaveLength(15);
      for (const res of responses.filter((r) => r.status === 400))
        expect(codeOf(res)).toBe('PROPERTY_PORTAL_QUOTA_EXHAUSTED');
      for (const res of responses.filter((r) => r.status === 200)) expect(res.body.cached).toBe(false);
      expect(await usedOf(a.admin.organizationId)).toBe(300);
    });

    it('a portal that fails → 503, the reserved call stays counted and nothing is cached', async () => {
      const body = { country: 'es', ...distinct() };
      jest.spyOn(t.get(DemoPortalAdapter), 'search').mockRejectedValue(new Error('portal down'));
      const res = await search(keyA, 'demoportal', body);
      expect(res.status).toBe(503);
      expect(await usedOf(a.admin.organizationId)).toBe(1);
      jest.restoreAllMocks();
      const retry = await search(keyA, 'demoportal', body).expect(200);
      expect(retry.body).toMatchObject({ cached: false, allowance: { used: 2 } });
    });

    it('internal and connected feeds search their own rows (filters, paging) and never count', async () => {
      const org = a.admin.organizationId;
      await connectFeed(org, 'jsonfeed');
      const agent = await agentOf(t, a.admin);
      await insertListings(t, org, agent, 12, { city: 'Madrid' });
      await insertListings(t, org, agent, 3, { city: 'Toledo' });
      await insertListings(t, org, null, 7, { city: 'Madrid', source: 'jsonfeed' });
      await setUsed(org, 300);
      for (const [source, madrid] of [
        ['internal', 12],
        ['jsonfeed', 7],
      ] as const) {
        const res = await search(keyA, source, { page: 2, limit: 5, filters: { city: 'Madrid' } }).expect(
          200,
        );
        expect(res.body).toMatchObject({
          page: 2,
          limit: 5,
          total: madrid,
          hasMore: madrid > 10,
          cached: false,
          simulated: false,
          allowance: { used: 300, limit: 300, resetsAt: expect.any(String) },
        });
        expect(res.body.data).toHaveLength(Math.min(5, madrid - 5));
        for (const row of res.body.data) {
          expect(row.city).toBe('Madrid');
          expect(row.ref).toEqual({ source, id: row.id });
        }
      }
      expect(await usedOf(org)).toBe(300);
    });
  });

  describe('GET /property-sources/{source}/listings/{id}', () => {
    it('reads a portal listing with ref.country; a repeat within the hour is free', async () => {
      t.clock.set(new Date('2027-06-01T08:00:00Z'));
      const res = await as(keyA)
        .get('/property-sources/demoportal/listings/dp-es-0042?country=es')
        .expect(200);
      expect(res.body).toMatchObject({
        id: 'dp-es-0042',
        ref: { source: 'demoportal', id: 'dp-es-0042', country: 'es' },
        countryCode: 'ES',
        currency: 'EUR',
        title: expect.any(String),
        description: expect.any(String),
        features: expect.any(Array),
        agencyName: expect.any(String),
        mainImageUrl: 'https://picsum.photos/seed/dp-es-0042/1200/800',
      });
      expect(res.body.images[0]).toEqual({ url: res.body.mainImageUrl, caption: res.body.title });
      expect(await usedOf(a.admin.organizationId, t.clock.now())).toBe(1);

      t.clock.advance(59 * MINUTE);
      const again = await as(keyB)
        .get('/property-sources/demoportal/listings/dp-es-0042?country=es')
        .expect(200);
      expect(again.body).toEqual(res.body);
      expect(await usedOf(b.admin.organizationId, t.clock.now())).toBe(0);
      expect(await usedOf(a.admin.organizationId, t.clock.now())).toBe(1);
    });

    it('a search row and the listing agree', async () => {
      const row = (await search(keyA, 'demoportal', { country: 'pt', limit: 1, ...distinct() }).expect(200))
        .body.data[0];
      const listing = await as(keyA)
        .get(`/property-sources/demoportal/listings/${row.id}?country=pt`)
        .expect(200);
      expect(listing.body).toMatchObject(row);
    });

    it('a portal listing needs its country (400); an unknown id or the wrong country → 404 Listing not found.', async () => {
      const missing = await as(keyA).get('/property-sources/demoportal/listings/dp-es-0001');
      expect(missing.status).toBe(400);
      expect(codeOf(missing)).toBe('VALIDATION_FAILED');
      const bad = await as(keyA).get('/property-sources/demoportal/listings/dp-es-0001?country=de');
      expect(bad.status).toBe(400);
      for (const path of [
        '/property-sources/demoportal/listings/dp-es-9999?country=es',
        '/property-sources/demoportal/listings/dp-es-0001?country=it',
      ]) {
        const res = await as(keyA).get(path);
        expect(res.status).toBe(404);
        expect(messageOf(res)).toBe('Listing not found.');
      }
    });

    it('an unknown source or a feed not connected → 404 `Property source not found.`', async () => {
      for (const path of ['/property-sources/nope/listings/x', '/property-sources/kyero/listings/abc']) {
        const res = await as(keyB).get(path);
        expect(res.status).toBe(404);
        expect(messageOf(res)).toBe('Property source not found.');
      }
    });

    it('reads internal and feed listings of the agency; missing, another agency’s feed row or a non-UUID id → 404', async () => {
      const org = b.admin.organizationId;
      await connectFeed(org, 'kyero');
      const agent = await agentOf(t, b.admin);
      const [own] = await insertListings(t, org, agent, 1, { city: 'Lisboa' });
      const [fed] = await insertListings(t, org, null, 1, { source: 'kyero' });
      const res = await as(keyB).get(`/property-sources/internal/listings/${own}`).expect(200);
      expect(res.body).toMatchObject({ id: own, ref: { source: 'internal', id: own }, city: 'Lisboa' });
      const feedRow = await as(keyB).get(`/property-sources/kyero/listings/${fed}`).expect(200);
      expect(feedRow.body.ref).toEqual({ source: 'kyero', id: fed });
      // the feed row is not an internal listing, nor is the own listing a kyero one
      for (const path of [
        `/property-sources/internal/listings/${fed}`,
        `/property-sources/kyero/listings/${own}`,
        '/property-sources/internal/listings/0190a0a0-0000-7000-8000-000000000009',
        '/property-sources/internal/listings/dp-es-0001',
        '/property-sources/kyero/listings/not-a-uuid',
      ]) {
        const missing = await as(keyB).get(path);
        expect(missing.status).toBe(404);
        expect(messageOf(missing)).toBe('Listing not found.');
      }
      // another agency's own feed is not readable here
      await connectFeed(a.admin.organizationId, 'kyero');
      expect((await as(keyA).get(`/property-sources/kyero/listings/${fed}`)).status).toBe(404);
    });
  });

  describe('ListingSources.resolve', () => {
    const resolve = (refs: { source: string; id: string; country?: string }[]) =>
      t.get(ListingSources).resolve(a.admin.organizationId, refs);

    it('answers each reference or why not, reserving only the distinct cache misses', async () => {
      await as(keyA).get('/property-sources/demoportal/listings/dp-it-0007?country=it').expect(200);
      await setUsed(a.admin.organizationId, 10);
      const results: ResolvedListing[] = await resolve([
        { source: 'demoportal', id: 'dp-it-0007', country: 'it' }, // cached: free
        { source: 'demoportal', id: 'dp-it-0008', country: 'it' },
        { source: 'demoportal', id: 'dp-it-0008', country: 'it' }, // the same: one call
        { source: 'demoportal', id: 'dp-it-0009' },
        { source: 'demoportal', id: 'dp-it-9999', country: 'it' },
        { source: 'idealista', id: 'x' },
        { source: 'internal', id: 'not-a-uuid' },
      ]);
      expect(results.map((r) => (r.ok ? (r.listing.ref as { id: string }).id : r.reason))).toEqual([
        'dp-it-0007',
        'dp-it-0008',
        'dp-it-0008',
        'country_required',
        'not_found',
        'unknown_source',
        'not_found',
      ]);
      expect(results[1]).toMatchObject({ ok: true, listing: { ref: { country: 'it' } } });
      expect(await usedOf(a.admin.organizationId)).toBe(12);
    });

    it('3 portal reads with 2 left → exhausted (429 DAILY_LIMIT_REACHED) and nothing reserved', async () => {
      await setUsed(a.admin.organizationId, 298);
      const refs = ['0101', '0102', '0103'].map((n) => ({
        source: 'demoportal',
        id: `dp-es-${n}`,
        country: 'es',
      }));
      const error = await resolve(refs).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PortalAllowanceExhausted);
      expect(error).toMatchObject({
        code: 'DAILY_LIMIT_REACHED',
        details: { used: 298, limit: 300, needed: 3 },
        headers: { 'Retry-After': expect.stringMatching(/^\d+$/) },
      });
      expect(await usedOf(a.admin.organizationId)).toBe(298);
      // nothing went upstream: none of them is cached now
      const keys = refs.map((ref) => portalCacheKey('listing', 'demoportal', 'es', { id: ref.id }));
      expect(await count(t, 'select count(*) as n from portal_cache where cache_key in (?)', [keys])).toBe(0);
      // two fit
      const two = await resolve(refs.slice(0, 2));
      expect(two.every((r) => r.ok)).toBe(true);
      expect(await usedOf(a.admin.organizationId)).toBe(300);
    });
  });
});
