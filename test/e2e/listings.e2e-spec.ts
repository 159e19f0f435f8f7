import { randomUUID } from 'node:crypto';
import { AppConfig } from '@app/platform';
import { Agency, api, sql, TestApp } from '../fixtures';
import {
  agentOf,
  codeOf,
  createListing,
  insertAgent,
  listingBody,
  listingsKey,
  memberWriteKey,
} from '../fixtures/listings';

/**
 * The listing aggregate through `/properties` (issue 16 items 2-3, INTERFACES.md "Listings"):
 * create with its rules and defaults, the record, PATCH, renew, soft delete, history, the
 * member-vs-admin and scope refusals, tenant isolation and the network view rules.
 */

const DAY = 86_400_000;
type Res = { status: number; body: Record<string, unknown> & { code?: string; error?: { code?: string } } };
type Json = Record<string, unknown>;

describe('Listings: /properties records and writes', () => {
  let t: TestApp;
  let a: Agency;
  let b: Agency;
  let admin: string;
  let adminKeyId: string;
  let member: string;
  let readOnly: string;
  let other: string;
  let agent: string;
  let otherAgent: string;
  let publicBaseUrl: string;

  const as = (key: string) => api(t, key);
  const body = (overrides: Json = {}) => listingBody({ agentId: agent, ...overrides });
  const create = (overrides: Json = {}) => createListing(t, admin, { agentId: agent, ...overrides });
  const expectInvalid = (res: Res, path?: string) => {
    expect(res.status).toBe(400);
    expect(codeOf(res)).toBe('VALIDATION_FAILED');
    if (path) expect(JSON.stringify(res.body)).toContain(path);
  };
  const insertMedia = async (organizationId: string, createdBy: string, extension = 'jpg') => {
    const id = randomUUID();
    await sql(
      t,
      `insert into media (id, organization_id, sha256, mime_type, extension, size_bytes, width, height, created_by, created_at)
       values (?, ?, ?, ?, ?, 1000, 800, 600, ?, now())`,
      [
        id,
        organizationId,
        randomUUID().replace(/-/g, ''),
        extension === 'jpg' ? 'image/jpeg' : 'image/png',
        extension,
        createdBy,
      ],
    );
    return id;
  };

  beforeAll(async () => {
    t = await TestApp.start();
    publicBaseUrl = t.get(AppConfig).publicBaseUrl;
    a = await t.seed.agency('Casa Listings');
    b = await t.seed.agency('Other Listings');
    const adminKey = await t.seed.apiKey(a.admin, {
      name: 'listings',
      scopes: ['properties:read', 'properties:write'],
    });
    admin = adminKey.key;
    adminKeyId = adminKey.id;
    member = await memberWriteKey(t, a.member);
    readOnly = await listingsKey(t, a.admin, ['properties:read']);
    other = await listingsKey(t, b.admin);
    agent = await agentOf(t, a.admin);
    otherAgent = await agentOf(t, b.admin);
  });
  afterAll(() => t.stop());
  afterEach(() => t.clock.reset());

  describe('create', () => {
    it('answers 201 with the record and its defaults', async () => {
      const now = t.clock.now();
      const res = await as(admin)
        .post('/properties')
        .send(body({ title: 'Villa Sol', price: 350000 }))
        .expect(201);
      const record = res.body as Json;
      expect(record).toMatchObject({
        ref: { source: 'internal', id: record.id },
        title: 'Villa Sol',
        operation: 'sale',
        propertyType: 'apartment',
        status: 'ACTIVE',
        price: '350000.00',
        currency: 'EUR',
        countryCode: 'ES',
        city: 'Málaga',
        areaUnit: 'sqm',
        networkVisible: true,
        autoRenewEnabled: false,
        showExactLocation: false,
        features: [],
        images: [],
        mainImageUrl: null,
        imageCount: 0,
        coordinates: null,
        commission: null,
        reference: null,
        agent: {
          id: agent,
          firstName: expect.any(String),
          displayEmail: expect.any(String),
          phoneNumber: '+34611111111',
          whatsappNumber: '+34622222222',
        },
      });
      expect(Object.keys(record.ref as Json).sort()).toEqual(['id', 'source']);
      expect(new Date(record.expiresAt as string).getTime()).toBe(now.getTime() + 90 * DAY);
      expect(record.createdAt).toBe(now.toISOString());
      expect(record.updatedAt).toBe(now.toISOString());
      const [row] = await sql<{ version: number; created_by: string }>(
        t,
        `select version, created_by from listings where id = ?`,
        [record.id],
      );
      expect(row).toEqual({ version: 1, created_by: a.admin.userId });
    });

    it('stores every payload field and answers them back', async () => {
      const photo = await insertMedia(a.admin.organizationId, a.admin.userId);
      const plan = await insertMedia(a.admin.organizationId, a.admin.userId, 'png');
      const full = body({
        title: 'Ático con vistas',
        operation: 'rent',
        propertyType: 'penthouse',
        status: 'RESERVED',
        price: 1850.5,
        currency: 'EUR',
        countryCode: 'ES',
        city: 'Marbella',
        reference: 'FULL-1',
        description: 'Line one\nLine two',
        rentPeriod: 'month',
        region: 'Andalucía',
        community: 'Nueva Andalucía',
        postalCode: '29660',
        addressLine1: 'Calle Mayor 1',
        addressLine2: '3ºB',
        coordinates: { lat: 36.51, lon: -4.88 },
        showExactLocation: true,
        bedrooms: 3,
        bathrooms: 2.5,
        areaUnit: 'sqft',
        livingArea: 1200.5,
        plotArea: 5000,
        floor: '3',
        yearBuilt: 2005,
        parkingSpaces: 2,
        furnished: 'partly',
        condition: 'excellent',
        energyRating: 'A+',
        energyRatingDetails: 'Certified 2024',
        energyConsumptionKwh: 45.2,
        co2Emissions: 9.1,
        features: ['sea_view', 'pool', 'pool'],
        additionalFeatures: { views: 'panoramic', floors: 2 },
        commission: 3,
        sharedCommission: 1.5,
        communityFeesPerYear: 1200,
        basuraPerYear: 150.25,
        availableFrom: '2027-01-15',
        completionDate: '2026-06-30',
        images: [{ mediaId: photo, caption: 'Salón' }, { mediaId: plan }],
        videoUrl: 'https://video.example.com/v/1',
        virtualTourUrl: 'https://tour.example.com/t/1',
        networkVisible: false,
        autoRenewEnabled: true,
        expiresAt: '2027-03-01T10:00:00Z',
      });
      const res = await as(admin).post('/properties').send(full).expect(201);
      expect(res.body).toMatchObject({
        status: 'RESERVED',
        price: '1850.50',
        reference: 'FULL-1',
        description: 'Line one\nLine two',
        rentPeriod: 'month',
        coordinates: { lat: 36.51, lon: -4.88 },
        bedrooms: 3,
        bathrooms: 2.5,
        areaUnit: 'sqft',
        livingArea: 1200.5,
        plotArea: 5000,
        floor: '3',
        yearBuilt: 2005,
        parkingSpaces: 2,
        furnished: 'partly',
        condition: 'excellent',
        energyRating: 'A+',
        energyConsumptionKwh: 45.2,
        co2Emissions: 9.1,
        features: ['sea_view', 'pool'],
        additionalFeatures: { views: 'panoramic', floors: 2 },
        commission: '3.00',
        sharedCommission: '1.50',
        communityFeesPerYear: '1200.00',
        basuraPerYear: '150.25',
        availableFrom: '2027-01-15',
        completionDate: '2026-06-30',
        images: [
          { mediaId: photo, url: `${publicBaseUrl}/media/${photo}.jpg`, caption: 'Salón' },
          { mediaId: plan, url: `${publicBaseUrl}/media/${plan}.png`, caption: null },
        ],
        mainImageUrl: `${publicBaseUrl}/media/${photo}.jpg`,
        imageCount: 2,
        videoUrl: 'https://video.example.com/v/1',
        networkVisible: false,
        autoRenewEnabled: true,
        expiresAt: '2027-03-01T10:00:00.000Z',
      });
      const read = await as(admin).get(`/properties/${res.body.id}`).expect(200);
      expect(read.body).toEqual(res.body);
    });

    it('refuses a missing required field (400 naming it)', async () => {
      for (const field of [
        'title',
        'operation',
        'propertyType',
        'price',
        'currency',
        'countryCode',
        'city',
        'agentId',
      ]) {
        const sent = body();
        delete sent[field];
        expectInvalid(await as(admin).post('/properties').send(sent), field);
      }
      expectInvalid(await as(admin).post('/properties').send({}));
    });

    it.each([
      ['title of 201 characters', { title: 'x'.repeat(201) }, 'title'],
      ['empty title', { title: '' }, 'title'],
      ['bathrooms 2.25', { bathrooms: 2.25 }, 'bathrooms'],
      ['currency eur', { currency: 'eur' }, 'currency'],
      ['countryCode es', { countryCode: 'es' }, 'countryCode'],
      ['city of 101 characters', { city: 'c'.repeat(101) }, 'city'],
      ['features null', { features: null }, 'features'],
      ['an unknown feature', { features: ['pool', 'moat'] }, 'features'],
      ['status EXPIRED', { status: 'EXPIRED' }, 'status'],
      ['an http videoUrl', { videoUrl: 'http://video.example.com/v' }, 'videoUrl'],
      ['an http virtualTourUrl', { virtualTourUrl: 'http://tour.example.com' }, 'virtualTourUrl'],
      ['101 images', { images: Array.from({ length: 101 }, () => ({ mediaId: randomUUID() })) }, 'images'],
      ['a negative price', { price: -1 }, 'price'],
      ['a price as a string', { price: '100' }, 'price'],
      ['livingArea 0', { livingArea: 0 }, 'livingArea'],
      ['plotArea -5', { plotArea: -5 }, 'plotArea'],
      ['commission 101', { commission: 101 }, 'commission'],
      ['sharedCommission -1', { sharedCommission: -1 }, 'sharedCommission'],
      ['bedrooms 1.5', { bedrooms: 1.5 }, 'bedrooms'],
      ['yearBuilt 999', { yearBuilt: 999 }, 'yearBuilt'],
      ['an unknown condition', { condition: 'ruin' }, 'condition'],
      ['an unknown energyRating', { energyRating: 'H' }, 'energyRating'],
      ['an unknown operation', { operation: 'lease' }, 'operation'],
      ['an unknown propertyType', { propertyType: 'castle' }, 'propertyType'],
      ['an unknown rentPeriod', { rentPeriod: 'year' }, 'rentPeriod'],
      ['an unknown areaUnit', { areaUnit: 'acre' }, 'areaUnit'],
      ['an unknown furnished', { furnished: 'yes' }, 'furnished'],
      ['an impossible availableFrom', { availableFrom: '2027-13-01' }, 'availableFrom'],
      ['a timestamp as completionDate', { completionDate: '2027-01-01T00:00:00Z' }, 'completionDate'],
      ['expiresAt without a zone', { expiresAt: '2027-01-01T00:00:00' }, 'expiresAt'],
      ['latitude 91', { coordinates: { lat: 91, lon: 0 } }, 'coordinates'],
      ['longitude -181', { coordinates: { lat: 0, lon: -181 } }, 'coordinates'],
      ['a reference of 51 characters', { reference: 'r'.repeat(51) }, 'reference'],
      ['a non-UUID agentId', { agentId: 'agent-1' }, 'agentId'],
      ['networkVisible null', { networkVisible: null }, 'networkVisible'],
      ['hasPool as a string', { hasPool: 'yes' }, 'hasPool'],
      ['additionalFeatures as an array', { additionalFeatures: ['a'] }, 'additionalFeatures'],
    ])('refuses %s (400 VALIDATION_FAILED)', async (_label, overrides, path) => {
      const before = await sql<{ n: string }>(
        t,
        `select count(*) as n from listings where organization_id = ?`,
        [a.admin.organizationId],
      );
      expectInvalid(await as(admin).post('/properties').send(body(overrides)), path);
      const after = await sql<{ n: string }>(
        t,
        `select count(*) as n from listings where organization_id = ?`,
        [a.admin.organizationId],
      );
      expect(after[0].n).toBe(before[0].n);
    });

    it('refuses an agentId of another agency, an inactive agent or an unknown one at agentId', async () => {
      expectInvalid(
        await as(admin)
          .post('/properties')
          .send(body({ agentId: otherAgent })),
        'agentId',
      );
      const inactive = await insertAgent(t, a.admin.organizationId, { isActive: false });
      expectInvalid(
        await as(admin)
          .post('/properties')
          .send(body({ agentId: inactive })),
        'agentId',
      );
      expectInvalid(
        await as(admin)
          .post('/properties')
          .send(body({ agentId: randomUUID() })),
        'agentId',
      );
      const standalone = await insertAgent(t, a.admin.organizationId, { firstName: 'Solo' });
      const made = await create({ agentId: standalone });
      expect(made.agent).toMatchObject({ id: standalone, firstName: 'Solo' });
    });

    it('refuses an image that is not an upload of the agency at images[i].mediaId', async () => {
      const own = await insertMedia(a.admin.organizationId, a.admin.userId);
      const foreign = await insertMedia(b.admin.organizationId, b.admin.userId);
      const res = await as(admin)
        .post('/properties')
        .send(body({ images: [{ mediaId: own }, { mediaId: foreign }] }));
      expectInvalid(res, 'images[1].mediaId');
    });
  });

  describe('features and the legacy has* flags', () => {
    it('maps the flags to slugs; features wins; omitted keeps; false removes', async () => {
      const flagged = await create({ hasPool: true, hasGarden: true, hasElevator: false });
      expect(flagged.features).toEqual(['pool', 'garden']);

      const both = await create({ features: ['sea_view'], hasPool: true });
      expect(both.features).toEqual(['sea_view']);

      const kept = await as(admin).patch(`/properties/${flagged.id}`).send({ title: 'Renamed' }).expect(200);
      expect(kept.body.features).toEqual(['pool', 'garden']);

      const removed = await as(admin)
        .patch(`/properties/${flagged.id}`)
        .send({ hasPool: false, hasAirConditioning: true })
        .expect(200);
      expect(removed.body.features).toEqual(['garden', 'air_conditioning']);

      const replaced = await as(admin)
        .patch(`/properties/${flagged.id}`)
        .send({ features: ['terrace'], hasGarden: true })
        .expect(200);
      expect(replaced.body.features).toEqual(['terrace']);

      expectInvalid(await as(admin).patch(`/properties/${flagged.id}`).send({ features: null }), 'features');
      const cleared = await as(admin).patch(`/properties/${flagged.id}`).send({ features: [] }).expect(200);
      expect(cleared.body.features).toEqual([]);
    });
  });

  describe('reference', () => {
    it('is unique per agency among live listings (409 CONFLICT), case-insensitive', async () => {
      const first = await create({ reference: 'REF-UNIQ' });
      const dup = await as(admin)
        .post('/properties')
        .send(body({ reference: 'REF-UNIQ' }));
      expect(dup.status).toBe(409);
      expect(codeOf(dup)).toBe('CONFLICT');
      expect(
        (
          await as(admin)
            .post('/properties')
            .send(body({ reference: 'ref-uniq' }))
        ).status,
      ).toBe(409);

      const second = await create({ reference: 'REF-OTHER' });
      const patched = await as(admin).patch(`/properties/${second.id}`).send({ reference: 'REF-UNIQ' });
      expect(patched.status).toBe(409);
      expect(codeOf(patched)).toBe('CONFLICT');
      // nothing half-written
      expect((await as(admin).get(`/properties/${second.id}`).expect(200)).body.reference).toBe('REF-OTHER');

      // another agency may use it
      await createListing(t, other, { agentId: otherAgent, reference: 'REF-UNIQ' });
      // free again once the first is deleted
      await as(admin).delete(`/properties/${first.id}`).expect(204);
      await create({ reference: 'REF-UNIQ' });
    });
  });

  describe('PATCH', () => {
    it('changes any subset; null clears nullable fields and is refused on required ones', async () => {
      const listing = await create({
        bedrooms: 2,
        commission: 2.5,
        coordinates: { lat: 40, lon: -3 },
        region: 'Madrid',
      });
      t.clock.advance(60_000);
      const res = await as(admin)
        .patch(`/properties/${listing.id}`)
        .send({ price: 400000, bedrooms: null, coordinates: null, region: null, commission: 4 })
        .expect(200);
      expect(res.body).toMatchObject({
        price: '400000.00',
        bedrooms: null,
        coordinates: null,
        region: null,
        commission: '4.00',
        title: listing.title,
        updatedAt: t.clock.now().toISOString(),
      });
      for (const field of [
        'title',
        'operation',
        'propertyType',
        'price',
        'currency',
        'countryCode',
        'city',
        'agentId',
        'status',
        'areaUnit',
        'expiresAt',
        'images',
      ]) {
        expectInvalid(
          await as(admin)
            .patch(`/properties/${listing.id}`)
            .send({ [field]: null }),
          field,
        );
      }
      expectInvalid(await as(admin).patch(`/properties/${listing.id}`).send({ status: 'EXPIRED' }), 'status');
      expectInvalid(
        await as(admin).patch(`/properties/${listing.id}`).send({ agentId: otherAgent }),
        'agentId',
      );
      const [row] = await sql<{ version: number }>(t, `select version from listings where id = ?`, [
        listing.id,
      ]);
      expect(row.version).toBe(2);
    });

    it('sets any settable status freely', async () => {
      const listing = await create();
      for (const status of ['DRAFT', 'RESERVED', 'SOLD', 'RENTED', 'WITHDRAWN', 'ACTIVE']) {
        const res = await as(admin).patch(`/properties/${listing.id}`).send({ status }).expect(200);
        expect(res.body.status).toBe(status);
      }
    });
  });

  describe('history', () => {
    it('records every write as apikey:<keyId> with its person and the changed fields, newest first', async () => {
      const listing = await create({ price: 100000, reference: 'HIST-1' });
      t.clock.advance(1000);
      await as(admin)
        .patch(`/properties/${listing.id}`)
        .send({ price: 120000, title: listing.title })
        .expect(200);
      t.clock.advance(1000);
      // nothing changed: no row
      await as(admin).patch(`/properties/${listing.id}`).send({ price: 120000 }).expect(200);
      t.clock.advance(1000);
      await as(admin).post(`/properties/${listing.id}/renew`).expect(200);

      const res = await as(admin).get(`/properties/${listing.id}/history`).expect(200);
      const rows = res.body.data as Json[];
      expect(rows).toHaveLength(3);
      expect(rows.map((row) => row.changedFields)).toEqual([
        ['status', 'expiresAt'],
        ['price'],
        expect.arrayContaining([
          'title',
          'operation',
          'propertyType',
          'price',
          'currency',
          'countryCode',
          'city',
          'agentId',
          'reference',
        ]),
      ]);
      for (const row of rows) {
        expect(row).toMatchObject({ source: `apikey:${adminKeyId}`, changedBy: a.admin.userId });
        expect(Object.keys(row).sort()).toEqual(['at', 'changedBy', 'changedFields', 'source']);
      }
      expect(new Date(rows[0].at as string) > new Date(rows[1].at as string)).toBe(true);

      // readable by a member; refused to another agency
      await as(member).get(`/properties/${listing.id}/history`).expect(200);
      const foreign = await as(other).get(`/properties/${listing.id}/history`);
      expect(foreign.status).toBe(404);
    });

    it('keeps at most the newest 100 rows in the answer', async () => {
      const listing = await create();
      await sql(
        t,
        `insert into listing_history (id, organization_id, listing_id, at, source, changed_by, changed_fields)
         select gen_random_uuid(), ?, ?, now() - (g || ' minutes')::interval, 'apikey:x', null, '{price}'
           from generate_series(1, 120) g`,
        [a.admin.organizationId, listing.id],
      );
      const res = await as(admin).get(`/properties/${listing.id}/history`).expect(200);
      expect(res.body.data).toHaveLength(100);
    });
  });

  describe('who may write', () => {
    it('refuses a member key every write with 403 ORG_ADMIN_REQUIRED, lets it read', async () => {
      const listing = await create();
      const attempts: Res[] = [
        await as(member).post('/properties').send(body()),
        await as(member).patch(`/properties/${listing.id}`).send({ title: 'x' }),
        await as(member).post(`/properties/${listing.id}/renew`),
        await as(member).delete(`/properties/${listing.id}`),
      ];
      for (const res of attempts) {
        expect(res.status).toBe(403);
        expect(codeOf(res)).toBe('ORG_ADMIN_REQUIRED');
      }
      await as(member).get(`/properties/${listing.id}`).expect(200);
    });

    it('refuses a key without properties:write every write with 403', async () => {
      const listing = await create();
      const attempts: Res[] = [
        await as(readOnly).post('/properties').send(body()),
        await as(readOnly).patch(`/properties/${listing.id}`).send({ title: 'x' }),
        await as(readOnly).post(`/properties/${listing.id}/renew`),
        await as(readOnly).delete(`/properties/${listing.id}`),
      ];
      for (const res of attempts) {
        expect(res.status).toBe(403);
        expect(codeOf(res)).toBe('API_KEY_SCOPE_MISSING');
      }
      await as(readOnly).get(`/properties/${listing.id}`).expect(200);
      const noRead = await listingsKey(t, a.admin, ['properties:write']);
      expect((await as(noRead).get(`/properties/${listing.id}`)).status).toBe(403);
    });

    it('answers 400 for an id that is not a UUID', async () => {
      expectInvalid(await as(admin).get('/properties/nope'));
      expectInvalid(await as(admin).patch('/properties/nope').send({ title: 'x' }));
      expectInvalid(await as(admin).get('/properties/nope/history'));
    });
  });

  describe('other agencies and the network', () => {
    it("answers 404 Listing not found. for another agency's private listing on every route", async () => {
      const hidden = await create({ networkVisible: false });
      const draft = await create({ status: 'DRAFT' });
      for (const id of [hidden.id, draft.id, randomUUID()]) {
        const attempts: Res[] = [
          await as(other).get(`/properties/${id}`),
          await as(other).patch(`/properties/${id}`).send({ title: 'mine now' }),
          await as(other).post(`/properties/${id}/renew`),
          await as(other).delete(`/properties/${id}`),
          await as(other).get(`/properties/${id}/history`),
        ];
        for (const res of attempts) {
          expect(res.status).toBe(404);
          expect(codeOf(res)).toBe('NOT_FOUND');
          expect(JSON.stringify(res.body)).toContain('Listing not found.');
        }
      }
      const [row] = await sql<{ title: string; deleted_at: Date | null }>(
        t,
        `select title, deleted_at from listings where id = ?`,
        [hidden.id],
      );
      expect(row).toEqual({ title: hidden.title, deleted_at: null });
    });

    it("shows another agency's ACTIVE network listing without commission, exact location or contact unless allowed", async () => {
      const listing = await create({
        commission: 3,
        sharedCommission: 1.5,
        coordinates: { lat: 36.72, lon: -4.42 },
        addressLine1: 'Calle Larios 5',
      });
      const seen = await as(other).get(`/properties/${listing.id}`).expect(200);
      expect(seen.body).not.toHaveProperty('commission');
      expect(seen.body).toMatchObject({
        id: listing.id,
        ref: { source: 'internal', id: listing.id },
        sharedCommission: '1.50',
        coordinates: null,
        addressLine1: 'Calle Larios 5',
        agent: { id: agent, displayEmail: null, phoneNumber: null, whatsappNumber: null },
      });
      expect((seen.body.agent as Json).firstName).toEqual(expect.any(String));

      await as(admin).patch(`/properties/${listing.id}`).send({ showExactLocation: true }).expect(200);
      await sql(t, `update agents set share_contact_on_network = true where id = ?`, [agent]);
      try {
        const allowed = await as(other).get(`/properties/${listing.id}`).expect(200);
        expect(allowed.body).not.toHaveProperty('commission');
        expect(allowed.body).toMatchObject({
          coordinates: { lat: 36.72, lon: -4.42 },
          agent: {
            displayEmail: expect.any(String),
            phoneNumber: '+34611111111',
            whatsappNumber: '+34622222222',
          },
        });
      } finally {
        await sql(t, `update agents set share_contact_on_network = false where id = ?`, [agent]);
      }
      // the owner always sees everything
      const own = await as(admin).get(`/properties/${listing.id}`).expect(200);
      expect(own.body).toMatchObject({ commission: '3.00', coordinates: { lat: 36.72, lon: -4.42 } });
    });

    it('hides a listing from others once it is not ACTIVE or not networkVisible', async () => {
      const listing = await create();
      await as(other).get(`/properties/${listing.id}`).expect(200);
      for (const status of ['RESERVED', 'SOLD', 'DRAFT', 'WITHDRAWN']) {
        await as(admin).patch(`/properties/${listing.id}`).send({ status }).expect(200);
        expect((await as(other).get(`/properties/${listing.id}`)).status).toBe(404);
      }
      await as(admin)
        .patch(`/properties/${listing.id}`)
        .send({ status: 'ACTIVE', networkVisible: false })
        .expect(200);
      expect((await as(other).get(`/properties/${listing.id}`)).status).toBe(404);
      await as(admin).patch(`/properties/${listing.id}`).send({ networkVisible: true }).expect(200);
      await as(other).get(`/properties/${listing.id}`).expect(200);
    });
  });

  describe('renew and delete', () => {
    it('renews to ACTIVE with expiresAt = max(now, expiresAt) + 90 days', async () => {
      const now = t.clock.now();
      const future = new Date(now.getTime() + 10 * DAY);
      const early = await create({ expiresAt: future.toISOString(), status: 'WITHDRAWN' });
      const renewed = await as(admin).post(`/properties/${early.id}/renew`).send({}).expect(200);
      expect(renewed.body).toMatchObject({
        status: 'ACTIVE',
        expiresAt: new Date(future.getTime() + 90 * DAY).toISOString(),
      });

      const past = new Date(now.getTime() - 5 * DAY);
      const late = await create({ expiresAt: past.toISOString() });
      await sql(t, `update listings set status = 'EXPIRED' where id = ?`, [late.id]);
      const back = await as(admin).post(`/properties/${late.id}/renew`).expect(200);
      expect(back.body).toMatchObject({
        status: 'ACTIVE',
        expiresAt: new Date(now.getTime() + 90 * DAY).toISOString(),
      });
    });

    it('soft deletes: 204, then 404 everywhere, the row kept with deleted_at and a history row', async () => {
      const listing = await create();
      await as(admin).delete(`/properties/${listing.id}`).expect(204);
      for (const res of [
        await as(admin).get(`/properties/${listing.id}`),
        await as(admin).patch(`/properties/${listing.id}`).send({ title: 'back' }),
        await as(admin).post(`/properties/${listing.id}/renew`),
        await as(admin).delete(`/properties/${listing.id}`),
        await as(admin).get(`/properties/${listing.id}/history`),
        await as(other).get(`/properties/${listing.id}`),
      ] as Res[]) {
        expect(res.status).toBe(404);
        expect(codeOf(res)).toBe('NOT_FOUND');
      }
      const [row] = await sql<{ deleted_at: Date | null }>(
        t,
        `select deleted_at from listings where id = ?`,
        [listing.id],
      );
      expect(row.deleted_at).not.toBeNull();
      const history = await sql<{ changed_fields: string[]; source: string }>(
        t,
        `select changed_fields, source from listing_history where listing_id = ? order by at desc, id desc limit 1`,
        [listing.id],
      );
      expect(history[0]).toEqual({ changed_fields: ['deleted'], source: `apikey:${adminKeyId}` });
    });
  });

  describe('propertyListingId on deals', () => {
    it('must name a listing the agency can read (own live, or on the network), else 400', async () => {
      const lead = await t.seed.lead(a.admin);
      const own = await create();
      const network = await createListing(t, other, { agentId: otherAgent });
      const hidden = await createListing(t, other, { agentId: otherAgent, networkVisible: false });
      const gone = await create();
      await as(admin).delete(`/properties/${gone.id}`).expect(204);
      const crm = api(t, a.admin.key);

      for (const id of [hidden.id, gone.id, randomUUID()]) {
        const res = await crm
          .post('/v1/deals')
          .send({ leadId: lead.id, title: 'Sale', propertyListingId: id });
        expectInvalid(res, 'propertyListingId');
      }
      const made = await crm
        .post('/v1/deals')
        .send({ leadId: lead.id, title: 'Sale', propertyListingId: own.id })
        .expect(201);
      expect(made.body.propertyListingId).toBe(own.id);
      await crm.patch(`/v1/deals/${made.body.id}`).send({ propertyListingId: network.id }).expect(200);
      expectInvalid(
        await crm.patch(`/v1/deals/${made.body.id}`).send({ propertyListingId: hidden.id }),
        'propertyListingId',
      );
      // the listing already on the deal may stay after it leaves the network
      await as(other).patch(`/properties/${network.id}`).send({ status: 'SOLD' }).expect(200);
      await crm
        .patch(`/v1/deals/${made.body.id}`)
        .send({ propertyListingId: network.id, title: 'Sold' })
        .expect(200);
      await crm.patch(`/v1/deals/${made.body.id}`).send({ propertyListingId: null }).expect(200);
    });
  });
});
