import { randomBytes } from 'node:crypto';
import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { getQueueToken } from '@nestjs/bullmq';
import { Job, type Queue } from 'bullmq';
import type { Response } from 'supertest';
import { v7 as uuidv7 } from 'uuid';
import { BrochureExpiry } from '@app/brochures';
import {
  AppConfig,
  JobName,
  MaintenanceProcessor,
  MINUTE,
  PeriodicJobRegistry,
  QueueName,
} from '@app/platform';
import { WorkerModule } from '../../apps/worker/src/worker.module';
import { Agency, SignedIn, sql, TestApp, codeOf } from '../fixtures';
import { agentOf } from '../fixtures/listings';

/**
 * The public page of a brochure (issue 17 items 4 and 1, INTERFACES.md "Brochures and network"
 * and "Public pages"): content, headers, 410 and 404 pages (HTML or JSON by `Accept`), the view
 * count (one UPDATE per counted view; bots and HEAD not counted), 60 calls a minute per IP, and
 * the expiry job `brochures.expire-due` in-process through the clock and on BullMQ.
 */

const DAY = 86_400_000;

const HEADERS = {
  'content-security-policy':
    "default-src 'none';img-src https: data:;style-src 'unsafe-inline';frame-ancestors 'none';base-uri 'none';form-action 'none'",
  'x-robots-tag': 'noindex',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

const expectPageHeaders = (res: Response) => {
  for (const [name, value] of Object.entries(HEADERS)) expect(res.headers[name]).toBe(value);
};

const expectHtmlError = (res: Response, status: number) => {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(res.text).toMatch(/^<!doctype html>/);
  expectPageHeaders(res);
};

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
const newSlug = (title = 'homes') =>
  `${title}-${Array.from(randomBytes(10), (byte) => BASE32[byte % 32]).join('')}`;

interface SeedListing {
  position: number;
  snapshot?: Record<string, unknown>;
  edits?: Record<string, unknown>;
}

interface SeedBrochure {
  title?: string;
  recipientName?: string | null;
  recipientNote?: string | null;
  status?: 'active' | 'revoked';
  showLocations?: boolean;
  themeName?: string;
  accentColorOverride?: string | null;
  expiresAt?: Date;
  listings?: SeedListing[];
}

const listingSnapshot = (n: number, overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  id: uuidv7(),
  ref: { source: 'internal', id: uuidv7() },
  title: `Listing number ${n}`,
  description: `Description of listing ${n}.`,
  operation: 'sale',
  propertyType: 'villa',
  price: `${400000 + n}.00`,
  currency: 'EUR',
  rentPeriod: null,
  countryCode: 'ES',
  city: 'Marbella',
  community: 'Nueva Andalucía',
  addressLine1: `Calle Secreta ${n}`,
  postalCode: '29660',
  coordinates: { lat: 36.5, lon: -4.95 },
  bedrooms: 4,
  bathrooms: 3,
  livingArea: 250,
  areaUnit: 'sqm',
  features: ['pool'],
  images: [
    { mediaId: null, url: `https://cdn.example/listing-${n}.jpg`, caption: `Photo ${n}` },
    { mediaId: null, url: `http://insecure.example/listing-${n}.jpg`, caption: null },
  ],
  ...overrides,
});

describe('GET /b/{slug}: the public page of a brochure', () => {
  let t: TestApp;
  let a: Agency;

  const page = (slug: string, accept?: string) => {
    const req = t.http.get(`/b/${slug}`);
    return accept ? req.set('Accept', accept) : req;
  };

  /** A brochure of `person`'s agency, made and sent by them, with its listing copies; by SQL. */
  async function seedBrochure(person: SignedIn, input: SeedBrochure = {}) {
    const id = uuidv7();
    const slug = newSlug();
    const now = t.clock.now();
    const status = input.status ?? 'active';
    await sql(
      t,
      `insert into brochures (id, organization_id, slug, title, recipient_name, recipient_note, status,
                              show_locations, theme_name, accent_color_override, agent_user_id,
                              creator_user_id, expires_in_days, expires_at, revoked_at, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 30, ?, ?, ?, ?)`,
      [
        id,
        person.organizationId,
        slug,
        input.title ?? 'Homes for you',
        input.recipientName === undefined ? 'Jane Buyer' : input.recipientName,
        input.recipientNote === undefined ? 'Three homes we talked about.' : input.recipientNote,
        status,
        input.showLocations ?? true,
        input.themeName ?? 'classic',
        input.accentColorOverride ?? null,
        person.userId,
        person.userId,
        input.expiresAt ?? new Date(now.getTime() + 30 * DAY),
        status === 'revoked' ? now : null,
        now,
        now,
      ],
    );
    const listings = input.listings ?? [{ position: 0 }];
    for (const listing of listings) {
      const snapshot = listing.snapshot ?? listingSnapshot(listing.position);
      const ref = snapshot.ref as { source: string; id: string };
      await sql(
        t,
        `insert into brochure_listings (id, brochure_id, organization_id, position, source, source_id, country,
                                        snapshot, edits, refreshed_at, created_at)
         values (?, ?, ?, ?, ?, ?, null, ?::jsonb, ?::jsonb, ?, ?)`,
        [
          uuidv7(),
          id,
          person.organizationId,
          listing.position,
          ref.source,
          ref.id,
          JSON.stringify(snapshot),
          JSON.stringify(listing.edits ?? {}),
          now,
          now,
        ],
      );
    }
    return { id, slug };
  }

  // views are written once a second: the flush stands for that second
  const viewsOf = async (id: string) => {
    await t.flushBufferedWrites();
    return (
      await sql<{ view_count: number; last_viewed_at: Date | null }>(
        t,
        'select view_count, last_viewed_at from brochures where id = ?',
        [id],
      )
    )[0];
  };

  beforeAll(async () => {
    t = await TestApp.start();
    a = await t.seed.agency('Brochure Agency');
    await agentOf(t, a.member); // the member's roster row, with public numbers
  });
  afterAll(() => t.stop());
  // the per-IP window is the clock's: each test starts with a fresh minute
  beforeEach(() => t.clock.advance(2 * MINUTE));

  it('an active brochure → 200 HTML: theme accent, escaped recipient name and note, agent card, listings in order', async () => {
    const { slug } = await seedBrochure(a.member, {
      title: 'Villas <b>for</b> you',
      recipientName: '<script>alert("name")</script>',
      recipientNote: '<script>alert("note")</script> & see you soon',
      themeName: 'coastal',
      accentColorOverride: '#FF0066',
      listings: [{ position: 2 }, { position: 0 }, { position: 1, edits: { title: 'Renamed <villa>' } }],
    });
    const res = await page(slug).expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expectPageHeaders(res);
    expect(res.text).toContain('<title>Villas &lt;b&gt;for&lt;/b&gt; you</title>');
    expect(res.text).toContain('<h1>Villas &lt;b&gt;for&lt;/b&gt; you</h1>');
    expect(res.text).toContain('class="brochure theme-coastal" style="--accent:#FF0066;');
    expect(res.text).toContain('Prepared for &lt;script&gt;alert(&quot;name&quot;)&lt;/script&gt;');
    expect(res.text).toContain('&lt;script&gt;alert(&quot;note&quot;)&lt;/script&gt; &amp; see you soon');
    expect(res.text).not.toMatch(/<script/i);

    const [agent] = await sql<{ first_name: string; last_name: string; display_email: string }>(
      t,
      'select first_name, last_name, display_email from agents where organization_id = ? and clerk_user_id = ?',
      [a.member.organizationId, a.member.userId],
    );
    expect(res.text).toContain(`<strong>${agent.first_name} ${agent.last_name}</strong>`);
    expect(res.text).toContain(`mailto:${agent.display_email}`);
    expect(res.text).toContain('<a href="tel:+34611111111">+34611111111</a>');

    // position order, the edited title instead of the copy's
    const titles = [...res.text.matchAll(/<h2>([^<]*)<\/h2>/g)].map((match) => match[1]);
    expect(titles).toEqual(['Listing number 0', 'Renamed &lt;villa&gt;', 'Listing number 2']);
    expect(res.text).not.toContain('Listing number 1');
    expect(res.text).toContain('<p class="price">400,000 EUR</p>');
    expect(res.text).toContain('Calle Secreta 0, 29660');
    expect(res.text).toContain('Nueva Andalucía, Marbella');
    expect(res.text).toContain('openstreetmap.org');
    expect(res.text).toContain('Description of listing 0.');
    // https images only
    expect(res.text).toContain('<img src="https://cdn.example/listing-0.jpg" alt="Photo 0" loading="lazy">');
    expect(res.text).not.toContain('insecure.example');
  });

  it('the theme colour without an override; hidden fields are absent', async () => {
    const { slug } = await seedBrochure(a.member, {
      themeName: 'luxury',
      listings: [
        {
          position: 0,
          snapshot: listingSnapshot(7, { description: 'SECRET DESCRIPTION', features: ['sauna'] }),
          edits: { hiddenFields: ['price', 'address', 'coordinates', 'description', 'features'] },
        },
      ],
    });
    const res = await page(slug).expect(200);
    expect(res.text).toContain('class="brochure theme-luxury" style="--accent:#8B6B2E;');
    for (const absent of [
      '400,007',
      'class="price"',
      'Calle Secreta',
      '29660',
      'openstreetmap',
      'SECRET DESCRIPTION',
      'Sauna',
    ])
      expect(res.text).not.toContain(absent);
    expect(res.text).toContain('Listing number 7');
  });

  it('no locations without showLocations: no city, address or map link', async () => {
    const { slug } = await seedBrochure(a.member, { showLocations: false });
    const res = await page(slug).expect(200);
    for (const absent of ['Marbella', 'Nueva Andaluc', 'Calle Secreta', '29660', 'openstreetmap'])
      expect(res.text).not.toContain(absent);
    expect(res.text).toContain('<p class="price">400,000 EUR</p>');
  });

  it('revoked → 410 (HTML, or GONE as JSON); not counted', async () => {
    const { id, slug } = await seedBrochure(a.member, { status: 'revoked' });
    const res = await page(slug);
    expectHtmlError(res, 410);
    expect(res.text).toContain('This brochure is no longer available.');
    const json = await page(slug, 'application/json');
    expect(json.status).toBe(410);
    expect(codeOf(json)).toBe('GONE');
    expectPageHeaders(json);
    expect((await viewsOf(id)).view_count).toBe(0);
  });

  it('expired by the clock → 410 at expiresAt, before the job has run; not counted', async () => {
    const expiresAt = new Date(t.clock.now().getTime() + 60 * MINUTE);
    const { id, slug } = await seedBrochure(a.member, { expiresAt });
    await page(slug).expect(200);
    t.clock.set(expiresAt);
    expectHtmlError(await page(slug), 410);
    expect((await viewsOf(id)).view_count).toBe(1);
  });

  it('unknown, malformed or deleted → 404 (HTML, or NOT_FOUND as JSON)', async () => {
    expectHtmlError(await page(newSlug()), 404);
    expectHtmlError(await page('not%20a%20slug!'), 404);
    expectHtmlError(await page('x'.repeat(300)), 404);
    const json = await page(newSlug(), 'application/json');
    expect(json.status).toBe(404);
    expect(codeOf(json)).toBe('NOT_FOUND');
    expect(json.headers['content-type']).toMatch(/^application\/json/);

    const { id, slug } = await seedBrochure(a.member);
    await page(slug).expect(200);
    await sql(t, 'delete from brochures where id = ?', [id]);
    expectHtmlError(await page(slug), 404);
  });

  it('a live page is HTML whatever Accept says', async () => {
    const { slug } = await seedBrochure(a.member);
    const res = await page(slug, 'application/json').expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it("a disabled agency's brochure → 404 until it is enabled again", async () => {
    const other = await t.seed.agency('Disabled Brochure Agency');
    const { slug } = await seedBrochure(other.admin);
    await page(slug).expect(200);
    await sql(t, 'update organizations set disabled = true where id = ?', [other.admin.organizationId]);
    try {
      expectHtmlError(await page(slug), 404);
    } finally {
      await sql(t, 'update organizations set disabled = false where id = ?', [other.admin.organizationId]);
    }
    await page(slug).expect(200);
  });

  it('50 parallel GETs → viewCount 50 and lastViewedAt set', async () => {
    const { id, slug } = await seedBrochure(a.member);
    expect(await viewsOf(id)).toEqual({ view_count: 0, last_viewed_at: null });
    const answers = await Promise.all(Array.from({ length: 50 }, () => page(slug)));
    expect(answers.map((res) => res.status)).toEqual(Array(50).fill(200));
    const views = await viewsOf(id);
    expect(views.view_count).toBe(50);
    expect(new Date(views.last_viewed_at!).toISOString()).toBe(t.clock.now().toISOString());
  });

  it('bots, crawlers, spiders, link previews and HEAD are not counted', async () => {
    const { id, slug } = await seedBrochure(a.member);
    for (const agent of [
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'Slackbot-LinkExpanding 1.0',
      'SomeCRAWLER/1.0',
      'Baiduspider',
      'WhatsApp Link Preview',
    ]) {
      await page(slug).set('User-Agent', agent).expect(200);
    }
    const head = await t.http.head(`/b/${slug}`).expect(200);
    expectPageHeaders(head);
    expect(head.headers['content-type']).toBe('text/html; charset=utf-8');
    expect((await viewsOf(id)).view_count).toBe(0);

    await page(slug).set('User-Agent', 'Mozilla/5.0 (Macintosh) Safari/605.1.15').expect(200);
    await page(slug).unset('User-Agent').expect(200);
    expect((await viewsOf(id)).view_count).toBe(2);
  });

  it('60 calls a minute per IP, then 429 (HTML, or RATE_LIMITED as JSON); a new minute frees it', async () => {
    const { slug } = await seedBrochure(a.member);
    for (let i = 0; i < 59; i += 1) await page(slug).expect(200);
    // the 60th on an unknown slug: the limit counts every public page call
    expectHtmlError(await page(newSlug()), 404);
    const html = await page(slug);
    expectHtmlError(html, 429);
    expect(html.headers['retry-after']).toMatch(/^\d+$/);
    const json = await page(slug, 'application/json');
    expect(json.status).toBe(429);
    expect(codeOf(json)).toBe('RATE_LIMITED');
    t.clock.advance(MINUTE);
    await page(slug).expect(200);
  });
});

describe('brochures.expire-due: the expiry job', () => {
  let t: TestApp;
  let a: Agency;

  /** `n` brochures of the agency expiring at `expiresAt`, by one insert; their ids. */
  async function insertBrochures(
    n: number,
    expiresAt: Date,
    status: 'active' | 'revoked' = 'active',
  ): Promise<string[]> {
    const ids = Array.from({ length: n }, () => uuidv7());
    const now = t.clock.now();
    await sql(
      t,
      `insert into brochures (id, organization_id, slug, title, status, agent_user_id, creator_user_id,
                              expires_in_days, expires_at, revoked_at, created_at, updated_at)
       select u.id, ?, 'due-' || replace(u.id::text, '-', ''), 'Due ' || u.n, ?, ?, ?, 30, ?,
              case when ? = 'revoked' then ?::timestamptz end, ?, ?
         from unnest(?::uuid[]) with ordinality as u(id, n)`,
      [
        a.admin.organizationId,
        status,
        a.admin.userId,
        a.admin.userId,
        expiresAt,
        status,
        now,
        now,
        now,
        `{${ids.join(',')}}`,
      ],
    );
    return ids;
  }

  /** Each brochure's `expired_at` (ISO) or null, in the order of `ids`. */
  async function expiredAtOf(ids: string[]): Promise<(string | null)[]> {
    const rows = await sql<{ id: string; expired_at: Date | null }>(
      t,
      'select id, expired_at from brochures where id = any(?::uuid[])',
      [`{${ids.join(',')}}`],
    );
    const byId = new Map(rows.map((row) => [row.id, row.expired_at]));
    return ids.map((id) => {
      const at = byId.get(id);
      return at ? new Date(at).toISOString() : null;
    });
  }

  beforeAll(async () => {
    t = await TestApp.start();
    a = await t.seed.agency('Expiring Brochures');
  });
  afterAll(() => t.stop());
  afterEach(() => t.clock.reset());

  it('is a periodic job run every minute', () => {
    expect(t.get(PeriodicJobRegistry).byName(JobName.BrochuresExpireDue).everyMs).toBe(MINUTE);
  });

  it('in-process through the clock: marks due active brochures expired_at = now; not-due and revoked ones stay', async () => {
    const start = t.clock.now();
    const [due] = await insertBrochures(1, new Date(start.getTime() + 10 * MINUTE));
    const [later] = await insertBrochures(1, new Date(start.getTime() + DAY));
    const [revoked] = await insertBrochures(1, new Date(start.getTime() + 5 * MINUTE), 'revoked');
    const run = () => t.get(PeriodicJobRegistry).run(JobName.BrochuresExpireDue, {}, t.clock.now());

    t.clock.set(new Date(start.getTime() + 10 * MINUTE - 1000));
    await run();
    expect(await expiredAtOf([due, later, revoked])).toEqual([null, null, null]);

    t.clock.set(new Date(start.getTime() + 10 * MINUTE));
    const summary = (await run()) as { expired: number };
    expect(summary.expired).toBeGreaterThanOrEqual(1);
    const markedAt = t.clock.now().toISOString();
    expect(await expiredAtOf([due])).toEqual([markedAt]);
    expect(await expiredAtOf([later, revoked])).toEqual([null, null]);

    // a later run leaves the mark as it was
    t.clock.advance(MINUTE);
    await run();
    expect(await expiredAtOf([due])).toEqual([markedAt]);
  });

  it('works through more due brochures than one batch', async () => {
    const ids = await insertBrochures(620, new Date(t.clock.now().getTime() - MINUTE));
    await t.get(BrochureExpiry).expireDue(t.clock.now());
    const marks = await expiredAtOf(ids);
    expect(marks.filter((mark) => mark === t.clock.now().toISOString())).toHaveLength(620);
  });

  describe('on BullMQ (apps/worker on the machine’s Redis)', () => {
    let worker: INestApplicationContext;
    let queue: Queue;

    beforeAll(async () => {
      const config = AppConfig.fromEnv({
        DATABASE_URL: process.env.DATABASE_URL,
        REDIS_URL: 'redis://127.0.0.1:6379',
        LOG_LEVEL: 'silent',
      });
      const queuePrefix = `test-brochures-${process.pid}-${Date.now()}`;
      worker = await NestFactory.createApplicationContext(WorkerModule.forRoot(config, { queuePrefix }), {
        logger: false,
        abortOnError: false,
      });
      queue = worker.get<Queue>(getQueueToken(QueueName.Maintenance));
    });

    afterAll(async () => {
      try {
        await worker.get(MaintenanceProcessor).worker.close();
        await queue.obliterate({ force: true });
      } finally {
        await worker.close();
      }
    });

    it('registers the job as a repeatable scheduler every minute and runs it by name', async () => {
      expect(await queue.getJobScheduler(JobName.BrochuresExpireDue)).toMatchObject({
        key: JobName.BrochuresExpireDue,
        name: JobName.BrochuresExpireDue,
        every: MINUTE,
      });
      // the worker runs on the system's clock: due a minute ago by it
      t.clock.reset();
      const [due] = await insertBrochures(1, new Date(Date.now() - MINUTE));
      const [later] = await insertBrochures(1, new Date(Date.now() + DAY));
      const added = await queue.add(JobName.BrochuresExpireDue, {});
      let job: Job | undefined;
      for (let i = 0; i < 200; i++) {
        job = await Job.fromId(queue, added.id as string);
        if (job?.finishedOn) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(job?.finishedOn).toBeDefined();
      expect(job?.failedReason).toBeUndefined();
      // the scheduler's own first run may have taken the row already: either way it is marked
      const [dueMark, laterMark] = await expiredAtOf([due, later]);
      expect(dueMark).not.toBeNull();
      expect(laterMark).toBeNull();
    });
  });
});
