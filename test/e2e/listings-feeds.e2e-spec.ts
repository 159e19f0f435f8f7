import { readFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { FeedImporter } from '../../libs/listings/src/application/feed-importer';
import {
  Agency,
  asSession,
  count,
  expectError,
  expectNotFound,
  expectUnauthenticated,
  expectValidation,
  HOUR,
  SignedIn,
  sql,
  TestApp,
} from '../fixtures';

/**
 * Connected property feeds (issue 16 item 5, INTERFACES.md "Listings"): the dashboard's
 * `/organization/property-feeds` routes (session, admin writes, envelope errors), imports of the
 * three formats served by a local HTTP server (rows keyed by source and external id; removed
 * entries soft-deleted; changes updated; a malformed document or a failed download changes
 * nothing), the periodic job by the clock, and another agency's feeds → 404.
 */

const FIXTURES = join(__dirname, '../fixtures/feeds');
const KYERO = readFileSync(join(FIXTURES, 'kyero.xml'), 'utf8');
const REDSP = readFileSync(join(FIXTURES, 'redsp.xml'), 'utf8');
const JSONL = readFileSync(join(FIXTURES, 'feed.jsonl'), 'utf8');
const MISSING = '0190a0a0-0000-7000-8000-000000000001';

interface Served {
  status?: number;
  body: string;
  headers?: Record<string, string>;
  /** Sent after `body`, chunk by chunk (no Content-Length): `count` copies of `chunk`. */
  stream?: { chunk: string; count: number };
}

/** A local feed host: each path answers what the test put there (404 otherwise). */
class FeedHost {
  private readonly server: Server;
  private readonly paths = new Map<string, Served>();
  readonly hits = new Map<string, number>();

  constructor() {
    this.server = createServer((req, res) => {
      const path = req.url ?? '/';
      this.hits.set(path, (this.hits.get(path) ?? 0) + 1);
      const served = this.paths.get(path);
      if (!served) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
        return;
      }
      res.writeHead(served.status ?? 200, served.headers ?? { 'content-type': 'application/xml' });
      if (!served.stream) {
        res.end(served.body);
        return;
      }
      res.write(served.body);
      let left = served.stream.count;
      const more = () => {
        // the client hung up (over the limit): stop
        while (left > 0 && !res.destroyed) {
          left -= 1;
          if (!res.write(served.stream!.chunk)) return void res.once('drain', more);
        }
        if (!res.destroyed) res.end();
      };
      res.on('error', () => undefined);
      more();
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  serve(path: string, served: Served | string): string {
    this.paths.set(path, typeof served === 'string' ? { body: served } : served);
    return this.url(path);
  }
}

describe('Listings: connected property feeds', () => {
  let t: TestApp;
  let a: Agency;
  let other: Agency;
  const host = new FeedHost();

  const as = (who: SignedIn) => ({
    get: (path: string) => asSession(t.http.get(path), who),
    post: (path: string) => asSession(t.http.post(path), who),
    patch: (path: string) => asSession(t.http.patch(path), who),
    delete: (path: string) => asSession(t.http.delete(path), who),
  });

  /**
   * Connects a feed as `admin`. Its first import is due at once; the API's in-process timer could
   * take it in the middle of a test, so tests that import by hand move it out of the job's way.
   */
  const connect = async (admin: SignedIn, source: string, url: string): Promise<{ id: string }> => {
    const res = await as(admin).post('/organization/property-feeds').send({ source, url });
    if (res.status !== 201) throw new Error(`feed not connected: ${res.status} ${JSON.stringify(res.body)}`);
    await sql(
      t,
      `update property_feeds set next_import_at = next_import_at + interval '100 years' where id = ?`,
      [res.body.id],
    );
    return res.body;
  };
  const importNow = (admin: SignedIn, feedId: string) =>
    as(admin).post(`/organization/property-feeds/${feedId}/import`);
  const liveRows = (organizationId: string, source: string) =>
    sql<Record<string, unknown>>(
      t,
      `select external_id, price::text, title, updated_at::text, status, agent_id from listings
        where organization_id = ? and source = ? and deleted_at is null order by external_id`,
      [organizationId, source],
    );

  beforeAll(async () => {
    await host.start();
    // the feed host listens on 127.0.0.1: test/e2e/outbound-guard.e2e-spec.ts runs with the guard on
    t = await TestApp.start({ env: { OUTBOUND_ALLOW_PRIVATE: 'true' } });
    a = await t.seed.agency('Feeds Agency');
    other = await t.seed.agency('Other Agency');
  });
  afterAll(async () => {
    await t.stop();
    await host.stop();
  });

  describe('the dashboard routes', () => {
    it('connects a feed (admin): 201, defaults, first import due at once; anyone in the agency lists it', async () => {
      const url = host.serve('/routes/kyero.xml', KYERO);
      const res = await as(a.admin)
        .post('/organization/property-feeds')
        .send({ source: 'kyero', url })
        .expect(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        source: 'kyero',
        url,
        refreshMinutes: 360,
        lastImportedAt: null,
        lastStatus: null,
        lastError: null,
        listingCount: 0,
        nextImportAt: t.clock.now().toISOString(),
        createdAt: t.clock.now().toISOString(),
      });
      const listed = await as(a.member).get('/organization/property-feeds').expect(200);
      expect(listed.body).toEqual({ data: [res.body], hasMore: false });
      // another agency sees none of it
      expect((await as(other.member).get('/organization/property-feeds').expect(200)).body.data).toEqual([]);

      // one per source and agency
      expectError(
        await as(a.admin)
          .post('/organization/property-feeds')
          .send({ source: 'kyero', url, refreshMinutes: 60 }),
        409,
        'CONFLICT',
      );
      await as(a.admin).delete(`/organization/property-feeds/${res.body.id}`).expect(204);
    });

    it('writes are for admins (member → 403 ORG_ADMIN_REQUIRED); an API key → 401', async () => {
      const feed = await connect(a.admin, 'redsp', host.url('/routes/redsp.xml'));
      const path = `/organization/property-feeds/${feed.id}`;
      expectError(
        await as(a.member)
          .post('/organization/property-feeds')
          .send({ source: 'jsonfeed', url: host.url('/x') }),
        403,
        'ORG_ADMIN_REQUIRED',
      );
      expectError(await as(a.member).patch(path).send({ refreshMinutes: 120 }), 403, 'ORG_ADMIN_REQUIRED');
      expectError(await as(a.member).delete(path), 403, 'ORG_ADMIN_REQUIRED');
      expectError(await as(a.member).post(`${path}/import`), 403, 'ORG_ADMIN_REQUIRED');

      const key = (await t.seed.apiKey(a.admin, ['properties:read', 'sources:read'])).key;
      expectUnauthenticated(await t.http.get('/organization/property-feeds').auth(key, { type: 'bearer' }));
      expectUnauthenticated(
        await t.http
          .post('/organization/property-feeds')
          .auth(key, { type: 'bearer' })
          .send({ source: 'jsonfeed', url: host.url('/x') }),
      );
      expectUnauthenticated(await t.http.get('/organization/property-feeds'));
      await as(a.admin).delete(path).expect(204);
    });

    it('refuses bad input: refreshMinutes 59 or 10081, a non-http URL, an unknown source', async () => {
      const url = host.url('/bad.xml');
      const post = (body: Record<string, unknown>) =>
        as(a.admin).post('/organization/property-feeds').send(body);
      expectValidation(await post({ source: 'kyero', url, refreshMinutes: 59 }), 'refreshMinutes');
      expectValidation(await post({ source: 'kyero', url, refreshMinutes: 10_081 }), 'refreshMinutes');
      expectValidation(await post({ source: 'kyero', url, refreshMinutes: 90.5 }), 'refreshMinutes');
      expectValidation(await post({ source: 'kyero', url, refreshMinutes: null }), 'refreshMinutes');
      expectValidation(await post({ source: 'kyero', url: 'ftp://feeds.example.com/a.xml' }), 'url');
      expectValidation(await post({ source: 'kyero', url: 'file:///etc/passwd' }), 'url');
      expectValidation(await post({ source: 'kyero', url: 'not a url' }), 'url');
      expectValidation(await post({ source: 'idealista', url }), 'source');
      expectValidation(await post({ url }), 'source');
      const feed = await connect(a.admin, 'jsonfeed', url);
      const path = `/organization/property-feeds/${feed.id}`;
      expectValidation(await as(a.admin).patch(path).send({ refreshMinutes: 59 }), 'refreshMinutes');
      expectValidation(await as(a.admin).patch(path).send({ url: null }), 'url');
      expectValidation(await as(a.admin).patch('/organization/property-feeds/nope').send({}), 'feedId');
      expect(
        await count(t, `select count(*) n from property_feeds where organization_id = ?`, [
          a.admin.organizationId,
        ]),
      ).toBe(1);
      await as(a.admin).delete(path).expect(204);
    });

    it('changes the URL (due at once) and the refresh (from the last import)', async () => {
      // an agency of its own: its import would otherwise count in the import tests below
      const c = await t.seed.agency('Change Agency');
      const feed = await connect(c.admin, 'kyero', host.serve('/change/kyero.xml', KYERO));
      const path = `/organization/property-feeds/${feed.id}`;
      const imported = await importNow(c.admin, feed.id).expect(200);
      const importedAt = new Date(imported.body.feed.lastImportedAt).getTime();
      const changed = await as(c.admin).patch(path).send({ refreshMinutes: 120 }).expect(200);
      expect(changed.body).toMatchObject({
        refreshMinutes: 120,
        nextImportAt: new Date(importedAt + 2 * HOUR).toISOString(),
      });
      t.clock.advance(5 * 60_000);
      const moved = await as(c.admin)
        .patch(path)
        .send({ url: host.serve('/change/kyero-2.xml', KYERO) })
        .expect(200);
      expect(moved.body).toMatchObject({
        url: host.url('/change/kyero-2.xml'),
        refreshMinutes: 120,
        nextImportAt: t.clock.now().toISOString(),
      });
      await as(c.admin).delete(path).expect(204);
    });

    it("another agency's feed, or none, is 404", async () => {
      const theirs = await connect(other.admin, 'kyero', host.serve('/theirs/kyero.xml', KYERO));
      for (const id of [theirs.id, MISSING]) {
        const path = `/organization/property-feeds/${id}`;
        expectNotFound(await as(a.admin).patch(path).send({ refreshMinutes: 120 }), 'Property feed');
        expectNotFound(await as(a.admin).post(`${path}/import`), 'Property feed');
        expectNotFound(await as(a.admin).delete(path), 'Property feed');
      }
      // untouched
      expect(host.hits.get('/theirs/kyero.xml')).toBeUndefined();
      expect(
        await count(t, `select count(*) n from property_feeds where id = ? and refresh_minutes = 360`, [
          theirs.id,
        ]),
      ).toBe(1);
      await as(other.admin).delete(`/organization/property-feeds/${theirs.id}`).expect(204);
    });
  });

  describe('imports', () => {
    it('imports Kyero XML: one listing per entry by (source, external id), the invalid one skipped', async () => {
      const url = host.serve('/import/kyero.xml', KYERO);
      const feed = await connect(a.admin, 'kyero', url);
      const res = await importNow(a.admin, feed.id).expect(200);
      const now = t.clock.now();
      expect(res.body.import).toEqual({
        status: 'ok',
        created: 9,
        updated: 0,
        unchanged: 0,
        removed: 0,
        skipped: 1,
        error: '1 entry skipped: entry KY-1009: no valid price',
      });
      expect(res.body.feed).toMatchObject({
        id: feed.id,
        lastImportedAt: now.toISOString(),
        lastStatus: 'ok',
        lastError: '1 entry skipped: entry KY-1009: no valid price',
        listingCount: 9,
        nextImportAt: new Date(now.getTime() + 6 * HOUR).toISOString(),
      });

      const rows = await liveRows(a.admin.organizationId, 'kyero');
      expect(rows.map((row) => row.external_id)).toEqual([
        'KY-1000',
        'KY-1001',
        'KY-1002',
        'KY-1003',
        'KY-1004',
        'KY-1005',
        'KY-1006',
        'KY-1007',
        'KY-1008',
      ]);
      expect(rows.every((row) => row.status === 'ACTIVE' && row.agent_id === null)).toBe(true);
      const [first] = await sql<Record<string, unknown>>(
        t,
        `select title, operation, property_type, price::text, currency, country_code, city, region, community,
                lat, lon, bedrooms, bathrooms::text, living_area::text, features, images, created_by, expires_at
           from listings where organization_id = ? and source = 'kyero' and external_id = 'KY-1000'`,
        [a.admin.organizationId],
      );
      expect(first).toEqual({
        title: 'Apartment in Marbella',
        operation: 'sale',
        property_type: 'apartment',
        price: '150000.00',
        currency: 'EUR',
        country_code: 'ES',
        city: 'Marbella',
        region: 'Málaga',
        community: 'Nueva Andalucía',
        lat: 36.5101,
        lon: -4.8825,
        bedrooms: 1,
        bathrooms: '1.0',
        living_area: '60.00',
        features: ['pool', 'sea_view', 'air_conditioning'],
        images: [
          { mediaId: null, extension: null, url: 'https://images.example.com/ky/0/1.jpg', caption: null },
          { mediaId: null, extension: null, url: 'https://images.example.com/ky/0/2.jpg', caption: null },
        ],
        created_by: null,
        expires_at: null,
      });
      // the same file imported by another agency is its own set of rows
      const theirs = await connect(other.admin, 'kyero', url);
      expect((await importNow(other.admin, theirs.id).expect(200)).body.import).toMatchObject({ created: 9 });
      expect((await liveRows(a.admin.organizationId, 'kyero')).length).toBe(9);
      await as(other.admin).delete(`/organization/property-feeds/${theirs.id}`).expect(204);
    });

    it('re-imports: a dropped entry is soft-deleted, a new price updated, the rest untouched; it comes back later', async () => {
      const [feed] = await sql<{ id: string }>(
        t,
        `select id from property_feeds where organization_id = ? and source = 'kyero'`,
        [a.admin.organizationId],
      );
      const before = new Map(
        (await liveRows(a.admin.organizationId, 'kyero')).map((row) => [row.external_id, row]),
      );
      t.clock.advance(HOUR);
      const changed = KYERO.replace(/<property>\s*<id>KY-1003<\/id>[\s\S]*?<\/property>\s*/, '').replace(
        '<price>235000</price>',
        '<price>229500</price>',
      );
      host.serve('/import/kyero.xml', changed);
      const res = await importNow(a.admin, feed.id).expect(200);
      expect(res.body.import).toMatchObject({
        status: 'ok',
        created: 0,
        updated: 1,
        unchanged: 7,
        removed: 1,
      });
      expect(res.body.feed.listingCount).toBe(8);

      const after = new Map(
        (await liveRows(a.admin.organizationId, 'kyero')).map((row) => [row.external_id, row]),
      );
      expect(after.has('KY-1003')).toBe(false);
      const [gone] = await sql<{ deleted_at: string }>(
        t,
        `select deleted_at::text from listings where organization_id = ? and source = 'kyero' and external_id = 'KY-1003'`,
        [a.admin.organizationId],
      );
      expect(new Date(gone.deleted_at)).toEqual(t.clock.now());
      expect(after.get('KY-1001')?.price).toBe('229500.00');
      expect(new Date(after.get('KY-1001')?.updated_at as string)).toEqual(t.clock.now());
      expect(after.get('KY-1000')?.updated_at).toEqual(before.get('KY-1000')?.updated_at);

      // the feed lists it again: the same row is live again
      t.clock.advance(HOUR);
      host.serve('/import/kyero.xml', KYERO);
      const back = await importNow(a.admin, feed.id).expect(200);
      expect(back.body.import).toMatchObject({ created: 0, updated: 2, unchanged: 7, removed: 0 });
      expect(
        await count(
          t,
          `select count(*) n from listings where organization_id = ? and source = 'kyero' and external_id = 'KY-1003'`,
          [a.admin.organizationId],
        ),
      ).toBe(1);
    });

    it('a malformed document fails the import and changes no listing', async () => {
      const [feed] = await sql<{ id: string }>(
        t,
        `select id from property_feeds where organization_id = ? and source = 'kyero'`,
        [a.admin.organizationId],
      );
      const before = await liveRows(a.admin.organizationId, 'kyero');
      t.clock.advance(HOUR);
      host.serve(
        '/import/kyero.xml',
        KYERO.slice(0, KYERO.length / 2).replace('<price>150000</price>', '<price>1</price>'),
      );
      const res = await importNow(a.admin, feed.id).expect(200);
      expect(res.body.import).toEqual({
        status: 'failed',
        created: 0,
        updated: 0,
        unchanged: 0,
        removed: 0,
        skipped: 0,
        error: expect.stringMatching(/^Malformed Kyero XML: <\w+> is not closed\.$/),
      });
      expect(res.body.feed).toMatchObject({
        lastStatus: 'failed',
        lastError: res.body.import.error,
        lastImportedAt: t.clock.now().toISOString(),
        listingCount: 9,
        nextImportAt: new Date(t.clock.now().getTime() + 6 * HOUR).toISOString(),
      });
      expect(await liveRows(a.admin.organizationId, 'kyero')).toEqual(before);

      // an HTML error page, a 404 and a body over 50 MB fail the same way
      host.serve('/import/kyero.xml', {
        body: '<html><body>Maintenance</body></html>',
        headers: { 'content-type': 'text/html' },
      });
      expect((await importNow(a.admin, feed.id).expect(200)).body.import.error).toBe(
        'Malformed Kyero XML: the root element is <html>, not <root>.',
      );
      host.serve('/import/kyero.xml', { status: 404, body: 'gone' });
      expect((await importNow(a.admin, feed.id).expect(200)).body.import.error).toBe(
        'The feed URL answered HTTP 404.',
      );
      host.serve('/import/kyero.xml', {
        body: '<root></root>',
        headers: { 'content-type': 'application/xml', 'content-length': String(51 * 1024 * 1024) },
      });
      expect((await importNow(a.admin, feed.id).expect(200)).body.import.error).toBe(
        'The feed is larger than 50 MB.',
      );
      // the same without a Content-Length: counted as it streams in
      host.serve('/import/kyero.xml', {
        body: '<root>',
        stream: { chunk: ' '.repeat(1024 * 1024), count: 51 },
      });
      expect((await importNow(a.admin, feed.id).expect(200)).body.import.error).toBe(
        'The feed is larger than 50 MB.',
      );
      // nothing listens there (a port that was free a moment ago)
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as AddressInfo).port;
      await new Promise((resolve) => closed.close(resolve));
      await as(a.admin)
        .patch(`/organization/property-feeds/${feed.id}`)
        .send({ url: `http://127.0.0.1:${port}/kyero.xml` })
        .expect(200);
      expect((await importNow(a.admin, feed.id).expect(200)).body.import.error).toBe(
        'The feed URL could not be read (could not connect).',
      );
      await as(a.admin)
        .patch(`/organization/property-feeds/${feed.id}`)
        .send({ url: host.url('/import/kyero.xml') })
        .expect(200);
      expect(await liveRows(a.admin.organizationId, 'kyero')).toEqual(before);

      // a good document again: ok, nothing to change
      host.serve('/import/kyero.xml', KYERO);
      const ok = await importNow(a.admin, feed.id).expect(200);
      expect(ok.body.import).toMatchObject({ status: 'ok', unchanged: 9 });
      expect(ok.body.feed.lastStatus).toBe('ok');
    });

    it('imports REDSP XML', async () => {
      const feed = await connect(a.admin, 'redsp', host.serve('/import/redsp.xml', REDSP));
      const res = await importNow(a.admin, feed.id).expect(200);
      expect(res.body.import).toMatchObject({ status: 'ok', created: 9, skipped: 1 });
      expect(res.body.feed).toMatchObject({
        lastStatus: 'ok',
        listingCount: 9,
        lastError: '1 entry skipped: entry 5004: no town',
      });
      const [row] = await sql<Record<string, unknown>>(
        t,
        `select title, community, postal_code, completion_date, condition, parking_spaces
           from listings where organization_id = ? and source = 'redsp' and external_id = '5001'`,
        [a.admin.organizationId],
      );
      expect(row).toMatchObject({
        title: 'New build villa & garden in Calpe',
        community: 'Residencial Las Palmeras 1',
        postal_code: '29601',
        condition: 'new',
        parking_spaces: 1,
      });
    });

    it('imports JSON Lines', async () => {
      const feed = await connect(
        a.admin,
        'jsonfeed',
        host.serve('/import/feed.jsonl', {
          body: JSONL,
          headers: { 'content-type': 'application/x-ndjson' },
        }),
      );
      const res = await importNow(a.admin, feed.id).expect(200);
      expect(res.body.import).toMatchObject({ status: 'ok', created: 9, skipped: 2 });
      const [row] = await sql<Record<string, unknown>>(
        t,
        `select operation, rent_period, price::text, currency, country_code, additional_features
           from listings where organization_id = ? and source = 'jsonfeed' and external_id = 'jf-4'`,
        [a.admin.organizationId],
      );
      expect(row).toEqual({
        operation: 'rent',
        rent_period: 'month',
        price: '2500.00',
        currency: 'EUR',
        country_code: 'ES',
        additional_features: null,
      });
    });

    it('while an import holds the feed, changing, removing or importing it answers 409', async () => {
      const [feed] = await sql<{ id: string }>(
        t,
        `select id from property_feeds where organization_id = ? and source = 'redsp'`,
        [a.admin.organizationId],
      );
      const path = `/organization/property-feeds/${feed.id}`;
      // a plain knex transaction: MikroORM's would carry into the requests' async context
      const holder = await t.orm.em.getConnection().getKnex().transaction();
      try {
        await holder.raw('select id from property_feeds where id = ? for update', [feed.id]);
        expectError(await as(a.admin).patch(path).send({ refreshMinutes: 90 }), 409, 'CONFLICT');
        expectError(await as(a.admin).delete(path), 409, 'CONFLICT');
        const res = await importNow(a.admin, feed.id);
        expectError(res, 409, 'CONFLICT');
        expect(res.body.error.message).toBe('An import of this feed is running; try again in a moment.');
      } finally {
        await holder.rollback();
      }
      await as(a.admin).patch(path).send({ refreshMinutes: 360 }).expect(200);
      expect((await liveRows(a.admin.organizationId, 'redsp')).length).toBe(9);
    });

    it('disconnecting a feed soft-deletes its listings in the same step', async () => {
      const [feed] = await sql<{ id: string }>(
        t,
        `select id from property_feeds where organization_id = ? and source = 'jsonfeed'`,
        [a.admin.organizationId],
      );
      expect((await liveRows(a.admin.organizationId, 'jsonfeed')).length).toBe(9);
      await as(a.admin).delete(`/organization/property-feeds/${feed.id}`).expect(204);
      expect((await liveRows(a.admin.organizationId, 'jsonfeed')).length).toBe(0);
      expect(await count(t, `select count(*) n from property_feeds where id = ?`, [feed.id])).toBe(0);
      // the other feeds' listings stay
      expect((await liveRows(a.admin.organizationId, 'redsp')).length).toBe(9);
      expectNotFound(await importNow(a.admin, feed.id), 'Property feed');
    });
  });

  describe('the periodic import', () => {
    it('imports the feeds that are due by the clock, each again after refreshMinutes', async () => {
      const agency = await t.seed.agency('Periodic Agency');
      const url = host.serve('/periodic/feed.jsonl', JSONL);
      const res = await as(agency.admin)
        .post('/organization/property-feeds')
        .send({ source: 'jsonfeed', url, refreshMinutes: 60 })
        .expect(201);
      const job = () => t.get(FeedImporter).importDueFeeds(t.clock.now());

      await job();
      const feed = async () =>
        (await as(agency.admin).get('/organization/property-feeds').expect(200)).body.data[0] as Record<
          string,
          unknown
        >;
      const first = await feed();
      expect(first).toMatchObject({ id: res.body.id, lastStatus: 'ok', listingCount: 9 });
      const firstAt = new Date(first.lastImportedAt as string).getTime();
      expect(first.nextImportAt).toBe(new Date(firstAt + HOUR).toISOString());
      expect((await liveRows(agency.admin.organizationId, 'jsonfeed')).length).toBe(9);
      const hits = host.hits.get('/periodic/feed.jsonl');

      // not due yet: nothing is fetched
      t.clock.advance(HOUR - 60_000);
      await job();
      expect(host.hits.get('/periodic/feed.jsonl')).toBe(hits);

      // due: imported again, with the entry the feed dropped removed
      t.clock.advance(60_000);
      host.serve('/periodic/feed.jsonl', JSONL.split('\n').slice(1).join('\n'));
      await job();
      const second = await feed();
      expect(second).toMatchObject({
        lastStatus: 'ok',
        listingCount: 8,
        lastImportedAt: t.clock.now().toISOString(),
      });
      expect(
        (await liveRows(agency.admin.organizationId, 'jsonfeed')).map((row) => row.external_id),
      ).not.toContain('jf-1');
    });

    it('parallel runs never take the same feed (for update skip locked)', async () => {
      const agencies = [await t.seed.agency('Parallel One'), await t.seed.agency('Parallel Two')];
      for (const [index, agency] of agencies.entries()) {
        const url = host.serve(`/parallel/${index}.xml`, KYERO);
        await as(agency.admin)
          .post('/organization/property-feeds')
          .send({ source: 'kyero', url })
          .expect(201);
      }
      const job = () => t.get(FeedImporter).importDueFeeds(t.clock.now());
      const runs = await Promise.all([job(), job(), job()]);
      expect(runs.reduce((sum, run) => sum + run.imported, 0)).toBeGreaterThanOrEqual(2);
      expect(host.hits.get('/parallel/0.xml')).toBe(1);
      expect(host.hits.get('/parallel/1.xml')).toBe(1);
      for (const agency of agencies)
        expect((await liveRows(agency.admin.organizationId, 'kyero')).length).toBe(9);
    });
  });
});
