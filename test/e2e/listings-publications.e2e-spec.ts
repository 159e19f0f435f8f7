import { randomUUID } from 'node:crypto';
import { JobName, MINUTE, PeriodicJobRegistry } from '@app/platform';
import { Listing } from '@app/listings';
import { PublicationSender } from '../../libs/listings/src/application/publication-sender';
import { PublicationsService } from '../../libs/listings/src/application/publications.service';
import { DemoPortalAdapter } from '../../libs/listings/src/application/portals/demo-portal.adapter';
import {
  DESCRIPTION_LANGUAGES,
  DESCRIPTION_TONES,
} from '../../libs/listings/src/domain/description-templates';
import { SIMULATED_BACKFILL } from '../../migrations/Migration20261126060000_publication_simulated';
import { api, asSession, count, sql, TestApp, type SignedIn, codeOf } from '../fixtures';

/**
 * Portal publications and description generation (issue 16 item 3, INTERFACES.md "Listings"):
 * `GET`/`PUT /properties/{id}/publications` and the sender job (with a portal standing in for
 * `demoportal` that can be made to fail), undoing them when a listing leaves ACTIVE, and `POST
 * /properties/{id}/description` in every language and tone, its length cut, and `apply`.
 */

/** Reads the error code in either shape (the `/v1` envelope or the listing family's legacy one). */

const MISSING = '0190a0a0-0000-7000-8000-000000000009';
const PORTAL = 'demoportal';
const WRITE_SCOPES = ['properties:read', 'properties:write'];

/**
 * `demoportal` as the app sees it, with its calls recorded and failures on demand; `simulated`
 * false makes it stand for a real portal.
 */
class StandInPortal extends DemoPortalAdapter {
  override simulated = true;
  published: Record<string, unknown>[] = [];
  unpublished: string[] = [];
  failWith: string | null = null;
  /** Runs while the portal "answers" a publish (to change the row meanwhile). */
  duringPublish: (() => Promise<void>) | null = null;

  override async publish(listing: Record<string, unknown>) {
    if (this.failWith) throw new Error(this.failWith);
    if (this.duringPublish) await this.duringPublish();
    this.published.push(listing);
    return super.publish(listing);
  }

  override async unpublish(externalId: string) {
    if (this.failWith) throw new Error(this.failWith);
    this.unpublished.push(externalId);
    return super.unpublish(externalId);
  }

  clear() {
    this.simulated = true;
    this.published = [];
    this.unpublished = [];
    this.failWith = null;
    this.duringPublish = null;
  }
}

interface PublicationBody {
  portal: string;
  status: string;
  externalId: string | null;
  publishedAt: string | null;
  lastError: string | null;
}

interface PublicationRowDb {
  enabled: boolean;
  status: string;
  attempts: number;
  next_attempt_at: Date | null;
  external_id: string | null;
}

describe('Listings: portal publications and descriptions', () => {
  let t: TestApp;
  const portal = new StandInPortal();
  let admin: SignedIn;
  let member: SignedIn;
  let adminKey: { id: string; key: string };
  let memberKey: string;
  let readOnlyKey: string;
  let otherKey: string;
  let otherOrg: string;

  const as = (key: string) => api(t, key);
  const send = () => t.get(PublicationSender).sendDue(t.clock.now());
  const getPublications = async (id: string) =>
    (await as(adminKey.key).get(`/properties/${id}/publications`).expect(200)).body.data as PublicationBody[];
  const put = (id: string, portals: unknown[], key = adminKey.key) =>
    as(key).put(`/properties/${id}/publications`).send({ portals });
  const row = async (id: string, name = PORTAL): Promise<PublicationRowDb> => {
    const [found] = await sql<Omit<PublicationRowDb, 'next_attempt_at'> & { next_attempt_at: string | null }>(
      t,
      `select enabled, status, attempts, next_attempt_at, external_id
         from listing_publications where listing_id = ? and portal = ?`,
      [id, name],
    );
    return {
      ...found,
      next_attempt_at: found.next_attempt_at === null ? null : new Date(found.next_attempt_at),
    };
  };

  /** A listing row as the listing service would leave it (only the required columns and a few more). */
  const insertListing = async (
    organizationId: string,
    overrides: Record<string, unknown> = {},
  ): Promise<string> => {
    const id = randomUUID();
    const now = t.clock.now();
    const values: Record<string, unknown> = {
      id,
      organization_id: organizationId,
      title: 'Villa with sea views',
      operation: 'sale',
      property_type: 'villa',
      status: 'ACTIVE',
      price: '1250000.00',
      currency: 'EUR',
      country_code: 'ES',
      city: 'Marbella',
      community: 'Nueva Andalucía',
      bedrooms: 4,
      bathrooms: '3.5',
      living_area: '320.00',
      plot_area: '1100.00',
      features: ['pool', 'sea_view', 'home_cinema'],
      energy_rating: 'B',
      commission: '3.00',
      created_at: now,
      updated_at: now,
      ...overrides,
    };
    const columns = Object.keys(values);
    // arrays as PostgreSQL array literals (the driver would spread them into several parameters)
    const isList = (value: unknown): value is string[] => Array.isArray(value);
    await sql(
      t,
      `insert into listings (${columns.join(', ')})
       values (${columns.map((column) => (isList(values[column]) ? '?::text[]' : '?')).join(', ')})`,
      columns.map((column) => {
        const value = values[column];
        return isList(value) ? `{${value.map((item) => JSON.stringify(item)).join(',')}}` : value;
      }),
    );
    return id;
  };

  /** `listingLeftActive` inside a write transaction, as the listing service calls it. */
  const leaveActive = async (organizationId: string, id: string, status: string) => {
    const em = t.orm.em.fork();
    await em.transactional(async (tx) => {
      await tx.execute(`update listings set status = ? where id = ?`, [status, id]);
      const listing = (await tx.getRepository(Listing).findOne({ id, organizationId })) as Listing;
      await t.get(PublicationsService).listingLeftActive(listing, t.clock.now());
    });
  };

  beforeAll(async () => {
    t = await TestApp.start({ overrides: [{ provide: DemoPortalAdapter, useValue: portal }] });
    admin = await t.seed.organization({ name: 'Costa Homes' });
    adminKey = await t.seed.apiKey(admin, WRITE_SCOPES);
    // only an admin may hold properties:write: the key is made while they are one, then they are not
    member = await t.seed.member(admin, 'admin');
    memberKey = (await t.seed.apiKey(member, WRITE_SCOPES)).key;
    await asSession(t.http.patch(`/organization/members/${member.userId}`), admin)
      .send({ role: 'member' })
      .expect(200);
    readOnlyKey = (await t.seed.apiKey(admin, ['properties:read'])).key;
    const other = await t.seed.organization({ name: 'Other Homes' });
    otherOrg = other.organizationId;
    otherKey = (await t.seed.apiKey(other, WRITE_SCOPES)).key;
  });
  afterAll(() => t.stop());
  beforeEach(() => portal.clear());

  describe('GET and PUT /properties/{id}/publications', () => {
    it('lists nothing for a listing never published', async () => {
      const id = await insertListing(admin.organizationId);
      expect(await getPublications(id)).toEqual([]);
    });

    it('turns a portal on (pending, due now, no portal call) and the sender publishes it: simulated on demoportal', async () => {
      const id = await insertListing(admin.organizationId);
      const res = await put(id, [{ portal: PORTAL, enabled: true }]).expect(200);
      expect(res.body).toEqual({
        data: [{ portal: PORTAL, status: 'pending', externalId: null, publishedAt: null, lastError: null }],
      });
      expect(portal.published).toEqual([]);
      expect(await row(id)).toMatchObject({ enabled: true, status: 'pending', attempts: 0 });
      expect((await row(id)).next_attempt_at?.getTime()).toBe(t.clock.now().getTime());

      await send();
      const [publication] = await getPublications(id);
      // demoportal is sample data: nothing went anywhere, and the answer says so
      expect(publication).toEqual({
        portal: PORTAL,
        status: 'simulated',
        externalId: expect.stringMatching(/^dp-[0-9a-f]{16}$/),
        publishedAt: t.clock.now().toISOString(),
        lastError: null,
      });
      // the listing's own fields, never the private commission
      expect(portal.published).toEqual([
        expect.objectContaining({ id, title: 'Villa with sea views', price: '1250000.00', city: 'Marbella' }),
      ]);
      expect(portal.published[0]).not.toHaveProperty('commission');
      expect((await row(id)).next_attempt_at).toBeNull();

      // asking again for what is already so changes nothing
      await put(id, [{ portal: PORTAL, enabled: true }]).expect(200);
      expect(await getPublications(id)).toEqual([publication]);
      await send();
      expect(portal.published).toHaveLength(1);
    });

    it('a real portal (not simulated) ends published; asked again, left alone; off, unpublished', async () => {
      portal.simulated = false;
      const id = await insertListing(admin.organizationId);
      await put(id, [{ portal: PORTAL, enabled: true }]).expect(200);
      await send();
      const [publication] = await getPublications(id);
      expect(publication).toEqual({
        portal: PORTAL,
        status: 'published',
        externalId: expect.stringMatching(/^dp-[0-9a-f]{16}$/),
        publishedAt: t.clock.now().toISOString(),
        lastError: null,
      });
      await put(id, [{ portal: PORTAL, enabled: true }]).expect(200);
      expect(await getPublications(id)).toEqual([publication]);
      await put(id, [{ portal: PORTAL, enabled: false }]).expect(200);
      await send();
      expect(portal.published).toHaveLength(1);
      expect(portal.unpublished).toEqual([publication.externalId]);
      expect((await getPublications(id))[0]).toMatchObject({ status: 'unpublished', externalId: null });
    });

    it('turns a simulated portal off: a pending unpublish, then unpublished once the sender ran', async () => {
      const id = await insertListing(admin.organizationId);
      await put(id, [{ portal: PORTAL, enabled: true }]).expect(200);
      await send();
      const [{ externalId }] = await getPublications(id);

      const res = await put(id, [{ portal: PORTAL, enabled: false }]).expect(200);
      expect(res.body.data).toEqual([
        expect.objectContaining({ portal: PORTAL, status: 'pending', externalId }),
      ]);
      expect(await row(id)).toMatchObject({ enabled: false, status: 'pending' });

      await send();
      expect(portal.unpublished).toEqual([externalId]);
      expect(await getPublications(id)).toEqual([
        { portal: PORTAL, status: 'unpublished', externalId: null, publishedAt: null, lastError: null },
      ]);
    });

    it('turns off a portal never published at once, without calling it', async () => {
      const id = await insertListing(admin.organizationId);
      await put(id, [{ portal: PORTAL, enabled: true }]).expect(200);
      const res = await put(id, [{ portal: PORTAL, enabled: false }]).expect(200);
      expect(res.body.data).toEqual([expect.objectContaining({ status: 'unpublished' })]);
      await send();
      expect(portal.published).toEqual([]);
      expect(portal.unpublished).toEqual([]);
      // off for a portal with no row: nothing to list
      const fresh = await insertListing(admin.organizationId);
      expect((await put(fresh, [{ portal: PORTAL, enabled: false }]).expect(200)).body).toEqual({ data: [] });
    });

    it.each(['DRAFT', 'WITHDRAWN', 'SOLD', 'EXPIRED'])(
      'refuses to turn a portal on for a %s listing with 409 CONFLICT; turning off is fine',
      async (status) => {
        const id = await insertListing(admin.organizationId, { status });
        const res = await put(id, [{ portal: PORTAL, enabled: true }]);
        expect(res.status).toBe(409);
        expect(codeOf(res)).toBe('CONFLICT');
        expect(await count(t, `select count(*) n from listing_publications where listing_id = ?`, [id])).toBe(
          0,
        );
        await put(id, [{ portal: PORTAL, enabled: false }]).expect(200);
      },
    );

    it.each([
      ['an unknown portal', [{ portal: 'idealista', enabled: true }], 'portals.0.portal'],
      [
        'a portal named twice',
        [
          { portal: PORTAL, enabled: true },
          { portal: PORTAL, enabled: false },
        ],
        'portals.1.portal',
      ],
      ['a missing enabled', [{ portal: PORTAL }], 'portals.0.enabled'],
      ['enabled as a string', [{ portal: PORTAL, enabled: 'yes' }], 'portals.0.enabled'],
      ['portals not a list', 'demoportal', 'portals'],
    ])('answers 400 VALIDATION_FAILED for %s', async (_label, portals, path) => {
      const id = await insertListing(admin.organizationId);
      const res = await as(adminKey.key).put(`/properties/${id}/publications`).send({ portals });
      expect(res.status).toBe(400);
      expect(codeOf(res)).toBe('VALIDATION_FAILED');
      expect(JSON.stringify(res.body)).toContain(path);
      expect(await count(t, `select count(*) n from listing_publications where listing_id = ?`, [id])).toBe(
        0,
      );
    });

    it('answers 400 for a path id that is not a UUID', async () => {
      const res = await as(adminKey.key).get('/properties/nope/publications');
      expect(res.status).toBe(400);
      expect(codeOf(res)).toBe('VALIDATION_FAILED');
    });

    it("answers 404 `Listing not found.` for another agency's, a deleted or an unknown listing", async () => {
      const others = await insertListing(otherOrg);
      const deleted = await insertListing(admin.organizationId, { deleted_at: t.clock.now() });
      for (const id of [others, deleted, MISSING]) {
        for (const res of [
          await as(adminKey.key).get(`/properties/${id}/publications`),
          await put(id, [{ portal: PORTAL, enabled: true }]),
        ]) {
          expect(res.status).toBe(404);
          expect(codeOf(res)).toBe('NOT_FOUND');
          expect(res.body.message ?? res.body.error?.message).toBe('Listing not found.');
        }
      }
      // and the other agency cannot reach ours either
      const ours = await insertListing(admin.organizationId);
      expect((await as(otherKey).get(`/properties/${ours}/publications`)).status).toBe(404);
      expect((await put(ours, [{ portal: PORTAL, enabled: true }], otherKey)).status).toBe(404);
      expect(await count(t, `select count(*) n from listing_publications where listing_id = ?`, [ours])).toBe(
        0,
      );
    });

    it("lets a member's key read but not write (403 ORG_ADMIN_REQUIRED); writes need properties:write", async () => {
      const id = await insertListing(admin.organizationId);
      await as(memberKey).get(`/properties/${id}/publications`).expect(200);
      const refused = await put(id, [{ portal: PORTAL, enabled: true }], memberKey);
      expect(refused.status).toBe(403);
      expect(codeOf(refused)).toBe('ORG_ADMIN_REQUIRED');
      const unscoped = await put(id, [{ portal: PORTAL, enabled: true }], readOnlyKey);
      expect(unscoped.status).toBe(403);
      expect(codeOf(unscoped)).toBe('API_KEY_SCOPE_MISSING');
      expect(await count(t, `select count(*) n from listing_publications where listing_id = ?`, [id])).toBe(
        0,
      );
    });
  });

  describe('the sender', () => {
    it('runs every 30 seconds as listings.publish', () => {
      expect(t.get(PeriodicJobRegistry).byName(JobName.ListingsPublish).everyMs).toBe(30_000);
    });

    it('records a failure in short, retries after 1, 5, 30 and 30 minutes, gives up at the 5th attempt', async () => {
      const id = await insertListing(admin.organizationId);
      await put(id, [{ portal: PORTAL, enabled: true }]).expect(200);
      portal.failWith = 'portal down\n    at Upstream.call (portal.js:1:1)';
      const waits = [1, 5, 30, 30];
      for (const [i, wait] of waits.entries()) {
        await send();
        const stored = await row(id);
        expect(stored).toMatchObject({ status: 'failed', attempts: i + 1, enabled: true });
        expect(stored.next_attempt_at?.getTime()).toBe(t.clock.now().getTime() + wait * MINUTE);
        // not due before its time
        t.clock.advance(wait * MINUTE - 1000);
        await send();
        expect((await row(id)).attempts).toBe(i + 1);
        t.clock.advance(1000);
      }
      await send();
      expect(await row(id)).toMatchObject({ status: 'failed', attempts: 5, next_attempt_at: null });
      expect(await getPublications(id)).toEqual([
        {
          portal: PORTAL,
          status: 'failed',
          externalId: null,
          publishedAt: null,
          lastError: 'portal down at Upstream.call (portal.js:1:1)',
        },
      ]);
      // given up: nothing more happens, until the agency turns it on again
      portal.failWith = null;
      t.clock.advance(24 * 60 * MINUTE);
      await send();
      expect(portal.published).toEqual([]);
      await put(id, [{ portal: PORTAL, enabled: true }]).expect(200);
      expect(await row(id)).toMatchObject({ status: 'pending', attempts: 0 });
      await send();
      expect((await getPublications(id))[0]).toMatchObject({ status: 'simulated', lastError: null });
      expect((await row(id)).attempts).toBe(0);
    });

    it('sends a row once when two runs overlap', async () => {
      const id = await insertListing(admin.organizationId);
      await put(id, [{ portal: PORTAL, enabled: true }]).expect(200);
      await Promise.all([send(), send(), send()]);
      expect(portal.published.filter((record) => record.id === id)).toHaveLength(1);
      expect((await getPublications(id))[0].status).toBe('simulated');
    });

    it('keeps the portal’s id when the row was turned off while the portal answered, and takes it down', async () => {
      const id = await insertListing(admin.organizationId);
      await put(id, [{ portal: PORTAL, enabled: true }]).expect(200);
      portal.duringPublish = async () => {
        portal.duringPublish = null;
        await put(id, [{ portal: PORTAL, enabled: false }]).expect(200);
      };
      await send();
      expect(await row(id)).toMatchObject({
        enabled: false,
        status: 'pending',
        external_id: expect.stringMatching(/^dp-/),
      });
      const { external_id: externalId } = await row(id);
      await send();
      expect(portal.unpublished).toEqual([externalId]);
      expect(await row(id)).toMatchObject({ status: 'unpublished', external_id: null });
    });

    it('takes down an enabled row whose listing is no longer ACTIVE', async () => {
      const id = await insertListing(admin.organizationId);
      await put(id, [{ portal: PORTAL, enabled: true }]).expect(200);
      await send();
      const [{ externalId }] = await getPublications(id);
      // a stale wish (made due again) on a listing that left ACTIVE without the hook
      await sql(t, `update listings set status = 'RESERVED' where id = ?`, [id]);
      await sql(t, `update listing_publications set next_attempt_at = ? where listing_id = ?`, [
        t.clock.now(),
        id,
      ]);
      await send();
      expect(portal.unpublished).toEqual([externalId]);
      expect(await row(id)).toMatchObject({ enabled: false, status: 'unpublished' });
    });
  });

  describe('the simulated status', () => {
    it('is stored as such, and the migration turned demoportal rows published before into simulated', async () => {
      const [demo, real] = [
        await insertListing(admin.organizationId),
        await insertListing(admin.organizationId),
      ];
      for (const [id, name] of [
        [demo, PORTAL],
        [real, 'realportal'],
      ])
        await sql(
          t,
          `insert into listing_publications (listing_id, portal, organization_id, enabled, status, external_id,
                                             published_at, attempts, updated_at)
           values (?, ?, ?, true, 'published', 'x-1', ?, 0, ?)`,
          [id, name, admin.organizationId, t.clock.now(), t.clock.now()],
        );
      await sql(t, SIMULATED_BACKFILL);
      expect((await row(demo)).status).toBe('simulated');
      expect((await row(real, 'realportal')).status).toBe('published');
      await expect(
        sql(t, `update listing_publications set status = 'live' where listing_id = ?`, [demo]),
      ).rejects.toThrow(/listing_publications_status_check/);
    });
  });

  describe('when a listing leaves ACTIVE (listingLeftActive)', () => {
    it.each(['WITHDRAWN', 'SOLD', 'EXPIRED'])(
      '%s: a published portal becomes a pending unpublish and comes off; one never sent ends at once',
      async (status) => {
        const id = await insertListing(admin.organizationId);
        await put(id, [{ portal: PORTAL, enabled: true }]).expect(200);
        await send();
        const [{ externalId }] = await getPublications(id);
        portal.clear();
        const waiting = await insertListing(admin.organizationId);
        await put(waiting, [{ portal: PORTAL, enabled: true }]).expect(200);

        await leaveActive(admin.organizationId, id, status);
        await leaveActive(admin.organizationId, waiting, status);
        expect(await row(id)).toMatchObject({ enabled: false, status: 'pending' });
        expect(await row(waiting)).toMatchObject({
          enabled: false,
          status: 'unpublished',
          next_attempt_at: null,
        });

        await send();
        expect(portal.unpublished).toEqual([externalId]);
        expect(portal.published).toEqual([]);
        expect((await getPublications(id))[0]).toMatchObject({ status: 'unpublished', externalId: null });
        expect((await getPublications(waiting))[0]).toMatchObject({ status: 'unpublished' });
      },
    );

    it('writes nothing if the listing write rolls back', async () => {
      const id = await insertListing(admin.organizationId);
      await put(id, [{ portal: PORTAL, enabled: true }]).expect(200);
      await send();
      await expect(
        t.orm.em.fork().transactional(async (tx) => {
          const listing = (await tx
            .getRepository(Listing)
            .findOne({ id, organizationId: admin.organizationId })) as Listing;
          await t.get(PublicationsService).listingLeftActive(listing, t.clock.now());
          throw new Error('the listing write failed');
        }),
      ).rejects.toThrow('the listing write failed');
      expect(await row(id)).toMatchObject({ enabled: true, status: 'simulated' });
    });
  });

  describe('POST /properties/{id}/description', () => {
    const generate = (id: string, body: Record<string, unknown>, key = adminKey.key) =>
      as(key).post(`/properties/${id}/description`).send(body);

    it.each(DESCRIPTION_LANGUAGES.flatMap((language) => DESCRIPTION_TONES.map((tone) => [language, tone])))(
      'writes %s in the %s tone from the listing, the same text each time',
      async (language, tone) => {
        const id = await insertListing(admin.organizationId);
        const res = await generate(id, { language, tone }).expect(200);
        expect(Object.keys(res.body).sort()).toEqual(['description', 'generatedBy', 'language']);
        expect(res.body).toMatchObject({ language, generatedBy: 'template' });
        const text = res.body.description as string;
        expect(text.length).toBeGreaterThan(100);
        expect(text.length).toBeLessThanOrEqual(1000);
        expect(text).toContain('Marbella');
        expect(text).toContain('home cinema');
        expect((await generate(id, { language, tone }).expect(200)).body.description).toBe(text);
        // nothing stored without apply
        const [stored] = await sql<{ description: string | null; version: number }>(
          t,
          `select description, version from listings where id = ?`,
          [id],
        );
        expect(stored).toEqual({ description: null, version: 1 });
      },
    );

    it('defaults to the neutral tone and 1000 characters, and keeps to maxLength', async () => {
      const id = await insertListing(admin.organizationId, {
        features: Array.from({ length: 60 }, (_, i) => `extra_feature_${i}`),
      });
      const neutral = (await generate(id, { language: 'en', tone: 'neutral' }).expect(200)).body.description;
      const plain = (await generate(id, { language: 'en' }).expect(200)).body.description as string;
      expect(plain).toBe(neutral);
      expect(plain.length).toBeLessThanOrEqual(1000);
      for (const maxLength of [200, 333, 5000]) {
        const text = (await generate(id, { language: 'fr', tone: 'luxury', maxLength }).expect(200)).body
          .description as string;
        expect(text.length).toBeLessThanOrEqual(maxLength);
        expect(text.endsWith('.')).toBe(true);
      }
    });

    it.each([
      ['no language', {}],
      ['an unknown language', { language: 'nl' }],
      ['an unknown tone', { language: 'en', tone: 'sad' }],
      ['maxLength 199', { language: 'en', maxLength: 199 }],
      ['maxLength 5001', { language: 'en', maxLength: 5001 }],
      ['maxLength not whole', { language: 'en', maxLength: 300.5 }],
      ['apply not a boolean', { language: 'en', apply: 'yes' }],
      ['tone null', { language: 'en', tone: null }],
    ])('answers 400 VALIDATION_FAILED for %s', async (_label, body) => {
      const id = await insertListing(admin.organizationId);
      const res = await generate(id, body);
      expect(res.status).toBe(400);
      expect(codeOf(res)).toBe('VALIDATION_FAILED');
    });

    it('with apply stores it as the description, version + 1, with a history row apikey:<keyId>', async () => {
      const id = await insertListing(admin.organizationId);
      const res = await generate(id, { language: 'es', tone: 'warm', maxLength: 600, apply: true }).expect(
        200,
      );
      const [stored] = await sql<{ description: string; version: number; updated_at: string }>(
        t,
        `select description, version, updated_at from listings where id = ?`,
        [id],
      );
      expect(stored).toMatchObject({ description: res.body.description, version: 2 });
      expect(new Date(stored.updated_at)).toEqual(t.clock.now());
      const history = await sql(
        t,
        `select source, changed_by, changed_fields, organization_id, at = ?::timestamptz as at_now
           from listing_history where listing_id = ?`,
        [t.clock.now(), id],
      );
      expect(history).toEqual([
        {
          source: `apikey:${adminKey.id}`,
          changed_by: admin.userId,
          changed_fields: ['description'],
          organization_id: admin.organizationId,
          at_now: true,
        },
      ]);
      // the same text again changes nothing
      await generate(id, { language: 'es', tone: 'warm', maxLength: 600, apply: true }).expect(200);
      expect(await count(t, `select count(*) n from listing_history where listing_id = ?`, [id])).toBe(1);
      // another one replaces it
      await generate(id, { language: 'de', apply: true }).expect(200);
      expect(await count(t, `select count(*) n from listing_history where listing_id = ?`, [id])).toBe(2);
      expect(
        (await sql<{ version: number }>(t, `select version from listings where id = ?`, [id]))[0].version,
      ).toBe(3);
    });

    it("answers 404 for another agency's, a deleted or an unknown listing, and 403 to a member's key", async () => {
      const others = await insertListing(otherOrg);
      const deleted = await insertListing(admin.organizationId, { deleted_at: t.clock.now() });
      for (const id of [others, deleted, MISSING]) {
        for (const apply of [false, true]) {
          const res = await generate(id, { language: 'en', apply });
          expect(res.status).toBe(404);
          expect(codeOf(res)).toBe('NOT_FOUND');
        }
      }
      const ours = await insertListing(admin.organizationId);
      const refused = await generate(ours, { language: 'en', apply: true }, memberKey);
      expect(refused.status).toBe(403);
      expect(codeOf(refused)).toBe('ORG_ADMIN_REQUIRED');
      expect((await generate(ours, { language: 'en', apply: true }, otherKey)).status).toBe(404);
      expect(await count(t, `select count(*) n from listing_history where listing_id = ?`, [ours])).toBe(0);
    });
  });
});
