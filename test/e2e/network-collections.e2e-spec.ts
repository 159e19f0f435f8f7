import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { DAY } from '@app/platform';
import { portalCacheKey } from '../../libs/listings/src/application/portal-cache';
import {
  Agency,
  advanceClock,
  api,
  asSession,
  count,
  expectError,
  expectNotFound,
  expectValidation,
  SignedIn,
  sql,
  TestApp,
} from '../fixtures';
import { agentOf, insertListings } from '../fixtures/listings';

/**
 * Collections and buyer requests (issue 17 items 7 and 8, INTERFACES.md "Brochures and network"):
 * the session writes, the `/v1` reads, membership (not a member → 404 whatever the role), the caps
 * (25 collections, 40 items + `truncated`, 200 items), duplicates, `unavailable` from stored state
 * only; buyer requests' own list, every fit rule, close, expiry by the clock, and that notes, the lead,
 * names, phones and emails never reach another agency.
 */

const MISSING = '0190a0a0-0000-7000-8000-0000000000c1';

describe('Network: collections and buyer requests', () => {
  let t: TestApp;
  let a: Agency;
  let b: Agency;
  /** properties:read keys by person. */
  const keys = new Map<string, string>();
  let agentA: string;
  let agentB: string;

  const as = (who: SignedIn) => ({
    get: (path: string) => asSession(t.http.get(path), who),
    post: (path: string) => asSession(t.http.post(path), who),
    put: (path: string) => asSession(t.http.put(path), who),
    patch: (path: string) => asSession(t.http.patch(path), who),
    delete: (path: string) => asSession(t.http.delete(path), who),
  });
  const v1 = (who: SignedIn) => api(t, keys.get(who.userId)!);
  const collection = async (who: SignedIn, name = 'Sea views'): Promise<{ id: string }> => {
    const res = await as(who).post('/network/collections').send({ name });
    if (res.status !== 201)
      throw new Error(`collection not created: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const addItem = (who: SignedIn, id: string, body: Record<string, unknown>) =>
    as(who).post(`/network/collections/${id}/items`).send(body);
  const internal = (id: string) => ({ source: 'internal', id });
  /** `n` items straight into the table, `createdAt` spread a second apart. */
  const insertItems = async (collectionId: string, userId: string, n: number) =>
    sql(
      t,
      `insert into collection_items (id, collection_id, source, source_id, country, snapshot, created_by, created_at)
       select gen_random_uuid(), ?, 'demoportal', 'dp-es-' || lpad(g::text, 4, '0') || '-' || ?, 'es',
              jsonb_build_object('title', 'Home ' || g, 'price', '1000.00', 'currency', 'EUR', 'city', 'Nerja',
                                 'mainImageUrl', null),
              ?, ?::timestamptz - (g || ' seconds')::interval
         from generate_series(1, ?) g`,
      [collectionId, collectionId.slice(0, 8), userId, t.clock.now(), n],
    );

  beforeAll(async () => {
    t = await TestApp.start();
    a = await t.seed.agency('Casa Collections');
    b = await t.seed.agency('Other Collections');
    for (const person of [a.admin, a.member, a.colleague, b.admin, b.member, b.colleague])
      keys.set(person.userId, (await t.seed.apiKey(person, ['properties:read'])).key);
    agentA = await agentOf(t, a.admin);
    agentB = await agentOf(t, b.admin);
  });
  afterAll(() => t.stop());
  afterEach(async () => {
    await sql(t, 'delete from portal_allowance');
  });

  describe('collections: membership', () => {
    it('creates with the creator as member; only members see or change it (an admin who is not one → 404)', async () => {
      const res = await as(a.member)
        .post('/network/collections')
        .send({ name: 'For the Jansens' })
        .expect(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        name: 'For the Jansens',
        homeCount: 0,
        updatedAt: t.clock.now().toISOString(),
        createdBy: a.member.userId,
        memberIds: [a.member.userId],
        truncated: false,
        items: [],
      });
      const id = res.body.id as string;

      const mine = await v1(a.member).get('/v1/collections').expect(200);
      expect(mine.body.data).toContainEqual({
        id,
        name: 'For the Jansens',
        homeCount: 0,
        updatedAt: expect.any(String),
      });
      await v1(a.member).get(`/v1/collections/${id}`).expect(200);

      for (const outsider of [a.colleague, a.admin, b.admin, b.member]) {
        expectNotFound(await v1(outsider).get(`/v1/collections/${id}`), 'Collection');
        expect(
          (await v1(outsider).get('/v1/collections')).body.data.map((c: { id: string }) => c.id),
        ).not.toContain(id);
        expectNotFound(
          await as(outsider).patch(`/network/collections/${id}`).send({ name: 'x' }),
          'Collection',
        );
        expectNotFound(await as(outsider).delete(`/network/collections/${id}`), 'Collection');
        expectNotFound(await addItem(outsider, id, internal(MISSING)), 'Collection');
        expectNotFound(
          await as(outsider)
            .put(`/network/collections/${id}/members`)
            .send({ userIds: [outsider.userId] }),
          'Collection',
        );
      }
      expectNotFound(await v1(a.member).get(`/v1/collections/${MISSING}`), 'Collection');
      expectError(await v1(a.member).get('/v1/collections/not-a-uuid'), 400, 'VALIDATION_FAILED');
    });

    it('PUT members: a colleague added sees it and may change it; the creator always stays; outsiders → 400', async () => {
      const { id } = await collection(a.member, 'Shared');
      const put = await as(a.member)
        .put(`/network/collections/${id}/members`)
        .send({ userIds: [a.colleague.userId] })
        .expect(200);
      expect([...put.body.memberIds].sort()).toEqual([a.member.userId, a.colleague.userId].sort());

      await v1(a.colleague).get(`/v1/collections/${id}`).expect(200);
      expect(
        (await v1(a.colleague).get('/v1/collections')).body.data.map((c: { id: string }) => c.id),
      ).toContain(id);
      await as(a.colleague).patch(`/network/collections/${id}`).send({ name: 'Shared, renamed' }).expect(200);

      // the colleague drops everyone: the creator stays, the colleague is out
      const dropped = await as(a.colleague)
        .put(`/network/collections/${id}/members`)
        .send({ userIds: [] })
        .expect(200);
      expect(dropped.body.memberIds).toEqual([a.member.userId]);
      expectNotFound(await v1(a.colleague).get(`/v1/collections/${id}`), 'Collection');

      expectValidation(
        await as(a.member)
          .put(`/network/collections/${id}/members`)
          .send({ userIds: [b.member.userId] }),
        'userIds[0]',
      );
      expectValidation(
        await as(a.member)
          .put(`/network/collections/${id}/members`)
          .send({ userIds: Array.from({ length: 101 }, () => randomUUID()) }),
        'userIds',
      );
      expectValidation(await as(a.member).post('/network/collections').send({ name: '' }), 'name');
      expectValidation(
        await as(a.member)
          .post('/network/collections')
          .send({ name: 'x'.repeat(101) }),
        'name',
      );
    });

    it('rename, remove item and delete bump or end it; another agency cannot reach it', async () => {
      const { id } = await collection(a.admin, 'To rename');
      const [listing] = await insertListings(t, a.admin.organizationId, agentA, 1);
      t.clock.advance(60_000);
      const renamed = await as(a.admin)
        .patch(`/network/collections/${id}`)
        .send({ name: 'Renamed' })
        .expect(200);
      expect(renamed.body).toMatchObject({ name: 'Renamed', updatedAt: t.clock.now().toISOString() });
      const item = await addItem(a.admin, id, internal(listing)).expect(201);
      t.clock.advance(60_000);
      await as(a.admin).delete(`/network/collections/${id}/items/${item.body.itemId}`).expect(204);
      const after = await v1(a.admin).get(`/v1/collections/${id}`).expect(200);
      expect(after.body).toMatchObject({ homeCount: 0, items: [], updatedAt: t.clock.now().toISOString() });
      expectNotFound(
        await as(a.admin).delete(`/network/collections/${id}/items/${item.body.itemId}`),
        'Collection item',
      );
      await as(a.admin).delete(`/network/collections/${id}`).expect(204);
      expectNotFound(await v1(a.admin).get(`/v1/collections/${id}`), 'Collection');
      expect(
        await count(t, 'select count(*) as n from collection_members where collection_id = ?', [id]),
      ).toBe(0);
      t.clock.reset();
    });
  });

  describe('/v1 access', () => {
    it('needs properties:read (403 API_KEY_SCOPE_MISSING); a session token is not a key', async () => {
      const crmOnly = a.member.key;
      for (const path of ['/v1/collections', `/v1/collections/${MISSING}`, '/v1/buyer-requests'])
        expectError(await api(t, crmOnly).get(path), 403, 'API_KEY_SCOPE_MISSING');
      expect((await as(a.member).get('/v1/collections')).status).toBe(401);
    });
  });

  describe('collections: items', () => {
    it('adds an own listing with a small copy; the same home twice → 409; unreadable homes → 400', async () => {
      const { id } = await collection(a.member, 'Items');
      const [own] = await insertListings(t, a.admin.organizationId, agentA, 1, { city: 'Nerja' });
      const res = await addItem(a.member, id, internal(own)).expect(201);
      expect(res.body).toEqual({
        itemId: expect.any(String),
        id: own,
        source: 'internal',
        ref: { source: 'internal', id: own },
        title: expect.stringMatching(/^Listing /),
        price: expect.stringMatching(/^\d+\.\d{2}$/),
        currency: 'EUR',
        city: 'Nerja',
        mainImageUrl: null,
        unavailable: false,
        addedAt: expect.any(String),
      });
      const stored = await sql<{ snapshot: Record<string, unknown> }>(
        t,
        'select snapshot from collection_items where id = ?',
        [res.body.itemId],
      );
      expect(stored[0].snapshot).toEqual({
        title: res.body.title,
        price: res.body.price,
        currency: 'EUR',
        city: 'Nerja',
        mainImageUrl: null,
      });
      expectError(await addItem(a.member, id, internal(own)), 409, 'CONFLICT');

      // another agency's: on the network it is readable; private or missing it is not
      const [network] = await insertListings(t, b.admin.organizationId, agentB, 1);
      const [privateOne] = await insertListings(t, b.admin.organizationId, agentB, 1, {
        networkVisible: false,
      });
      await addItem(a.member, id, internal(network)).expect(201);
      expectValidation(await addItem(a.member, id, internal(privateOne)), 'id');
      expectValidation(await addItem(a.member, id, internal(MISSING)), 'id');
      expectValidation(await addItem(a.member, id, { source: 'nowhere', id: 'x' }), 'source');
      expectValidation(await addItem(a.member, id, { source: 'demoportal', id: 'dp-es-0001' }), 'country');
      expectValidation(await addItem(a.member, id, { source: 'internal' }), 'id');
      expect(await count(t, 'select count(*) as n from collection_items where collection_id = ?', [id])).toBe(
        2,
      );
    });

    it('unavailable from stored state: deleted, withdrawn or off the network; feed rows gone; portal copies kept', async () => {
      const { id } = await collection(a.member, 'Availability');
      const [toDelete, toWithdraw, kept] = await insertListings(t, a.admin.organizationId, agentA, 3);
      const [offNetwork] = await insertListings(t, b.admin.organizationId, agentB, 1);
      const [feedRow] = await insertListings(t, a.admin.organizationId, null, 1, { source: 'kyero' });
      for (const listing of [toDelete, toWithdraw, kept, offNetwork])
        await addItem(a.member, id, internal(listing)).expect(201);
      await addItem(a.member, id, { source: 'kyero', id: feedRow }).expect(201);
      const portal = await addItem(a.member, id, {
        source: 'demoportal',
        id: 'dp-es-0042',
        country: 'es',
      }).expect(201);
      expect(portal.body).toMatchObject({
        id: 'dp-es-0042',
        ref: { source: 'demoportal', id: 'dp-es-0042', country: 'es' },
        unavailable: false,
        title: expect.any(String),
      });

      await sql(t, `update listings set deleted_at = now() where id = ?`, [toDelete]);
      await sql(t, `update listings set status = 'WITHDRAWN' where id = ?`, [toWithdraw]);
      await sql(t, `update listings set network_visible = false where id = ?`, [offNetwork]);
      await sql(t, `update listings set deleted_at = now() where id = ?`, [feedRow]);
      // a portal read would fail now: the detail never reads upstream
      await sql(t, `delete from portal_cache`);
      await sql(
        t,
        `insert into portal_allowance (organization_id, day, used) values (?, ?::date, 300)
         on conflict (organization_id, day) do update set used = 300`,
        [a.member.organizationId, new Date().toISOString().slice(0, 10)],
      );

      const detail = await v1(a.member).get(`/v1/collections/${id}`).expect(200);
      const bySourceId = new Map(detail.body.items.map((item: { id: string }) => [item.id, item]));
      for (const gone of [toDelete, toWithdraw, offNetwork, feedRow])
        expect(bySourceId.get(gone)).toMatchObject({
          unavailable: true,
          title: null,
          price: null,
          currency: null,
          city: null,
          mainImageUrl: null,
        });
      expect(bySourceId.get(kept)).toMatchObject({ unavailable: false, title: expect.any(String) });
      expect(bySourceId.get('dp-es-0042')).toMatchObject({ unavailable: false, title: portal.body.title });
      expect(detail.body.homeCount).toBe(6);
    });

    it('a portal home past the daily allowance → 429 and nothing stored', async () => {
      const { id } = await collection(a.member, 'Allowance');
      const country = 'pt';
      const ref = 'dp-pt-0177';
      await sql(t, `delete from portal_cache where cache_key = ?`, [
        portalCacheKey('listing', 'demoportal', country, { id: ref }),
      ]);
      await sql(
        t,
        `insert into portal_allowance (organization_id, day, used) values (?, ?::date, 300)
         on conflict (organization_id, day) do update set used = 300`,
        [a.member.organizationId, new Date().toISOString().slice(0, 10)],
      );
      expectError(
        await addItem(a.member, id, { source: 'demoportal', id: ref, country }),
        429,
        'DAILY_LIMIT_REACHED',
      );
      expect(await count(t, 'select count(*) as n from collection_items where collection_id = ?', [id])).toBe(
        0,
      );
    });

    it('the caps: 25 collections listed (hasMore), 40 newest items (truncated), the 201st item → 409', async () => {
      const c = await t.seed.agency('Caps Collections');
      keys.set(c.member.userId, (await t.seed.apiKey(c.member, ['properties:read'])).key);
      const made: string[] = [];
      for (let i = 0; i < 26; i++) {
        made.push((await collection(c.member, `Collection ${i}`)).id);
        t.clock.advance(1000);
      }
      const list = await v1(c.member).get('/v1/collections').expect(200);
      expect(list.body.hasMore).toBe(true);
      expect(list.body.data.map((row: { id: string }) => row.id)).toEqual(made.slice(1).reverse());

      const big = made[0];
      await insertItems(big, c.member.userId, 41);
      const detail = await v1(c.member).get(`/v1/collections/${big}`).expect(200);
      expect(detail.body).toMatchObject({ homeCount: 41, truncated: true });
      expect(detail.body.items).toHaveLength(40);
      expect(detail.body.items[0].title).toBe('Home 1');
      expect(detail.body.items[39].title).toBe('Home 40');
      expect(detail.body.items.every((item: { unavailable: boolean }) => !item.unavailable)).toBe(true);

      const full = made[1];
      await insertItems(full, c.member.userId, 200);
      const [listing] = await insertListings(t, c.member.organizationId, null, 1);
      const res = await addItem(c.member, full, internal(listing));
      expectError(res, 409, 'CONFLICT');
      expect(res.body.error.message).toBe('A collection holds at most 200 homes.');
      await as(c.member)
        .delete(
          `/network/collections/${full}/items/${(await sql<{ id: string }>(t, 'select id from collection_items where collection_id = ? limit 1', [full]))[0].id}`,
        )
        .expect(204);
      await addItem(c.member, full, internal(listing)).expect(201);
      t.clock.reset();
    });
  });

  describe('buyer requests', () => {
    const body = (overrides: Record<string, unknown> = {}) => ({
      operation: 'sale',
      propertyTypes: ['apartment', 'penthouse'],
      countryCode: 'ES',
      areas: ['Marbella', 'Estepona'],
      priceMax: 450000,
      currency: 'EUR',
      bedroomsMin: 2,
      ...overrides,
    });
    const post = (who: SignedIn, overrides: Record<string, unknown> = {}) =>
      as(who).post('/network/buyer-requests').send(body(overrides));
    const ids = (res: Response) => res.body.data.map((row: { id: string }) => row.id);

    /** An ACTIVE network listing of agency B (or `of`) in a city no other test uses. */
    const networkListing = async (
      city: string,
      overrides: Record<string, unknown> = {},
      of: { organizationId: string; agentId: string } = {
        organizationId: b.admin.organizationId,
        agentId: agentB,
      },
    ) => {
      const [id] = await insertListings(t, of.organizationId, of.agentId, 1, { city });
      await sql(
        t,
        `update listings set price = ?, bedrooms = ?, community = ?, property_type = ?, status = ?, network_visible = ?
          where id = ?`,
        [
          overrides.price ?? 300000,
          overrides.bedrooms === undefined ? 3 : overrides.bedrooms,
          overrides.community ?? `${city} Alto`,
          overrides.propertyType ?? 'apartment',
          overrides.status ?? 'ACTIVE',
          overrides.networkVisible ?? true,
          id,
        ],
      );
      return id;
    };

    it('creates with a summary from the structured fields only; a lead out of reach → 404', async () => {
      const lead = await t.seed.lead(a.member);
      const res = await post(a.member, { leadId: lead.id, notes: 'Pays cash' }).expect(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        summary: 'Buying: apartment or penthouse in Marbella, Estepona · up to EUR 450,000 · 2+ bedrooms',
        status: 'open',
        createdAt: t.clock.now().toISOString(),
      });
      const rent = await post(a.member, {
        operation: 'rent',
        propertyTypes: ['land', 'villa', 'house'],
        areas: ['Nerja'],
        priceMax: 1500.5,
        bedroomsMin: undefined,
      }).expect(201);
      expect(rent.body.summary).toBe('Renting: plot of land, villa or house in Nerja · up to EUR 1,500.5');

      const colleaguesLead = await t.seed.lead(a.admin, { assigneeIds: [a.colleague.userId] });
      expectNotFound(await post(a.member, { leadId: colleaguesLead.id }), 'Lead');
      expectNotFound(await post(a.member, { leadId: 999_999_999 }), 'Lead');
      await post(a.admin, { leadId: colleaguesLead.id }).expect(201);

      expectValidation(await post(a.member, { propertyTypes: [] }), 'propertyTypes');
      expectValidation(await post(a.member, { propertyTypes: ['castle'] }), 'propertyTypes');
      expectValidation(await post(a.member, { areas: [] }), 'areas');
      expectValidation(
        await post(a.member, { areas: Array.from({ length: 11 }, (_, i) => `Area ${i}`) }),
        'areas',
      );
      expectValidation(await post(a.member, { areas: ['x'.repeat(101)] }), 'areas');
      expectValidation(await post(a.member, { priceMax: -1 }), 'priceMax');
      expectValidation(await post(a.member, { notes: 'x'.repeat(2001) }), 'notes');
      expectValidation(await post(a.member, { operation: 'swap' }), 'operation');
      expectValidation(await post(a.member, { countryCode: 'es' }), 'countryCode');
    });

    it('without listingId: the caller’s own requests only, every status, newest first', async () => {
      const c = await t.seed.agency('Own Requests');
      for (const person of [c.member, c.colleague])
        keys.set(person.userId, (await t.seed.apiKey(person, ['properties:read'])).key);
      const made: string[] = [];
      for (let i = 0; i < 27; i++) {
        made.push((await post(c.member, { areas: [`Area ${i}`] }).expect(201)).body.id);
        t.clock.advance(1000);
      }
      await post(c.colleague).expect(201);
      await as(c.member).post(`/network/buyer-requests/${made[26]}/close`).expect(200);
      const list = await v1(c.member).get('/v1/buyer-requests').expect(200);
      expect(list.body.hasMore).toBe(true);
      expect(ids(list)).toEqual(made.slice(2).reverse());
      expect(list.body.data[0].status).toBe('closed');
      expect(list.body.data[1].status).toBe('open');
      expect((await v1(c.colleague).get('/v1/buyer-requests').expect(200)).body.data).toHaveLength(1);
      t.clock.reset();
    });

    it('with listingId: open requests of agencies other than the caller’s that fit, rule by rule', async () => {
      const city = `Fitville ${randomUUID().slice(0, 8)}`;
      const listing = await networkListing(city);
      const fits = (overrides: Record<string, unknown> = {}) =>
        post(b.member, {
          areas: [city.toUpperCase().replace('I', 'Í')],
          priceMax: 300000,
          bedroomsMin: 3,
          ...overrides,
        });

      const fitting = [
        (await fits()).body.id,
        (await fits({ areas: ['Elsewhere', `${city.toLowerCase()} ALTO`] })).body.id,
        (await fits({ bedroomsMin: undefined })).body.id,
        (await fits({ propertyTypes: ['villa', 'apartment'] })).body.id,
        (await post(b.colleague, { areas: [city], priceMax: 999999, bedroomsMin: 1 })).body.id,
      ];
      const notFitting = [
        (await fits({ operation: 'rent' })).body.id,
        (await fits({ propertyTypes: ['villa'] })).body.id,
        (await fits({ countryCode: 'PT' })).body.id,
        (await fits({ areas: ['Marbella'] })).body.id,
        (await fits({ areas: [`${city} Norte`] })).body.id,
        (await fits({ priceMax: 299999.99 })).body.id,
        (await fits({ currency: 'GBP' })).body.id,
        (await fits({ bedroomsMin: 4 })).body.id,
      ];
      const closed = (await fits()).body.id;
      await as(b.member).post(`/network/buyer-requests/${closed}/close`).expect(200);
      const expired = (await fits()).body.id;
      await sql(t, `update buyer_requests set expires_at = now() - interval '1 second' where id = ?`, [
        expired,
      ]);
      // the caller's own agency's requests are not "other agencies'"
      const ownAgency = (await post(a.member, { areas: [city], priceMax: 300000 })).body.id;

      const res = await v1(a.admin).get(`/v1/buyer-requests?listingId=${listing}`).expect(200);
      expect(ids(res).sort()).toEqual([...fitting].sort());
      expect(res.body.hasMore).toBe(false);
      for (const id of [...notFitting, closed, expired, ownAgency]) expect(ids(res)).not.toContain(id);
      expect(res.body.data.every((row: { status: string }) => row.status === 'open')).toBe(true);

      // a listing without bedrooms fits only requests without a minimum
      const noBedrooms = await networkListing(city, { bedrooms: null });
      expect(ids(await v1(a.admin).get(`/v1/buyer-requests?listingId=${noBedrooms}`).expect(200))).toEqual([
        fitting[2],
      ]);
    });

    it('listingId: non-uuid → 400; private, not ACTIVE, own not ACTIVE, deleted or missing → 404 Listing', async () => {
      expectError(await v1(a.member).get('/v1/buyer-requests?listingId=abc'), 400, 'VALIDATION_FAILED');
      const city = `Hidden ${randomUUID().slice(0, 8)}`;
      const privateOne = await networkListing(city, { networkVisible: false });
      const reserved = await networkListing(city, { status: 'RESERVED' });
      const ownAgency = { organizationId: a.admin.organizationId, agentId: agentA };
      const ownReserved = await networkListing(city, { status: 'RESERVED' }, ownAgency);
      const ownDeleted = await networkListing(city, {}, ownAgency);
      await sql(t, 'update listings set deleted_at = now() where id = ?', [ownDeleted]);
      for (const id of [privateOne, reserved, ownReserved, ownDeleted, MISSING])
        expectNotFound(await v1(a.member).get(`/v1/buyer-requests?listingId=${id}`), 'Listing');
    });

    it('listingId of one of the caller’s own ACTIVE listings (shared or not): other agencies’ fitting requests', async () => {
      const city = `Sellerton ${randomUUID().slice(0, 8)}`;
      const ownAgency = { organizationId: a.admin.organizationId, agentId: agentA };
      const shared = await networkListing(city, {}, ownAgency);
      const unshared = await networkListing(city, { networkVisible: false }, ownAgency);
      const fitting = [
        (await post(b.member, { areas: [city], priceMax: 300000, bedroomsMin: 3 })).body.id,
        (await post(b.colleague, { areas: [`${city} Alto`], priceMax: 400000 })).body.id,
      ];
      const tooCheap = (await post(b.member, { areas: [city], priceMax: 299999 })).body.id;
      // the seller's own agency's buyers are its own business, not the network's
      const ownAgencys = (await post(a.colleague, { areas: [city], priceMax: 300000 })).body.id;
      for (const listing of [shared, unshared]) {
        for (const who of [a.member, a.admin]) {
          const res = await v1(who).get(`/v1/buyer-requests?listingId=${listing}`).expect(200);
          expect(ids(res).sort()).toEqual([...fitting].sort());
          expect(ids(res)).not.toContain(tooCheap);
          expect(ids(res)).not.toContain(ownAgencys);
          expect(res.body.hasMore).toBe(false);
        }
      }
      // another agency cannot ask about the unshared one; the shared one answers it A's requests only
      expectNotFound(await v1(b.member).get(`/v1/buyer-requests?listingId=${unshared}`), 'Listing');
      expect(ids(await v1(b.member).get(`/v1/buyer-requests?listingId=${shared}`).expect(200))).toEqual([
        ownAgencys,
      ]);
    });

    it('notes, the lead, a name, a phone and an email never reach another agency', async () => {
      const city = `Privacy ${randomUUID().slice(0, 8)}`;
      const lead = await t.seed.lead(b.member, {
        firstName: 'Esperanza',
        lastName: 'Villalobos',
        email: 'esperanza.villalobos@buyers.example',
        phoneNumber: '+34699887766',
      });
      const notes = 'Call Esperanza Villalobos on +34 699 887 766 or esperanza.villalobos@buyers.example';
      // agency B's buyer fits B's own network listing: agency A, reading that listing, gets the request
      const listing = await networkListing(city);
      const created = await post(b.member, {
        leadId: lead.id,
        notes,
        areas: [city],
        priceMax: 300000,
      }).expect(201);
      const answers = [
        created,
        await v1(b.member).get('/v1/buyer-requests').expect(200),
        await v1(a.member).get(`/v1/buyer-requests?listingId=${listing}`).expect(200),
        await as(b.member).post(`/network/buyer-requests/${created.body.id}/close`).expect(200),
      ];
      expect(ids(answers[2])).toEqual([created.body.id]);
      for (const res of answers) {
        const text = JSON.stringify(res.body);
        for (const secret of [
          'Esperanza',
          'Villalobos',
          '887 766',
          '699887766',
          'buyers.example',
          'notes',
          'lead',
        ])
          expect(text).not.toContain(secret);
        expect(text).not.toContain(`"${lead.id}"`);
      }
    });

    it('close: the creator or an admin; a colleague → 403; another agency → 404; closed from then on', async () => {
      const mine = (await post(a.member).expect(201)).body.id;
      expectError(await as(a.colleague).post(`/network/buyer-requests/${mine}/close`), 403, 'FORBIDDEN');
      expectNotFound(await as(b.admin).post(`/network/buyer-requests/${mine}/close`), 'Buyer request');
      expectNotFound(await as(a.admin).post(`/network/buyer-requests/${MISSING}/close`), 'Buyer request');
      const closed = await as(a.member).post(`/network/buyer-requests/${mine}/close`).expect(200);
      expect(closed.body).toMatchObject({ id: mine, status: 'closed' });
      await as(a.member).post(`/network/buyer-requests/${mine}/close`).expect(200);

      const other = (await post(a.colleague).expect(201)).body.id;
      expect((await as(a.admin).post(`/network/buyer-requests/${other}/close`).expect(200)).body.status).toBe(
        'closed',
      );
    });

    it('expires 90 days after creation, by the clock', async () => {
      const city = `Expiry ${randomUUID().slice(0, 8)}`;
      const listing = await networkListing(city);
      const id = (await post(b.member, { areas: [city], priceMax: 300000 }).expect(201)).body.id;
      expect(ids(await v1(a.admin).get(`/v1/buyer-requests?listingId=${listing}`).expect(200))).toEqual([id]);

      await advanceClock(t, 90 * DAY - 1000, b.member);
      expect(ids(await v1(a.admin).get(`/v1/buyer-requests?listingId=${listing}`).expect(200))).toEqual([id]);
      await advanceClock(t, 1000, b.member);
      expect(
        (await v1(a.admin).get(`/v1/buyer-requests?listingId=${listing}`).expect(200)).body.data,
      ).toEqual([]);
      const own = await v1(b.member).get('/v1/buyer-requests').expect(200);
      expect(own.body.data.find((row: { id: string }) => row.id === id)).toMatchObject({ status: 'expired' });
      t.clock.reset();
      await t.seed.signIn(b.member);
    });
  });
});
