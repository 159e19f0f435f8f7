import { randomUUID } from 'node:crypto';
import { AppConfig } from '@app/platform';
import { ListingSearchQueries } from '../../libs/listings/src/application/listing-search.queries';
import { Agency, api, asSession, sql, TestApp, codeOf } from '../fixtures';

/**
 * Property search (issue 16 item 3, INTERFACES.md "Listings"): `POST /properties/search`, `/count`
 * and `/aggregations` over listings seeded with SQL in two agencies: every filter (areas in m² with
 * sqft listings converted, `q` accent-insensitive), every sort with its id tiebreaker, bounding
 * boxes (one across the antimeridian), the network scope's rules (ACTIVE, networkVisible, internal,
 * live, never the caller's own, coordinates only with showExactLocation, never `commission`), paging,
 * counts equal to totals, aggregations against counts made here, validation, scopes, member keys
 * (listings are agency-wide), and `sourcePage` for a feed's rows.
 */

/** The code of an error in either shape (the legacy one of the listing family, or the envelope). */

const SQFT = 0.09290304;
const T0 = Date.parse('2026-06-01T00:00:00.000Z');
const HOUR_MS = 3_600_000;

interface Seed {
  id: string;
  org: 'A' | 'B';
  title: string;
  source?: string;
  reference?: string | null;
  operation?: 'sale' | 'rent';
  propertyType?: string;
  status?: string;
  price: number;
  currency?: string;
  countryCode?: string;
  city: string;
  community?: string | null;
  addressLine1?: string | null;
  lat?: number | null;
  lon?: number | null;
  showExactLocation?: boolean;
  bedrooms?: number | null;
  bathrooms?: number | null;
  areaUnit?: 'sqm' | 'sqft';
  livingArea?: number | null;
  plotArea?: number | null;
  condition?: string | null;
  energyRating?: string | null;
  features?: string[];
  commission?: number | null;
  images?: { mediaId: string | null; extension: string | null; url: string | null; caption: string | null }[];
  networkVisible?: boolean;
  agent?: boolean;
  createdHour: number;
  updatedHour?: number;
  deleted?: boolean;
}

const MEDIA_1 = randomUUID();
const MEDIA_2 = randomUUID();
const SAME_HOUR = 20;

/** Agency A's rows (9 live internal ones), then agency B's. */
const SEEDS: Seed[] = [
  {
    id: randomUUID(),
    org: 'A',
    title: 'Piso en Málaga centro',
    reference: 'MAL-1',
    propertyType: 'apartment',
    price: 250000,
    city: 'Málaga',
    community: 'Andalucía',
    addressLine1: 'Calle Larios 4',
    lat: 36.72,
    lon: -4.42,
    bedrooms: 2,
    bathrooms: 1.5,
    livingArea: 80,
    energyRating: 'B',
    condition: 'good',
    features: ['pool', 'terrace'],
    commission: 3,
    images: [
      { mediaId: MEDIA_1, extension: 'jpg', url: null, caption: 'Salón' },
      { mediaId: MEDIA_2, extension: 'png', url: null, caption: null },
    ],
    agent: true,
    createdHour: 1,
    updatedHour: 50,
  },
  {
    id: randomUUID(),
    org: 'A',
    title: 'Villa con vistas',
    reference: 'MAR-2',
    propertyType: 'villa',
    status: 'RESERVED',
    price: 1200000,
    city: 'Marbella',
    community: 'andalucía',
    lat: 36.51,
    lon: -4.88,
    bedrooms: 5,
    bathrooms: 4,
    areaUnit: 'sqft',
    livingArea: 3000,
    plotArea: 10764,
    energyRating: 'A',
    condition: 'excellent',
    features: ['pool', 'garden', 'sea_view'],
    agent: true,
    createdHour: 2,
    updatedHour: 2,
  },
  {
    id: randomUUID(),
    org: 'A',
    title: 'Ático en Málaga',
    operation: 'rent',
    propertyType: 'penthouse',
    price: 1500,
    city: 'málaga',
    lat: 36.73,
    lon: -4.41,
    bedrooms: 3,
    bathrooms: 2,
    livingArea: 120,
    features: ['terrace', 'elevator'],
    createdHour: 3,
    updatedHour: 40,
  },
  {
    id: randomUUID(),
    org: 'A',
    title: 'Casa en Lisboa',
    propertyType: 'house',
    status: 'SOLD',
    price: 400000,
    countryCode: 'PT',
    city: 'Lisboa',
    bedrooms: 3,
    bathrooms: 2,
    areaUnit: 'sqft',
    livingArea: 1500,
    plotArea: 2000,
    energyRating: 'C',
    condition: 'needs_renovation',
    features: ['garden'],
    createdHour: 4,
    updatedHour: 30,
  },
  {
    id: randomUUID(),
    org: 'A',
    title: 'London flat',
    reference: 'LON-5',
    propertyType: 'apartment',
    price: 500000,
    currency: 'GBP',
    countryCode: 'GB',
    city: 'London',
    addressLine1: '221B Baker Street',
    lat: 51.5,
    lon: -0.12,
    bedrooms: 1,
    bathrooms: 1,
    livingArea: 50,
    energyRating: 'B',
    condition: 'new',
    createdHour: 5,
    updatedHour: 60,
  },
  {
    id: randomUUID(),
    org: 'A',
    title: 'Estudio en Cádiz',
    operation: 'rent',
    propertyType: 'studio',
    status: 'DRAFT',
    price: 700,
    city: 'Cádiz',
    bedrooms: 0,
    bathrooms: 1,
    livingArea: 30,
    energyRating: 'E',
    createdHour: 6,
    updatedHour: 6,
  },
  {
    id: randomUUID(),
    org: 'A',
    title: 'Fiji east bungalow',
    propertyType: 'house',
    price: 300000,
    currency: 'USD',
    countryCode: 'FJ',
    city: 'Savusavu',
    lat: -17,
    lon: 179.5,
    createdHour: SAME_HOUR,
  },
  {
    id: randomUUID(),
    org: 'A',
    title: 'Fiji west bungalow',
    propertyType: 'house',
    price: 300000,
    currency: 'USD',
    countryCode: 'FJ',
    city: 'Taveuni',
    lat: -17,
    lon: -179.5,
    createdHour: SAME_HOUR,
  },
  {
    id: randomUUID(),
    org: 'A',
    title: 'Atlantic platform',
    propertyType: 'other',
    price: 100,
    currency: 'USD',
    countryCode: 'SH',
    city: 'Nowhere',
    lat: -17,
    lon: 0,
    createdHour: 21,
  },
  // never found: deleted, or a feed's row
  {
    id: randomUUID(),
    org: 'A',
    title: 'Deleted villa Málaga',
    price: 1,
    city: 'Málaga',
    lat: 36.72,
    lon: -4.42,
    createdHour: 30,
    deleted: true,
  },
  {
    id: randomUUID(),
    org: 'A',
    title: 'Kyero imported villa',
    source: 'kyero',
    price: 640000,
    city: 'Málaga',
    images: [{ mediaId: null, extension: null, url: 'https://feed.example/1.jpg', caption: null }],
    createdHour: 31,
  },
  // agency B: two on the network, the rest not
  {
    id: randomUUID(),
    org: 'B',
    title: 'B network Málaga',
    price: 300000,
    city: 'Málaga',
    lat: 36.7,
    lon: -4.4,
    showExactLocation: false,
    commission: 5,
    createdHour: 10,
  },
  {
    id: randomUUID(),
    org: 'B',
    title: 'B network Sevilla',
    price: 200000,
    city: 'Sevilla',
    lat: 37.39,
    lon: -5.99,
    showExactLocation: true,
    commission: 4,
    createdHour: 11,
  },
  {
    id: randomUUID(),
    org: 'B',
    title: 'B reserved',
    status: 'RESERVED',
    price: 1,
    city: 'Málaga',
    createdHour: 12,
  },
  {
    id: randomUUID(),
    org: 'B',
    title: 'B hidden',
    networkVisible: false,
    price: 1,
    city: 'Málaga',
    createdHour: 13,
  },
  {
    id: randomUUID(),
    org: 'B',
    title: 'B deleted',
    deleted: true,
    price: 1,
    city: 'Málaga',
    createdHour: 14,
  },
  {
    id: randomUUID(),
    org: 'B',
    title: 'B feed row',
    source: 'kyero',
    price: 1,
    city: 'Málaga',
    createdHour: 15,
  },
];

const isLive = (s: Seed) => !s.deleted && (s.source ?? 'internal') === 'internal';
const OWN_A = SEEDS.filter((s) => s.org === 'A' && isLive(s));
const sqm = (value: number | null | undefined, unit: string | undefined) =>
  value === null || value === undefined
    ? null
    : unit === 'sqft'
      ? Math.round(value * SQFT * 100) / 100
      : value;
const createdAt = (s: Seed) => T0 + s.createdHour * HOUR_MS;
const updatedAt = (s: Seed) => T0 + (s.updatedHour ?? s.createdHour) * HOUR_MS;

/** Newest first, ties by id descending: the default order. */
const newest = (a: Seed, b: Seed) => createdAt(b) - createdAt(a) || (a.id < b.id ? 1 : -1);
const titles = (rows: Seed[], order: (a: Seed, b: Seed) => number = newest) =>
  [...rows].sort(order).map((s) => s.title);

const SUMMARY_FIELDS = [
  'areaUnit',
  'bathrooms',
  'bedrooms',
  'city',
  'community',
  'coordinates',
  'countryCode',
  'createdAt',
  'currency',
  'id',
  'imageCount',
  'livingArea',
  'mainImageUrl',
  'operation',
  'plotArea',
  'price',
  'propertyType',
  'ref',
  'reference',
  'status',
  'title',
  'updatedAt',
].sort();

/** In every seeded address; a network search adds it as `q`. */
const TAG = `zq${randomUUID().slice(0, 8)}`;
/** A network-scope body kept to this file's listings. */
const net = (body: Record<string, unknown> = {}) => ({
  ...body,
  scope: 'network',
  filters: { ...((body.filters as Record<string, unknown>) ?? {}), q: TAG },
});

describe('Listings: property search, count and aggregations', () => {
  let t: TestApp;
  let a: Agency;
  let b: Agency;
  let keyA: string;
  let keyMemberA: string;
  let keyB: string;
  let agentA: string;
  let publicBaseUrl: string;

  const search = (key: string, body: Record<string, unknown>) =>
    api(t, key).post('/properties/search').send(body);
  const found = async (body: Record<string, unknown>, key = keyA): Promise<string[]> => {
    const res = await search(key, { limit: 100, ...body });
    expect(res.status).toBe(200);
    return (res.body.data as { title: string }[]).map((row) => row.title);
  };
  /** The search with `filters` finds exactly the own listings `keep` keeps, newest first. */
  const expectFilter = async (filters: Record<string, unknown>, keep: (s: Seed) => boolean) => {
    const expected = titles(OWN_A.filter(keep));
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(OWN_A.length);
    expect(await found({ filters })).toEqual(expected);
  };

  async function insert(s: Seed, organizationId: string) {
    await sql(
      t,
      `insert into listings (id, organization_id, source, external_id, reference, title, operation, property_type,
          status, price, currency, country_code, city, community, address_line1, lat, lon, show_exact_location,
          bedrooms, bathrooms, area_unit, living_area, plot_area, condition, energy_rating, features, commission,
          images, network_visible, agent_id, created_at, updated_at, deleted_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::text[], ?, ?::jsonb, ?, ?,
               ?, ?, ?)`,
      [
        s.id,
        organizationId,
        s.source ?? 'internal',
        s.source ? `ext-${s.id}` : null,
        s.reference ?? null,
        s.title,
        s.operation ?? 'sale',
        s.propertyType ?? 'apartment',
        s.status ?? 'ACTIVE',
        s.price,
        s.currency ?? 'EUR',
        s.countryCode ?? 'ES',
        s.city,
        s.community ?? null,
        // every row carries the file's tag: network searches keep to this file's agencies (the
        // database is shared with other files, whose agencies list on the network too)
        `${s.addressLine1 ?? 'Calle'} ${TAG}`,
        s.lat ?? null,
        s.lon ?? null,
        s.showExactLocation ?? false,
        s.bedrooms ?? null,
        s.bathrooms ?? null,
        s.areaUnit ?? 'sqm',
        s.livingArea ?? null,
        s.plotArea ?? null,
        s.condition ?? null,
        s.energyRating ?? null,
        `{${(s.features ?? []).join(',')}}`,
        s.commission ?? null,
        JSON.stringify(s.images ?? []),
        s.networkVisible ?? true,
        s.agent ? agentA : null,
        new Date(createdAt(s)),
        new Date(updatedAt(s)),
        s.deleted ? new Date(T0) : null,
      ],
    );
  }

  beforeAll(async () => {
    t = await TestApp.start();
    publicBaseUrl = t.get(AppConfig).publicBaseUrl;
    a = await t.seed.agency('Costa Homes');
    b = await t.seed.agency('Sierra Homes');
    keyA = (await t.seed.apiKey(a.admin, ['properties:read'])).key;
    keyMemberA = (await t.seed.apiKey(a.member, ['properties:read'])).key;
    keyB = (await t.seed.apiKey(b.admin, ['properties:read'])).key;
    agentA = randomUUID();
    await sql(
      t,
      `insert into agents (id, organization_id, first_name, last_name, created_at, updated_at)
       values (?, ?, 'Standalone', 'Agent', now(), now())`,
      [agentA, a.admin.organizationId],
    );
    for (const s of SEEDS) await insert(s, s.org === 'A' ? a.admin.organizationId : b.admin.organizationId);
  });
  afterAll(() => t.stop());

  describe('own scope', () => {
    it("answers the agency's live internal listings of every status, newest first, with the exact total", async () => {
      const res = await search(keyA, {}).expect(200);
      expect(Object.keys(res.body).sort()).toEqual(['data', 'hasMore', 'limit', 'page', 'total']);
      expect(res.body).toMatchObject({ page: 1, limit: 20, total: OWN_A.length, hasMore: false });
      expect(res.body.data.map((row: { title: string }) => row.title)).toEqual(titles(OWN_A));
    });

    it('is agency-wide: a member key reads every listing of the agency', async () => {
      expect(await found({}, keyMemberA)).toEqual(titles(OWN_A));
    });

    it("never shows another agency's listings, private or on the network", async () => {
      const res = await search(keyB, { limit: 100 }).expect(200);
      const bTitles = res.body.data.map((row: { title: string }) => row.title);
      expect(bTitles.sort()).toEqual(
        SEEDS.filter((s) => s.org === 'B' && isLive(s))
          .map((s) => s.title)
          .sort(),
      );
    });

    it('answers summaries: ref, decimal price, numbers, the area in its unit, image URL and count, no commission', async () => {
      const res = await search(keyA, { limit: 100 }).expect(200);
      for (const row of res.body.data) expect(Object.keys(row).sort()).toEqual(SUMMARY_FIELDS);
      const first = OWN_A[0];
      const row = res.body.data.find((r: { id: string }) => r.id === first.id);
      expect(row).toEqual({
        id: first.id,
        ref: { source: 'internal', id: first.id },
        title: 'Piso en Málaga centro',
        reference: 'MAL-1',
        operation: 'sale',
        propertyType: 'apartment',
        status: 'ACTIVE',
        price: '250000.00',
        currency: 'EUR',
        bedrooms: 2,
        bathrooms: 1.5,
        livingArea: 80,
        plotArea: null,
        areaUnit: 'sqm',
        city: 'Málaga',
        community: 'Andalucía',
        countryCode: 'ES',
        coordinates: { lat: 36.72, lon: -4.42 },
        mainImageUrl: `${publicBaseUrl}/media/${MEDIA_1}.jpg`,
        imageCount: 2,
        createdAt: new Date(createdAt(first)).toISOString(),
        updatedAt: new Date(updatedAt(first)).toISOString(),
      });
      const villa = res.body.data.find((r: { title: string }) => r.title === 'Villa con vistas');
      expect(villa).toMatchObject({
        livingArea: 3000,
        plotArea: 10764,
        areaUnit: 'sqft',
        mainImageUrl: null,
        imageCount: 0,
      });
      expect(JSON.stringify(res.body)).not.toContain('commission');
    });
  });

  describe('filters', () => {
    it('operation', () => expectFilter({ operation: 'rent' }, (s) => s.operation === 'rent'));
    it('propertyTypes', () =>
      expectFilter({ propertyTypes: ['house', 'villa'] }, (s) =>
        ['house', 'villa'].includes(s.propertyType ?? ''),
      ));
    it('statuses (own)', () =>
      expectFilter({ statuses: ['SOLD', 'DRAFT'] }, (s) => ['SOLD', 'DRAFT'].includes(s.status ?? '')));
    it('priceMin and priceMax (inclusive)', () =>
      expectFilter({ priceMin: 700, priceMax: 300000 }, (s) => s.price >= 700 && s.price <= 300000));
    it('currency', () => expectFilter({ currency: 'USD' }, (s) => s.currency === 'USD'));
    it('bedroomsMin and bedroomsMax', () =>
      expectFilter(
        { bedroomsMin: 1, bedroomsMax: 3 },
        (s) => s.bedrooms !== undefined && s.bedrooms !== null && s.bedrooms >= 1 && s.bedrooms <= 3,
      ));
    it('bedroomsMin 0 keeps the studio, not the listings without bedrooms', () =>
      expectFilter({ bedroomsMin: 0 }, (s) => s.bedrooms !== undefined && s.bedrooms !== null));
    it('bathroomsMin', () => expectFilter({ bathroomsMin: 1.5 }, (s) => (s.bathrooms ?? 0) >= 1.5));
    it('livingAreaMin in m², a sqft listing converted (3,000 sqft = 278.71 m²)', async () => {
      await expectFilter({ livingAreaMin: 200 }, (s) => (sqm(s.livingArea, s.areaUnit) ?? 0) >= 200);
      expect(await found({ filters: { livingAreaMin: 278.71 } })).toEqual(['Villa con vistas']);
      expect(await found({ filters: { livingAreaMin: 278.72 } })).toEqual([]);
    });
    it('livingAreaMax in m² (1,500 sqft = 139.35 m²)', async () => {
      await expectFilter({ livingAreaMax: 139.35 }, (s) => {
        const area = sqm(s.livingArea, s.areaUnit);
        return area !== null && area <= 139.35;
      });
      expect(await found({ filters: { livingAreaMin: 130, livingAreaMax: 139.35 } })).toEqual([
        'Casa en Lisboa',
      ]);
    });
    it('plotAreaMin and plotAreaMax in m² (2,000 sqft = 185.81 m², 10,764 sqft ≈ 1,000 m²)', async () => {
      await expectFilter({ plotAreaMin: 150, plotAreaMax: 190 }, (s) => s.title === 'Casa en Lisboa');
      await expectFilter({ plotAreaMin: 999 }, (s) => s.title === 'Villa con vistas');
    });
    it('city: whole value, case-insensitive', async () => {
      await expectFilter({ city: 'Málaga' }, (s) => s.city.toLowerCase() === 'málaga');
      expect(await found({ filters: { city: 'MáLAGA' } })).toEqual(
        titles(OWN_A.filter((s) => s.city.toLowerCase() === 'málaga')),
      );
      expect(await found({ filters: { city: 'Mála' } })).toEqual([]);
    });
    it('community: case-insensitive', () =>
      expectFilter({ community: 'ANDALUCíA' }, (s) => s.community?.toLowerCase() === 'andalucía'));
    it('countryCode', () => expectFilter({ countryCode: 'PT' }, (s) => s.countryCode === 'PT'));
    it('features: all of them', async () => {
      await expectFilter({ features: ['pool'] }, (s) => (s.features ?? []).includes('pool'));
      await expectFilter({ features: ['pool', 'terrace'] }, (s) => s.title === 'Piso en Málaga centro');
      expect(await found({ filters: { features: ['pool', 'elevator'] } })).toEqual([]);
    });
    it('energyRatings', () =>
      expectFilter({ energyRatings: ['A', 'B'] }, (s) => ['A', 'B'].includes(s.energyRating ?? '')));
    it('conditions', () =>
      expectFilter({ conditions: ['new', 'good'] }, (s) => ['new', 'good'].includes(s.condition ?? '')));
    it('agentId', async () => {
      await expectFilter({ agentId: agentA }, (s) => Boolean(s.agent));
      expect(await found({ filters: { agentId: randomUUID() } })).toEqual([]);
    });
    it('q: accent- and case-insensitive contains over title, reference and address', async () => {
      await expectFilter({ q: 'malaga' }, (s) => s.title.includes('Málaga'));
      expect(await found({ filters: { q: 'ATICO' } })).toEqual(['Ático en Málaga']);
      expect(await found({ filters: { q: 'lon-5' } })).toEqual(['London flat']);
      expect(await found({ filters: { q: 'baker street' } })).toEqual(['London flat']);
      expect(await found({ filters: { q: '  ático ' } })).toEqual(['Ático en Málaga']);
      // `%` and `_` are literal
      expect(await found({ filters: { q: 'M%a' } })).toEqual([]);
      expect(await found({ filters: { q: 'MAL_1' } })).toEqual([]);
    });
    it('updatedSince', () =>
      expectFilter(
        { updatedSince: new Date(T0 + 40 * HOUR_MS).toISOString() },
        (s) => updatedAt(s) >= T0 + 40 * HOUR_MS,
      ));
    it('filters are AND-ed', () =>
      expectFilter(
        { city: 'málaga', operation: 'sale', bedroomsMin: 2 },
        (s) => s.title === 'Piso en Málaga centro',
      ));
  });

  describe('bounding box', () => {
    it('finds the listings inside a box (corners included), not those without coordinates', async () => {
      const box = { southWest: { lat: 36.6, lon: -4.5 }, northEast: { lat: 36.8, lon: -4.3 } };
      expect(await found({ boundingBox: box })).toEqual(['Ático en Málaga', 'Piso en Málaga centro']);
      const corner = { southWest: { lat: 36.72, lon: -4.42 }, northEast: { lat: 36.72, lon: -4.42 } };
      expect(await found({ boundingBox: corner })).toEqual(['Piso en Málaga centro']);
    });

    it('crosses the antimeridian when southWest.lon > northEast.lon', async () => {
      const box = { southWest: { lat: -20, lon: 179 }, northEast: { lat: -10, lon: -179 } };
      expect((await found({ boundingBox: box })).sort()).toEqual([
        'Fiji east bungalow',
        'Fiji west bungalow',
      ]);
      // the same corners the other way round: the box from -179 to 179 (lon 0 inside, not the ±179.5 ones)
      const wide = { southWest: { lat: -20, lon: -179 }, northEast: { lat: -10, lon: 179 } };
      expect(await found({ boundingBox: wide })).toEqual(['Atlantic platform']);
    });

    it('combines with filters and counts', async () => {
      const box = { southWest: { lat: 36, lon: -6 }, northEast: { lat: 37, lon: -4 } };
      expect(await found({ boundingBox: box, filters: { features: ['pool'] } })).toEqual([
        'Villa con vistas',
        'Piso en Málaga centro',
      ]);
      const res = await api(t, keyA).post('/properties/count').send({ boundingBox: box }).expect(200);
      expect(res.body).toEqual({ count: 3 });
    });
  });

  describe('sorts (id breaks ties)', () => {
    const byId = (a: Seed, b: Seed) => (a.id < b.id ? -1 : 1);
    const desc = (value: (s: Seed) => number | null) => (a: Seed, b: Seed) => {
      const x = value(a);
      const y = value(b);
      if (x === y) return -byId(a, b);
      if (x === null) return 1;
      if (y === null) return -1;
      return y - x;
    };
    it('newest (ties by id descending)', async () => {
      expect(await found({ sort: 'newest' })).toEqual(titles(OWN_A, newest));
      const tied = OWN_A.filter((s) => s.createdHour === SAME_HOUR).sort((x, y) => -byId(x, y));
      const order = await found({});
      expect(order.indexOf(tied[0].title)).toBeLessThan(order.indexOf(tied[1].title));
    });
    it('updated', async () => {
      expect(await found({ sort: 'updated' })).toEqual(titles(OWN_A, desc(updatedAt)));
    });
    it('price_asc and price_desc', async () => {
      expect(await found({ sort: 'price_asc' })).toEqual(
        titles(OWN_A, (x, y) => x.price - y.price || byId(x, y)),
      );
      expect(await found({ sort: 'price_desc' })).toEqual(
        titles(
          OWN_A,
          desc((s) => s.price),
        ),
      );
    });
    it('area_desc: living area in m² (sqft converted), listings without one last', async () => {
      const expected = titles(
        OWN_A,
        desc((s) => sqm(s.livingArea, s.areaUnit)),
      );
      expect(expected[0]).toBe('Villa con vistas');
      expect(expected[1]).toBe('Casa en Lisboa'); // 139.35 m², above the 120 m² penthouse
      expect(await found({ sort: 'area_desc' })).toEqual(expected);
    });
    it('bedrooms_desc, listings without bedrooms last', async () => {
      expect(await found({ sort: 'bedrooms_desc' })).toEqual(
        titles(
          OWN_A,
          desc((s) => s.bedrooms ?? null),
        ),
      );
    });
  });

  describe('paging', () => {
    it('answers page 2 of 4 per page with hasMore, the last page without, past it no rows', async () => {
      const all = titles(OWN_A);
      const second = await search(keyA, { page: 2, limit: 4 }).expect(200);
      expect(second.body).toMatchObject({ page: 2, limit: 4, total: all.length, hasMore: true });
      expect(second.body.data.map((r: { title: string }) => r.title)).toEqual(all.slice(4, 8));
      const last = await search(keyA, { page: 3, limit: 4 }).expect(200);
      expect(last.body).toMatchObject({ page: 3, total: all.length, hasMore: false });
      expect(last.body.data.map((r: { title: string }) => r.title)).toEqual(all.slice(8));
      const past = await search(keyA, { page: 9, limit: 4 }).expect(200);
      expect(past.body).toEqual({ data: [], page: 9, limit: 4, total: all.length, hasMore: false });
    });

    it('limit 1-100: 0 and 101 are 400, 100 is fine', async () => {
      for (const limit of [0, 101, 2.5]) {
        const res = await search(keyA, { limit });
        expect(res.status).toBe(400);
        expect(codeOf(res)).toBe('VALIDATION_FAILED');
      }
      await search(keyA, { limit: 100 }).expect(200);
    });
  });

  describe('network scope', () => {
    it("answers other agencies' ACTIVE, network-visible, internal, live listings only", async () => {
      expect(await found(net())).toEqual(['B network Sevilla', 'B network Málaga']);
    });

    it("never the caller's own listings", async () => {
      const seen = await found(net(), keyB);
      expect(seen.sort()).toEqual(
        OWN_A.filter((s) => (s.status ?? 'ACTIVE') === 'ACTIVE' && s.networkVisible !== false)
          .map((s) => s.title)
          .sort(),
      );
      expect(seen.some((title) => title.startsWith('B '))).toBe(false);
    });

    it('shows coordinates only with showExactLocation, never commission', async () => {
      const res = await search(keyA, net()).expect(200);
      const byTitle = Object.fromEntries(res.body.data.map((r: { title: string }) => [r.title, r]));
      expect(byTitle['B network Málaga'].coordinates).toBeNull();
      expect(byTitle['B network Sevilla'].coordinates).toEqual({ lat: 37.39, lon: -5.99 });
      for (const row of res.body.data) expect(Object.keys(row).sort()).toEqual(SUMMARY_FIELDS);
      expect(JSON.stringify(res.body)).not.toContain('commission');
      expect(byTitle['B network Málaga'].ref).toEqual({
        source: 'internal',
        id: byTitle['B network Málaga'].id,
      });
    });

    it('takes filters and boxes; statuses with the network is a 400', async () => {
      expect(await found(net({ filters: { city: 'sevilla' } }))).toEqual(['B network Sevilla']);
      const sevilla = { southWest: { lat: 37.3, lon: -6.1 }, northEast: { lat: 37.5, lon: -5.9 } };
      expect(await found(net({ boundingBox: sevilla }))).toEqual(['B network Sevilla']);
      // Málaga's listing hides its exact location: no box may find it (it would locate it)
      const malaga = { southWest: { lat: 36.6, lon: -4.5 }, northEast: { lat: 36.8, lon: -4.3 } };
      expect(await found(net({ boundingBox: malaga }))).toEqual([]);
      const wide = { southWest: { lat: 35, lon: -7 }, northEast: { lat: 38, lon: -3 } };
      expect(await found(net({ boundingBox: wide }))).toEqual(['B network Sevilla']);
      const res = await search(keyA, { scope: 'network', filters: { statuses: ['ACTIVE'] } });
      expect(res.status).toBe(400);
      expect(codeOf(res)).toBe('VALIDATION_FAILED');
    });
  });

  describe('count', () => {
    const bodies: Record<string, unknown>[] = [
      {},
      { filters: { city: 'Málaga' } },
      { filters: { q: 'fiji' } },
      { scope: 'network' },
      { filters: { priceMin: 1000, currency: 'EUR' }, sort: 'price_asc', page: 3, limit: 1 },
      { boundingBox: { southWest: { lat: -20, lon: 179 }, northEast: { lat: -10, lon: -179 } } },
    ];
    it('equals the search total for the same body (sort, page and limit not read)', async () => {
      for (const body of bodies) {
        const total = (await search(keyA, body).expect(200)).body.total;
        const res = await api(t, keyA).post('/properties/count').send(body).expect(200);
        expect(res.body).toEqual({ count: total });
      }
      expect((await api(t, keyA).post('/properties/count').send({}).expect(200)).body).toEqual({
        count: OWN_A.length,
      });
    });

    it('validates like the search', async () => {
      const res = await api(t, keyA)
        .post('/properties/count')
        .send({ filters: { priceMin: 5, priceMax: 4 } });
      expect(res.status).toBe(400);
      expect(codeOf(res)).toBe('VALIDATION_FAILED');
    });
  });

  describe('aggregations', () => {
    const aggregate = (key: string, body: Record<string, unknown>) =>
      api(t, key).post('/properties/aggregations').send(body);

    /** Term counts made here: top by count, then value; rows without a value not counted. */
    const countsOf = <T extends string | number>(rows: Seed[], value: (s: Seed) => T | null | undefined) => {
      const counts = new Map<T, number>();
      for (const s of rows) {
        const v = value(s);
        if (v !== null && v !== undefined) counts.set(v, (counts.get(v) ?? 0) + 1);
      }
      return [...counts.entries()]
        .map(([v, count]) => ({ value: v, count }))
        .sort((x, y) => y.count - x.count || (x.value < y.value ? -1 : x.value > y.value ? 1 : 0));
    };

    it('answers every requested aggregation over the own listings, matching counts made by hand', async () => {
      const res = await aggregate(keyA, {
        aggregations: ['propertyType', 'bedrooms', 'city', 'energyRating', 'status', 'priceStats'],
      }).expect(200);
      expect(Object.keys(res.body).sort()).toEqual(
        ['bedrooms', 'city', 'energyRating', 'priceStats', 'propertyType', 'status'].sort(),
      );
      expect(res.body.propertyType).toEqual(countsOf(OWN_A, (s) => s.propertyType ?? 'apartment'));
      expect(res.body.propertyType[0]).toEqual({ value: 'house', count: 3 });
      expect(res.body.bedrooms).toEqual(countsOf(OWN_A, (s) => s.bedrooms));
      expect(res.body.energyRating).toEqual(countsOf(OWN_A, (s) => s.energyRating));
      expect(res.body.energyRating[0]).toEqual({ value: 'B', count: 2 });
      expect(res.body.status).toEqual(countsOf(OWN_A, (s) => s.status ?? 'ACTIVE'));
      // Málaga and málaga are one city
      expect(res.body.city[0]).toEqual({ value: expect.stringMatching(/^(M|m)álaga$/), count: 2 });
      expect(res.body.city).toHaveLength(new Set(OWN_A.map((s) => s.city.toLowerCase())).size);
    });

    it('answers price statistics per currency as decimal strings (median: the lower middle price)', async () => {
      const res = await aggregate(keyA, { aggregations: ['priceStats'] }).expect(200);
      expect(Object.keys(res.body)).toEqual(['priceStats']);
      const expected = [...new Set(OWN_A.map((s) => s.currency ?? 'EUR'))].sort().map((currency) => {
        const prices = OWN_A.filter((s) => (s.currency ?? 'EUR') === currency)
          .map((s) => s.price)
          .sort((x, y) => x - y);
        const cents = prices.reduce((sum, p) => sum + p * 100, 0);
        return {
          currency,
          count: prices.length,
          min: prices[0].toFixed(2),
          max: prices[prices.length - 1].toFixed(2),
          avg: (Math.round(cents / prices.length) / 100).toFixed(2),
          median: prices[Math.ceil(prices.length / 2) - 1].toFixed(2),
        };
      });
      expect(res.body.priceStats).toEqual(expected);
      // EUR: 700, 1500, 250000, 400000, 1200000 → median 250000; USD: 100, 300000, 300000
      expect(res.body.priceStats.find((p: { currency: string }) => p.currency === 'EUR')).toEqual({
        currency: 'EUR',
        count: 5,
        min: '700.00',
        max: '1200000.00',
        avg: '370440.00',
        median: '250000.00',
      });
      expect(res.body.priceStats.find((p: { currency: string }) => p.currency === 'USD')).toMatchObject({
        count: 3,
        avg: '200033.33',
        median: '300000.00',
      });
    });

    it('follows the scope, filters and box', async () => {
      const network = await aggregate(keyA, net({ aggregations: ['city', 'status'] })).expect(200);
      expect(network.body).toEqual({
        city: [
          { value: 'Málaga', count: 1 },
          { value: 'Sevilla', count: 1 },
        ],
        status: [{ value: 'ACTIVE', count: 2 }],
      });
      const filtered = await aggregate(keyA, {
        filters: { operation: 'rent' },
        aggregations: ['propertyType'],
      }).expect(200);
      expect(filtered.body).toEqual({
        propertyType: [
          { value: 'penthouse', count: 1 },
          { value: 'studio', count: 1 },
        ],
      });
      const none = await aggregate(keyA, {
        filters: { city: 'Atlantis' },
        aggregations: ['bedrooms', 'priceStats'],
      }).expect(200);
      expect(none.body).toEqual({ bedrooms: [], priceStats: [] });
    });

    it('needs 1-6 distinct known aggregations', async () => {
      for (const aggregations of [undefined, [], ['city', 'city'], ['colour'], 'city']) {
        const res = await aggregate(keyA, { aggregations });
        expect(res.status).toBe(400);
        expect(codeOf(res)).toBe('VALIDATION_FAILED');
      }
    });
  });

  describe('validation', () => {
    const bad: [string, Record<string, unknown>][] = [
      ['priceMin above priceMax', { filters: { priceMin: 10, priceMax: 5 } }],
      ['bedroomsMin above bedroomsMax', { filters: { bedroomsMin: 3, bedroomsMax: 2 } }],
      ['livingAreaMin above livingAreaMax', { filters: { livingAreaMin: 100, livingAreaMax: 99 } }],
      ['plotAreaMin above plotAreaMax', { filters: { plotAreaMin: 100, plotAreaMax: 99 } }],
      [
        'a latitude out of range',
        { boundingBox: { southWest: { lat: -91, lon: 0 }, northEast: { lat: 10, lon: 1 } } },
      ],
      [
        'a longitude out of range',
        { boundingBox: { southWest: { lat: 0, lon: 0 }, northEast: { lat: 10, lon: 181 } } },
      ],
      [
        'a box whose south is above its north',
        { boundingBox: { southWest: { lat: 10, lon: 0 }, northEast: { lat: 5, lon: 1 } } },
      ],
      ['a box without a corner', { boundingBox: { southWest: { lat: 1, lon: 0 } } }],
      ['an unknown sort', { sort: 'cheapest' }],
      ['an unknown scope', { scope: 'everyone' }],
      ['an unknown status', { filters: { statuses: ['GONE'] } }],
      ['an unknown feature', { filters: { features: ['moat'] } }],
      ['a lower-case currency', { filters: { currency: 'eur' } }],
      ['a q of 201 characters', { filters: { q: 'x'.repeat(201) } }],
      ['an updatedSince that is no date', { filters: { updatedSince: 'yesterday' } }],
      ['an agentId that is no UUID', { filters: { agentId: '42' } }],
      ['a negative price', { filters: { priceMin: -1 } }],
    ];
    it.each(bad)('%s → 400 VALIDATION_FAILED', async (_name, body) => {
      const res = await search(keyA, body);
      expect(res.status).toBe(400);
      expect(codeOf(res)).toBe('VALIDATION_FAILED');
    });

    it('a year PostgreSQL cannot hold in updatedSince → 400, never a 500', async () => {
      for (const updatedSince of ['0000-01-01T00:00:00Z', '+275760-09-13T00:00:00Z']) {
        const res = await search(keyA, { filters: { updatedSince } });
        expect(res.status).toBe(400);
        expect(codeOf(res)).toBe('VALIDATION_FAILED');
      }
    });

    it('huge numbers find nothing rather than overflow', async () => {
      for (const filters of [{ bedroomsMin: 1e12 }, { priceMin: 1e300 }, { livingAreaMin: 1e300 }]) {
        expect(await found({ filters })).toEqual([]);
        const res = await api(t, keyA).post('/properties/count').send({ filters }).expect(200);
        expect(res.body).toEqual({ count: 0 });
      }
    });

    it('equal min and max are fine', async () => {
      expect(await found({ filters: { priceMin: 1500, priceMax: 1500 } })).toEqual(['Ático en Málaga']);
    });
  });

  describe('access', () => {
    it('a key without properties:read → 403 on search, count and aggregations', async () => {
      for (const path of ['/properties/search', '/properties/count', '/properties/aggregations']) {
        const res = await api(t, a.admin.key)
          .post(path)
          .send({ aggregations: ['city'] });
        expect(res.status).toBe(403);
        expect(codeOf(res)).toBe('API_KEY_SCOPE_MISSING');
      }
    });

    it('a session → 401', async () => {
      const res = await asSession(t.http.post('/properties/search'), a.admin).send({});
      expect(res.status).toBe(401);
    });
  });

  describe("a feed's rows (sourcePage, for /property-sources)", () => {
    it("pages the agency's rows of that source only, ref naming the feed", async () => {
      const queries = t.get(ListingSearchQueries);
      const page = await queries.sourcePage(a.admin.organizationId, 'kyero', {});
      expect(page.total).toBe(1);
      expect(page.data[0]).toMatchObject({
        title: 'Kyero imported villa',
        ref: { source: 'kyero', id: page.data[0].id },
        mainImageUrl: 'https://feed.example/1.jpg',
        imageCount: 1,
      });
      const internal = await queries.sourcePage(a.admin.organizationId, 'internal', { limit: 3, page: 1 });
      expect(internal.total).toBe(OWN_A.length);
      expect(internal.data.map((row) => row.title)).toEqual(titles(OWN_A).slice(0, 3));
      // the scope is not read: own rows only
      const ownOnly = await queries.sourcePage(b.admin.organizationId, 'internal', {
        scope: 'network',
        limit: 100,
      });
      expect(ownOnly.data.every((row) => row.title.startsWith('B '))).toBe(true);
    });
  });
});
