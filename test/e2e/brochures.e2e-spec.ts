import { AppConfig, DAY, HOUR } from '@app/platform';
import { Agency, api, count, expectError, expectNotFound, expectValidation, sql, TestApp } from '../fixtures';
import { brochuresKey, insertBrochure } from '../fixtures/brochures';
import { agentOf, insertListings } from '../fixtures/listings';

/**
 * Brochures through `/v1` (issue 17 items 1-3, INTERFACES.md "Brochures and network"): the state
 * table (create, revoke, renew from every status, refresh), snapshots without `commission`, the
 * listing edits a refresh keeps, order and removal, the list's filters and exact total, member vs
 * admin, another agency's brochure, the limits, scopes, the portal allowance (429, nothing stored),
 * the lead timeline entry and the Idempotency-Key replay.
 */

const MISSING = '0190a0a0-0000-7000-8000-000000000001';
const PORTAL = { source: 'demoportal', id: 'dp-es-0001', country: 'es' };
const ROW_FIELDS = [
  'createdAt',
  'creatorUserId',
  'expiresAt',
  'id',
  'lastViewedAt',
  'listingCount',
  'publicUrl',
  'recipientName',
  'showLocations',
  'slug',
  'status',
  'title',
  'viewCount',
];
const DETAIL_FIELDS = [...ROW_FIELDS, 'accentColorOverride', 'recipientNote', 'themeName'].sort();
const FULL_FIELDS = [...DETAIL_FIELDS, 'listings'].sort();
const LISTING_FIELDS = [
  'coordinates',
  'currency',
  'hiddenFields',
  'id',
  'images',
  'price',
  'ref',
  'source',
  'sourceId',
  'title',
].sort();

interface ListingRow {
  id: string;
  source: string;
  sourceId: string;
  title: string;
  [field: string]: unknown;
}

describe('Brochures: /v1 routes', () => {
  let t: TestApp;
  let a: Agency;
  let b: Agency;
  let k: { admin: string; member: string; colleague: string; other: string };
  let listings: string[];
  let otherListings: string[];
  let publicBaseUrl: string;

  const as = (key: string) => api(t, key);
  const ref = (id: string) => ({ source: 'internal', id });
  const create = (key: string, body: Record<string, unknown>) => as(key).post('/v1/brochures').send(body);
  const created = async (key: string, body: Record<string, unknown> = {}) => {
    const res = await create(key, { listings: [ref(listings[0])], ...body });
    expect(res.status).toBe(201);
    return res.body as { id: string; slug: string; listings: ListingRow[]; [field: string]: unknown };
  };
  const read = async (key: string, id: string) => (await as(key).get(`/v1/brochures/${id}`).expect(200)).body;
  const positions = async (brochureId: string) =>
    sql<{ id: string; position: number }>(
      t,
      'select id, position from brochure_listings where brochure_id = ? order by position',
      [brochureId],
    );
  const setAllowanceUsed = (organizationId: string, used: number) =>
    sql(
      t,
      `insert into portal_allowance (organization_id, day, used) values (?, ?::date, ?)
       on conflict (organization_id, day) do update set used = excluded.used`,
      [organizationId, t.clock.now().toISOString().slice(0, 10), used],
    );
  /** Past the portal cache's hour: the next portal read is an upstream call again. */
  let cacheRound = 0;
  const pastCache = () => t.clock.advance(++cacheRound * 2 * HOUR);

  beforeAll(async () => {
    t = await TestApp.start();
    publicBaseUrl = t.get(AppConfig).publicBaseUrl;
    a = await t.seed.agency('Brochure Agency');
    b = await t.seed.agency('Other Brochures');
    k = {
      admin: await brochuresKey(t, a.admin),
      member: await brochuresKey(t, a.member),
      colleague: await brochuresKey(t, a.colleague),
      other: await brochuresKey(t, b.admin),
    };
    const agent = await agentOf(t, a.admin);
    listings = await insertListings(t, a.admin.organizationId, agent, 30);
    await sql(
      t,
      `update listings set commission = 3.5, reference = 'REF-' || left(id::text, 4) where id = any(?::uuid[])`,
      [`{${listings.join(',')}}`],
    );
    otherListings = await insertListings(t, b.admin.organizationId, await agentOf(t, b.admin), 2);
  });
  afterAll(() => t.stop());
  afterEach(async () => {
    t.clock.reset();
    await sql(t, 'delete from portal_allowance where organization_id = any(?::uuid[])', [
      `{${a.admin.organizationId},${b.admin.organizationId}}`,
    ]);
  });

  describe('create', () => {
    it('creates an active brochure of listing copies without commission, slug and link as the spec says', async () => {
      const now = t.clock.now();
      const res = await create(k.member, {
        listings: [ref(listings[0]), ref(listings[1])],
        title: 'Villas en Málaga — Sea view & more!',
        recipientName: 'Ana García',
        recipientNote: 'As promised.',
        themeName: 'coastal',
        accentColorOverride: '#0E7490',
        showLocations: false,
      }).expect(201);
      expect(Object.keys(res.body).sort()).toEqual(FULL_FIELDS);
      expect(res.body.slug).toMatch(/^villas-en-malaga-sea-view-more-[a-z2-7]{10}$/);
      expect(res.body).toMatchObject({
        title: 'Villas en Málaga — Sea view & more!',
        status: 'active',
        creatorUserId: a.member.userId,
        recipientName: 'Ana García',
        recipientNote: 'As promised.',
        themeName: 'coastal',
        accentColorOverride: '#0E7490',
        showLocations: false,
        listingCount: 2,
        viewCount: 0,
        lastViewedAt: null,
        publicUrl: `${publicBaseUrl}/b/${res.body.slug}`,
        expiresAt: new Date(now.getTime() + 30 * DAY).toISOString(),
      });
      expect(res.body.listings).toHaveLength(2);
      for (const row of res.body.listings) expect(Object.keys(row).sort()).toEqual(LISTING_FIELDS);
      expect(res.body.listings[0]).toMatchObject({
        source: 'internal',
        sourceId: listings[0],
        title: expect.stringMatching(/^Listing \d+$/),
        ref: expect.stringMatching(/^REF-/),
        price: expect.stringMatching(/^\d+(\.\d+)?$/),
        currency: 'EUR',
        coordinates: true,
        images: 0,
        hiddenFields: [],
      });
      const stored = await sql<{ snapshot: Record<string, unknown>; position: number }>(
        t,
        'select snapshot, position from brochure_listings where brochure_id = ? order by position',
        [res.body.id],
      );
      expect(stored.map((row) => row.position)).toEqual([0, 1]);
      expect(stored[0].snapshot).not.toHaveProperty('commission');
      expect(stored[0].snapshot).toMatchObject({ id: listings[0], title: res.body.listings[0].title });
      expect(JSON.stringify(res.body)).not.toContain('commission');
    });

    it('slugs are unique for one title and cut the title part at 40 characters', async () => {
      const title = 'A very long brochure title that goes on and on for ever';
      const one = await created(k.admin, { title });
      const two = await created(k.admin, { title });
      expect(one.slug).not.toBe(two.slug);
      const base = one.slug.slice(0, -11);
      expect(base.length).toBeLessThanOrEqual(40);
      expect('a-very-long-brochure-title-that-goes-on-and-on-for-ever'.startsWith(base)).toBe(true);
    });

    it('replays the answer for the same Idempotency-Key and creates one brochure', async () => {
      const before = await count(t, 'select count(*) as n from brochures where organization_id = ?', [
        a.admin.organizationId,
      ]);
      const body = { listings: [ref(listings[2])], title: 'Idem brochure' };
      const first = await create(k.admin, body).set('Idempotency-Key', 'brochure-idem-1').expect(201);
      const second = await create(k.admin, body).set('Idempotency-Key', 'brochure-idem-1').expect(201);
      expect(second.body).toEqual(first.body);
      expect(
        await count(t, 'select count(*) as n from brochures where organization_id = ?', [
          a.admin.organizationId,
        ]),
      ).toBe(before + 1);
    });

    it('defaults: 30 days, classic theme, locations shown, the first listing’s title', async () => {
      const body = await created(k.admin);
      expect(body).toMatchObject({
        themeName: 'classic',
        showLocations: true,
        accentColorOverride: null,
        recipientName: null,
        title: body.listings[0].title,
        expiresAt: new Date(t.clock.now().getTime() + 30 * DAY).toISOString(),
      });
    });

    it('limits: 26 listings, title 256, recipientNote 4097, expiresInDays 0 and 366, bad theme and colour', async () => {
      const one = [ref(listings[0])];
      expectValidation(await create(k.admin, { listings: listings.slice(0, 26).map(ref) }), 'listings');
      expectValidation(await create(k.admin, { listings: [] }), 'listings');
      expectValidation(await create(k.admin, { listings: one, title: 'x'.repeat(256) }), 'title');
      expectValidation(
        await create(k.admin, { listings: one, recipientName: 'x'.repeat(256) }),
        'recipientName',
      );
      expectValidation(
        await create(k.admin, { listings: one, recipientNote: 'x'.repeat(4097) }),
        'recipientNote',
      );
      expectValidation(await create(k.admin, { listings: one, expiresInDays: 0 }), 'expiresInDays');
      expectValidation(await create(k.admin, { listings: one, expiresInDays: 366 }), 'expiresInDays');
      expectValidation(await create(k.admin, { listings: one, themeName: 'neon' }), 'themeName');
      expectValidation(
        await create(k.admin, { listings: one, accentColorOverride: 'red' }),
        'accentColorOverride',
      );
      expectValidation(
        await create(k.admin, { listings: one, accentColorOverride: '#12345' }),
        'accentColorOverride',
      );
      // the edges pass
      await create(k.admin, {
        listings: listings.slice(0, 25).map(ref),
        title: 'x'.repeat(255),
        recipientNote: 'n'.repeat(4096),
        expiresInDays: 365,
      }).expect(201);
      await create(k.admin, { listings: one, expiresInDays: 1 }).expect(201);
    });

    it('refuses an unreadable listing at listings[i] and a portal listing without country', async () => {
      const res = await create(k.admin, {
        listings: [
          ref(listings[0]),
          ref(MISSING),
          { source: 'demoportal', id: 'dp-es-0001' },
          { source: 'nope', id: 'x' },
        ],
      });
      expectValidation(res, 'listings[1]', 'listings[2]', 'listings[3]');
      expect(res.body.error.details.issues.map((i: { path: string }) => i.path)).not.toContain('listings[0]');
      // another agency's listing off the network cannot be read
      await sql(t, 'update listings set network_visible = false where id = ?', [otherListings[1]]);
      expectValidation(await create(k.admin, { listings: [ref(otherListings[1])] }), 'listings[0]');
    });

    it('the same listing twice in the body → 409 CONFLICT', async () => {
      expectError(await create(k.admin, { listings: [ref(listings[0]), ref(listings[0])] }), 409, 'CONFLICT');
    });

    it('reads a network listing of another agency', async () => {
      const body = await created(k.admin, { listings: [ref(otherListings[0])] });
      expect(body.listings[0]).toMatchObject({ source: 'internal', sourceId: otherListings[0] });
    });

    it('agentUserId: a member naming another → 403 FORBIDDEN; an admin may name a member, not a stranger', async () => {
      expectError(
        await create(k.member, { listings: [ref(listings[0])], agentUserId: a.colleague.userId }),
        403,
        'FORBIDDEN',
      );
      await create(k.member, { listings: [ref(listings[0])], agentUserId: a.member.userId }).expect(201);
      const named = await created(k.admin, { agentUserId: a.member.userId });
      const [row] = await sql<{ agent_user_id: string }>(
        t,
        'select agent_user_id from brochures where id = ?',
        [named.id],
      );
      expect(row.agent_user_id).toBe(a.member.userId);
      expectValidation(
        await create(k.admin, { listings: [ref(listings[0])], agentUserId: b.admin.userId }),
        'agentUserId',
      );
    });

    it('leadIds: each reachable lead gets a `brochure` timeline entry; an unreachable one → 404 Lead not found.', async () => {
      const mine = await t.seed.lead(a.admin, { assigneeIds: [a.member.userId] });
      const theirs = await t.seed.lead(a.admin, { assigneeIds: [a.colleague.userId] });
      const before = await count(t, 'select count(*) as n from brochures where organization_id = ?', [
        a.admin.organizationId,
      ]);
      expectNotFound(
        await create(k.member, { listings: [ref(listings[0])], leadIds: [mine.id, theirs.id] }),
        'Lead',
      );
      expectNotFound(await create(k.admin, { listings: [ref(listings[0])], leadIds: [999999999] }), 'Lead');
      expect(
        await count(t, 'select count(*) as n from brochures where organization_id = ?', [
          a.admin.organizationId,
        ]),
      ).toBe(before);

      const body = await created(k.member, { leadIds: [mine.id] });
      const timeline = await as(a.member.key).get(`/v1/leads/${mine.id}/timeline`).expect(200);
      const entries = (timeline.body.data as { type: string; brochure?: unknown }[]).filter(
        (e) => e.type === 'brochure',
      );
      expect(entries).toEqual([
        expect.objectContaining({ brochure: { brochureId: body.id, action: 'sent' } }),
      ]);
      // deleted: the entry goes with it
      await as(k.member).delete(`/v1/brochures/${body.id}`).expect(204);
      const after = await as(a.member.key).get(`/v1/leads/${mine.id}/timeline`).expect(200);
      expect((after.body.data as { type: string }[]).some((e) => e.type === 'brochure')).toBe(false);
    });

    it('brochures:write without properties:read → 403 API_KEY_SCOPE_MISSING on create, add, refresh and renew', async () => {
      const key = await brochuresKey(t, a.admin, ['brochures:read', 'brochures:write']);
      const brochure = await insertBrochure(t, a.admin.organizationId, a.admin.userId);
      const missing = { missing: ['properties:read'] };
      expectError(
        await create(key, { listings: [ref(listings[0])] }),
        403,
        'API_KEY_SCOPE_MISSING',
        expect.objectContaining(missing),
      );
      expectError(
        await as(key).post(`/v1/brochures/${brochure.id}/listings`).send(ref(listings[1])),
        403,
        'API_KEY_SCOPE_MISSING',
        expect.objectContaining(missing),
      );
      expectError(
        await as(key)
          .post(`/v1/brochures/${brochure.id}/listings/${brochure.listingIds[0]}/refresh`)
          .send({}),
        403,
        'API_KEY_SCOPE_MISSING',
        expect.objectContaining(missing),
      );
      expectError(
        await as(key).post(`/v1/brochures/${brochure.id}/renew`).send({}),
        403,
        'API_KEY_SCOPE_MISSING',
        expect.objectContaining(missing),
      );
      // the rest need only brochures:write
      await as(key).post(`/v1/brochures/${brochure.id}/revoke`).send({}).expect(200);
      const readOnly = await brochuresKey(t, a.admin, ['brochures:read']);
      expectError(
        await as(readOnly).post(`/v1/brochures/${brochure.id}/revoke`).send({}),
        403,
        'API_KEY_SCOPE_MISSING',
      );
      await as(readOnly).get(`/v1/brochures/${brochure.id}`).expect(200);
    });
  });

  describe('the daily portal allowance', () => {
    it('reads a portal listing (country kept) while the allowance lasts', async () => {
      pastCache();
      const body = await created(k.admin, { listings: [PORTAL, ref(listings[3])] });
      expect(body.listings[0]).toMatchObject({ source: 'demoportal', sourceId: 'dp-es-0001' });
      const [row] = await sql<{ country: string }>(t, 'select country from brochure_listings where id = ?', [
        body.listings[0].id,
      ]);
      expect(row.country).toBe('es');
    });

    it('allowance short → 429 DAILY_LIMIT_REACHED and nothing created or changed', async () => {
      const brochure = await insertBrochure(t, a.admin.organizationId, a.admin.userId, {
        listings: [{ source: 'demoportal', sourceId: 'dp-es-0001', country: 'es' }, {}],
      });
      const before = await count(t, 'select count(*) as n from brochures where organization_id = ?', [
        a.admin.organizationId,
      ]);
      pastCache();
      await setAllowanceUsed(a.admin.organizationId, 300);

      const res = await create(k.admin, { listings: [ref(listings[0]), PORTAL], title: 'Never stored' });
      expectError(res, 429, 'DAILY_LIMIT_REACHED');
      expect(res.headers['retry-after']).toEqual(expect.any(String));
      expect(
        await count(t, 'select count(*) as n from brochures where organization_id = ?', [
          a.admin.organizationId,
        ]),
      ).toBe(before);

      expectError(
        await as(k.admin).post(`/v1/brochures/${brochure.id}/listings`).send(PORTAL),
        409,
        'CONFLICT',
      );
      await sql(t, 'delete from brochure_listings where brochure_id = ? and source = ?', [
        brochure.id,
        'demoportal',
      ]);
      expectError(
        await as(k.admin).post(`/v1/brochures/${brochure.id}/listings`).send(PORTAL),
        429,
        'DAILY_LIMIT_REACHED',
      );
      expect(await positions(brochure.id)).toHaveLength(1);

      // renew with a refresh of a portal copy: refused, the expiry and copies untouched
      const withPortal = await insertBrochure(t, a.admin.organizationId, a.admin.userId, {
        status: 'revoked',
        listings: [
          { source: 'demoportal', sourceId: 'dp-es-0002', country: 'es', snapshot: { title: 'Old copy' } },
        ],
      });
      const [was] = await sql<{ expires_at: Date }>(t, 'select expires_at from brochures where id = ?', [
        withPortal.id,
      ]);
      expectError(
        await as(k.admin).post(`/v1/brochures/${withPortal.id}/renew`).send({ refreshListings: true }),
        429,
        'DAILY_LIMIT_REACHED',
      );
      expectError(
        await as(k.admin)
          .post(`/v1/brochures/${withPortal.id}/listings/${withPortal.listingIds[0]}/refresh`)
          .send({}),
        429,
        'DAILY_LIMIT_REACHED',
      );
      const [now] = await sql<{ expires_at: Date; status: string }>(
        t,
        'select expires_at, status from brochures where id = ?',
        [withPortal.id],
      );
      expect(now).toEqual({ expires_at: was.expires_at, status: 'revoked' });
      const [copy] = await sql<{ snapshot: { title: string } }>(
        t,
        'select snapshot from brochure_listings where id = ?',
        [withPortal.listingIds[0]],
      );
      expect(copy.snapshot.title).toBe('Old copy');
    });
  });

  describe('reach', () => {
    it('a member sees and changes only their own brochures; an admin all; another agency → 404', async () => {
      const members = await insertBrochure(t, a.admin.organizationId, a.member.userId);
      const colleagues = await insertBrochure(t, a.admin.organizationId, a.colleague.userId);
      expect((await read(k.member, members.id)).id).toBe(members.id);
      expect((await read(k.admin, members.id)).id).toBe(members.id);
      expectNotFound(await as(k.member).get(`/v1/brochures/${colleagues.id}`), 'Brochure');
      expectNotFound(
        await as(k.member).patch(`/v1/brochures/${colleagues.id}`).send({ title: 'x' }),
        'Brochure',
      );
      expectNotFound(await as(k.member).post(`/v1/brochures/${colleagues.id}/revoke`).send({}), 'Brochure');
      expectNotFound(await as(k.member).delete(`/v1/brochures/${colleagues.id}`), 'Brochure');
      expectNotFound(
        await as(k.member).post(`/v1/brochures/${colleagues.id}/listings`).send(ref(listings[5])),
        'Brochure',
      );
      await as(k.admin).patch(`/v1/brochures/${colleagues.id}`).send({ title: 'By the admin' }).expect(200);

      for (const key of [k.other]) {
        expectNotFound(await as(key).get(`/v1/brochures/${members.id}`), 'Brochure');
        expectNotFound(await as(key).patch(`/v1/brochures/${members.id}`).send({ title: 'x' }), 'Brochure');
        expectNotFound(await as(key).post(`/v1/brochures/${members.id}/renew`).send({}), 'Brochure');
        expectNotFound(await as(key).post(`/v1/brochures/${members.id}/revoke`).send({}), 'Brochure');
        expectNotFound(
          await as(key)
            .patch(`/v1/brochures/${members.id}/listings/${members.listingIds[0]}`)
            .send({ title: 'x' }),
          'Brochure',
        );
        expectNotFound(
          await as(key)
            .put(`/v1/brochures/${members.id}/listings/order`)
            .send({ listingIds: members.listingIds }),
          'Brochure',
        );
        expectNotFound(
          await as(key).delete(`/v1/brochures/${members.id}/listings/${members.listingIds[0]}`),
          'Brochure',
        );
        expectNotFound(await as(key).delete(`/v1/brochures/${members.id}`), 'Brochure');
      }
      expectNotFound(await as(k.admin).get(`/v1/brochures/${MISSING}`), 'Brochure');
      expectValidation(await as(k.admin).get('/v1/brochures/not-a-uuid'), 'brochureId');
      expect((await read(k.member, members.id)).status).toBe('active');
    });
  });

  describe('list', () => {
    let c: Agency;
    let ck: { admin: string; member: string };
    let ids: Record<string, string>;

    beforeAll(async () => {
      c = await t.seed.agency('List Brochures');
      ck = { admin: await brochuresKey(t, c.admin), member: await brochuresKey(t, c.member) };
      const base = t.clock.now().getTime();
      const at = (minutes: number) => new Date(base - minutes * 60_000);
      ids = {
        oldest: (
          await insertBrochure(t, c.admin.organizationId, c.member.userId, {
            title: 'Beach homes',
            createdAt: at(50),
            recipientName: 'Zoe',
          })
        ).id,
        expired: (
          await insertBrochure(t, c.admin.organizationId, c.member.userId, {
            title: 'Old offer',
            createdAt: at(40),
            expiresAt: new Date(base - 1000),
            slug: 'old-offer-abcdefghij',
          })
        ).id,
        revoked: (
          await insertBrochure(t, c.admin.organizationId, c.colleague.userId, {
            title: 'Gone',
            status: 'revoked',
            createdAt: at(30),
          })
        ).id,
        percent: (
          await insertBrochure(t, c.admin.organizationId, c.admin.userId, {
            title: '100% luxury',
            createdAt: at(20),
            recipientName: 'Ana',
          })
        ).id,
        newest: (
          await insertBrochure(t, c.admin.organizationId, c.admin.userId, {
            title: 'beach villas',
            createdAt: at(10),
            recipientName: 'Beatriz',
          })
        ).id,
      };
    });

    const list = (key: string, query = '') => as(key).get(`/v1/brochures${query}`);
    const idsOf = (res: { body: { data: { id: string }[] } }) => res.body.data.map((row) => row.id);

    it('an admin sees every brochure, newest first, with an exact total; rows as the spec says', async () => {
      const res = await list(ck.admin).expect(200);
      expect(Object.keys(res.body).sort()).toEqual(['data', 'hasMore', 'total']);
      expect(idsOf(res)).toEqual([ids.newest, ids.percent, ids.revoked, ids.expired, ids.oldest]);
      expect(res.body).toMatchObject({ total: 5, hasMore: false });
      for (const row of res.body.data) expect(Object.keys(row).sort()).toEqual([...ROW_FIELDS].sort());
      expect(res.body.data[0]).toMatchObject({ listingCount: 1, status: 'active' });
      expect(res.body.data.find((row: { id: string }) => row.id === ids.expired).status).toBe('expired');
      expect(res.body.data.find((row: { id: string }) => row.id === ids.revoked).status).toBe('revoked');
    });

    it('pages: limit and page, hasMore, total; limit 21 and 0 → 400', async () => {
      const first = await list(ck.admin, '?limit=2').expect(200);
      expect(idsOf(first)).toEqual([ids.newest, ids.percent]);
      expect(first.body).toMatchObject({ hasMore: true, total: 5 });
      const last = await list(ck.admin, '?limit=2&page=3').expect(200);
      expect(idsOf(last)).toEqual([ids.oldest]);
      expect(last.body).toMatchObject({ hasMore: false, total: 5 });
      const beyond = await list(ck.admin, '?limit=2&page=9').expect(200);
      expect(beyond.body).toEqual({ data: [], hasMore: false, total: 5 });
      expectValidation(await list(ck.admin, '?limit=21'), 'limit');
      expectValidation(await list(ck.admin, '?limit=0'), 'limit');
      expectValidation(await list(ck.admin, '?page=0'), 'page');
      await list(ck.admin, '?limit=20').expect(200);
    });

    it('status filters, the expired one by time', async () => {
      expect(idsOf(await list(ck.admin, '?status=active').expect(200))).toEqual([
        ids.newest,
        ids.percent,
        ids.oldest,
      ]);
      expect(idsOf(await list(ck.admin, '?status=expired').expect(200))).toEqual([ids.expired]);
      expect(idsOf(await list(ck.admin, '?status=revoked').expect(200))).toEqual([ids.revoked]);
      expect((await list(ck.admin, '?status=all').expect(200)).body.total).toBe(5);
      expectValidation(await list(ck.admin, '?status=gone'), 'status');
    });

    it('q: case-insensitive starts-with on title, recipient name or slug; % taken literally', async () => {
      expect(idsOf(await list(ck.admin, '?q=BEACH').expect(200))).toEqual([ids.newest, ids.oldest]);
      expect(idsOf(await list(ck.admin, '?q=bea').expect(200))).toEqual([ids.newest, ids.oldest]);
      expect(idsOf(await list(ck.admin, '?q=zo').expect(200))).toEqual([ids.oldest]);
      expect(idsOf(await list(ck.admin, '?q=old-offer-ab').expect(200))).toEqual([ids.expired]);
      expect(idsOf(await list(ck.admin, '?q=villas').expect(200))).toEqual([]);
      expect(idsOf(await list(ck.admin, '?q=100%25').expect(200))).toEqual([ids.percent]);
      expect(idsOf(await list(ck.admin, '?q=%25').expect(200))).toEqual([]);
    });

    it('a member sees their own only; createdById is for admins (member → 403 ORG_ADMIN_REQUIRED)', async () => {
      const res = await list(ck.member).expect(200);
      expect(idsOf(res)).toEqual([ids.expired, ids.oldest]);
      expect(res.body.total).toBe(2);
      expectError(await list(ck.member, `?createdById=${c.member.userId}`), 403, 'ORG_ADMIN_REQUIRED');
      expect(idsOf(await list(ck.admin, `?createdById=${c.colleague.userId}`).expect(200))).toEqual([
        ids.revoked,
      ]);
      expectValidation(await list(ck.admin, '?createdById=nope'), 'createdById');
    });

    it('another agency’s brochures never appear', async () => {
      const res = await list(k.other).expect(200);
      for (const id of Object.values(ids)) expect(idsOf(res)).not.toContain(id);
    });
  });

  describe('state table', () => {
    it('revoke from active, expired and revoked → revoked; the link stays', async () => {
      const active = await created(k.admin);
      const res = await as(k.admin).post(`/v1/brochures/${active.id}/revoke`).send({}).expect(200);
      expect(res.body).toEqual({
        id: active.id,
        slug: active.slug,
        publicUrl: `${publicBaseUrl}/b/${active.slug}`,
        expiresAt: active.expiresAt,
        status: 'revoked',
      });
      expect((await read(k.admin, active.id)).status).toBe('revoked');
      const again = await as(k.admin).post(`/v1/brochures/${active.id}/revoke`).expect(200);
      expect(again.body.status).toBe('revoked');

      const expired = await insertBrochure(t, a.admin.organizationId, a.admin.userId, {
        expiresAt: new Date(t.clock.now().getTime() - 1000),
      });
      expect((await read(k.admin, expired.id)).status).toBe('expired');
      expect(
        (await as(k.admin).post(`/v1/brochures/${expired.id}/revoke`).send({}).expect(200)).body.status,
      ).toBe('revoked');
    });

    it('reads show expired as soon as expiresAt passes', async () => {
      const body = await created(k.admin, { expiresInDays: 1 });
      t.clock.advance(DAY - 1000);
      expect((await read(k.admin, body.id)).status).toBe('active');
      t.clock.advance(1000);
      expect((await read(k.admin, body.id)).status).toBe('expired');
    });

    it('renew from active, expired and revoked → active, same slug, expiresAt = now + days (30 by default)', async () => {
      for (const overrides of [
        {},
        { expiresAt: new Date(t.clock.now().getTime() - DAY) },
        { status: 'revoked' as const },
      ]) {
        const brochure = await insertBrochure(t, a.admin.organizationId, a.admin.userId, overrides);
        t.clock.advance(HOUR);
        const res = await as(k.admin).post(`/v1/brochures/${brochure.id}/renew`).send({}).expect(200);
        expect(res.body).toEqual({
          id: brochure.id,
          slug: brochure.slug,
          publicUrl: `${publicBaseUrl}/b/${brochure.slug}`,
          expiresAt: new Date(t.clock.now().getTime() + 30 * DAY).toISOString(),
          status: 'active',
          failedRefreshes: [],
        });
        const days = await as(k.admin)
          .post(`/v1/brochures/${brochure.id}/renew`)
          .send({ expiresInDays: 7 })
          .expect(200);
        expect(days.body.expiresAt).toBe(new Date(t.clock.now().getTime() + 7 * DAY).toISOString());
        expect((await read(k.admin, brochure.id)).status).toBe('active');
      }
      const any = await insertBrochure(t, a.admin.organizationId, a.admin.userId);
      expectValidation(
        await as(k.admin).post(`/v1/brochures/${any.id}/renew`).send({ expiresInDays: 0 }),
        'expiresInDays',
      );
      expectValidation(
        await as(k.admin).post(`/v1/brochures/${any.id}/renew`).send({ expiresInDays: 366 }),
        'expiresInDays',
      );
    });

    it('renew with refreshListings re-reads every listing; failures listed, their old copy kept', async () => {
      const readable = listings[10];
      const gone = otherListings[1]; // off the network: no longer readable
      const brochure = await insertBrochure(t, a.admin.organizationId, a.admin.userId, {
        status: 'revoked',
        listings: [
          {
            sourceId: readable,
            snapshot: { title: 'Stale title', price: '1.00' },
            edits: { title: 'My title' },
          },
          { sourceId: gone, snapshot: { title: 'Kept copy' } },
        ],
      });
      const res = await as(k.admin)
        .post(`/v1/brochures/${brochure.id}/renew`)
        .send({ refreshListings: true, expiresInDays: 10 })
        .expect(200);
      expect(res.body).toMatchObject({
        status: 'active',
        failedRefreshes: [{ listingId: brochure.listingIds[1], reason: 'not_found' }],
      });
      const copies = await sql<{ snapshot: Record<string, unknown>; edits: Record<string, unknown> }>(
        t,
        'select snapshot, edits from brochure_listings where brochure_id = ? order by position',
        [brochure.id],
      );
      expect(copies[0].snapshot).toMatchObject({ id: readable, title: expect.stringMatching(/^Listing /) });
      expect(copies[0].snapshot).not.toHaveProperty('commission');
      expect(copies[0].edits).toEqual({ title: 'My title' });
      expect(copies[1].snapshot).toEqual({ title: 'Kept copy' });
    });
  });

  describe('change and listings', () => {
    it('PATCH changes the brochure (nulls clear), answers it without listings; bad values → 400', async () => {
      const body = await created(k.member, { recipientName: 'Ana', accentColorOverride: '#111111' });
      const res = await as(k.member)
        .patch(`/v1/brochures/${body.id}`)
        .send({
          title: 'New title',
          recipientName: null,
          recipientNote: 'Hi',
          themeName: 'luxury',
          accentColorOverride: null,
          showLocations: false,
        })
        .expect(200);
      expect(Object.keys(res.body).sort()).toEqual(DETAIL_FIELDS);
      expect(res.body).toMatchObject({
        title: 'New title',
        slug: body.slug,
        recipientName: null,
        recipientNote: 'Hi',
        themeName: 'luxury',
        accentColorOverride: null,
        showLocations: false,
        listingCount: 1,
      });
      expectValidation(await as(k.member).patch(`/v1/brochures/${body.id}`).send({ title: null }), 'title');
      expectValidation(
        await as(k.member)
          .patch(`/v1/brochures/${body.id}`)
          .send({ title: 'x'.repeat(256) }),
        'title',
      );
      expectValidation(
        await as(k.member).patch(`/v1/brochures/${body.id}`).send({ themeName: 'neon' }),
        'themeName',
      );
      expectValidation(
        await as(k.member)
          .patch(`/v1/brochures/${body.id}`)
          .send({ recipientNote: 'x'.repeat(4097) }),
        'recipientNote',
      );
    });

    it('adds at a zero-based position (later ones shift) or at the end; the same one or a 26th → 409', async () => {
      const body = await created(k.admin, { listings: [ref(listings[0]), ref(listings[1])] });
      const [first, second] = body.listings.map((row) => row.id);
      const add = (payload: Record<string, unknown>) =>
        as(k.admin).post(`/v1/brochures/${body.id}/listings`).send(payload);

      const atStart = await add({ ...ref(listings[2]), position: 0 }).expect(201);
      expect(Object.keys(atStart.body).sort()).toEqual(['brochureId', 'listing']);
      expect(atStart.body.listing).toMatchObject({ sourceId: listings[2] });
      const atEnd = await add(ref(listings[3])).expect(201);
      expect((await positions(body.id)).map((row) => row.id)).toEqual([
        atStart.body.listing.id,
        first,
        second,
        atEnd.body.listing.id,
      ]);

      expectError(await add(ref(listings[0])), 409, 'CONFLICT');
      expectError(await add({ ...ref(listings[0].toUpperCase()), country: 'es' }), 409, 'CONFLICT');
      expectValidation(await add({ ...ref(listings[4]), position: 9 }), 'position');
      expectValidation(await add({ ...ref(listings[4]), position: -1 }), 'position');
      expectValidation(await add({ source: 'internal' }), 'id');
      expectValidation(await add(ref(MISSING)), 'id');

      const full = await created(k.admin, { listings: listings.slice(0, 25).map(ref) });
      expectError(
        await as(k.admin).post(`/v1/brochures/${full.id}/listings`).send(ref(listings[25])),
        409,
        'CONFLICT',
      );
      expect(await positions(full.id)).toHaveLength(25);
    });

    it('replays an add for the same Idempotency-Key', async () => {
      const body = await created(k.admin);
      const send = () =>
        as(k.admin)
          .post(`/v1/brochures/${body.id}/listings`)
          .set('Idempotency-Key', `add-${body.id}`)
          .send(ref(listings[6]));
      const one = await send().expect(201);
      const two = await send().expect(201);
      expect(two.body).toEqual(one.body);
      expect(await positions(body.id)).toHaveLength(2);
    });

    it('PATCH a listing: title and hidden fields; a refresh keeps them and takes the new copy', async () => {
      const body = await created(k.member, { listings: [ref(listings[7])] });
      const listingId = body.listings[0].id;
      const res = await as(k.member)
        .patch(`/v1/brochures/${body.id}/listings/${listingId}`)
        .send({ title: 'Penthouse with a view', hiddenFields: ['price', 'address', 'price'] })
        .expect(200);
      expect(res.body).toEqual({
        brochureId: body.id,
        listing: expect.objectContaining({
          id: listingId,
          title: 'Penthouse with a view',
          hiddenFields: ['price', 'address'],
        }),
      });
      expectValidation(
        await as(k.member)
          .patch(`/v1/brochures/${body.id}/listings/${listingId}`)
          .send({ hiddenFields: ['bedrooms'] }),
        'hiddenFields',
      );
      expectNotFound(
        await as(k.member).patch(`/v1/brochures/${body.id}/listings/${MISSING}`).send({ title: 'x' }),
        'Brochure listing',
      );

      await sql(t, `update listings set price = 123456, title = 'Renamed upstream' where id = ?`, [
        listings[7],
      ]);
      const refreshed = await as(k.member)
        .post(`/v1/brochures/${body.id}/listings/${listingId}/refresh`)
        .send({})
        .expect(200);
      expect(refreshed.body.listing).toMatchObject({
        title: 'Penthouse with a view',
        price: '123456.00',
        hiddenFields: ['price', 'address'],
      });
      const [copy] = await sql<{ snapshot: Record<string, unknown> }>(
        t,
        'select snapshot from brochure_listings where id = ?',
        [listingId],
      );
      expect(copy.snapshot.title).toBe('Renamed upstream');

      const cleared = await as(k.member)
        .patch(`/v1/brochures/${body.id}/listings/${listingId}`)
        .send({ title: null })
        .expect(200);
      expect(cleared.body.listing.title).toBe('Renamed upstream');
      expect(cleared.body.listing.hiddenFields).toEqual(['price', 'address']);
      expect((await read(k.member, body.id)).listings[0].title).toBe('Renamed upstream');
    });

    it('refresh of a listing no longer readable → 409, its copy kept', async () => {
      const brochure = await insertBrochure(t, a.admin.organizationId, a.admin.userId, {
        listings: [{ sourceId: MISSING, snapshot: { title: 'Kept' } }],
      });
      expectError(
        await as(k.admin)
          .post(`/v1/brochures/${brochure.id}/listings/${brochure.listingIds[0]}/refresh`)
          .send({}),
        409,
        'CONFLICT',
      );
      expect((await read(k.admin, brochure.id)).listings[0].title).toBe('Kept');
    });

    it('order: the complete set in a new order; a partial set, a stranger or a repeat → 400', async () => {
      const brochure = await insertBrochure(t, a.admin.organizationId, a.admin.userId, {
        listings: [{}, {}, {}],
      });
      const [x, y, z] = brochure.listingIds;
      const put = (listingIds: string[]) =>
        as(k.admin).put(`/v1/brochures/${brochure.id}/listings/order`).send({ listingIds });
      const res = await put([z, x, y]).expect(200);
      expect(res.body).toEqual({
        brochureId: brochure.id,
        order: [
          { listingId: z, position: 0 },
          { listingId: x, position: 1 },
          { listingId: y, position: 2 },
        ],
      });
      expect((await positions(brochure.id)).map((row) => row.id)).toEqual([z, x, y]);
      expect((await read(k.admin, brochure.id)).listings.map((row: ListingRow) => row.id)).toEqual([z, x, y]);
      expectValidation(await put([z, x]), 'listingIds');
      expectValidation(await put([z, x, x]), 'listingIds[2]');
      expectValidation(await put([z, x, MISSING]), 'listingIds[2]');
      expectValidation(await put([]), 'listingIds');
      expect((await positions(brochure.id)).map((row) => row.id)).toEqual([z, x, y]);
    });

    it('remove: 204 and positions close up; the last listing stays (409)', async () => {
      const brochure = await insertBrochure(t, a.admin.organizationId, a.admin.userId, {
        listings: [{}, {}, {}],
      });
      const [x, y, z] = brochure.listingIds;
      await as(k.admin).delete(`/v1/brochures/${brochure.id}/listings/${x}`).expect(204);
      expect(await positions(brochure.id)).toEqual([
        { id: y, position: 0 },
        { id: z, position: 1 },
      ]);
      expectNotFound(
        await as(k.admin).delete(`/v1/brochures/${brochure.id}/listings/${x}`),
        'Brochure listing',
      );
      await as(k.admin).delete(`/v1/brochures/${brochure.id}/listings/${z}`).expect(204);
      expectError(await as(k.admin).delete(`/v1/brochures/${brochure.id}/listings/${y}`), 409, 'CONFLICT');
      expect(await positions(brochure.id)).toEqual([{ id: y, position: 0 }]);
    });

    it('delete: 204, permanent, its copies gone', async () => {
      const brochure = await insertBrochure(t, a.admin.organizationId, a.member.userId, {
        listings: [{}, {}],
      });
      await as(k.member).delete(`/v1/brochures/${brochure.id}`).expect(204);
      expectNotFound(await as(k.member).get(`/v1/brochures/${brochure.id}`), 'Brochure');
      expect(await count(t, 'select count(*) as n from brochures where id = ?', [brochure.id])).toBe(0);
      expect(
        await count(t, 'select count(*) as n from brochure_listings where brochure_id = ?', [brochure.id]),
      ).toBe(0);
      expectNotFound(await as(k.member).delete(`/v1/brochures/${brochure.id}`), 'Brochure');
    });
  });
});
