import { JobName, MINUTE, PeriodicJobRegistry } from '@app/platform';
import { ListingExpiry } from '@app/listings';
import { Agency, api, sql, TestApp } from '../fixtures';
import { agentOf, codeOf, createListing, insertListings, listingsKey } from '../fixtures/listings';

/**
 * Listings at `expiresAt` (INTERFACES.md "Listings"): the expiry job makes due listings EXPIRED
 * (history `system:expiry`), or with `autoRenewEnabled` moves `expiresAt` on by 90 days until it
 * is in the future; SOLD, RENTED, WITHDRAWN and deleted listings are left alone. Through the clock.
 */

const DAY = 86_400_000;

describe('Listings: expiry', () => {
  let t: TestApp;
  let a: Agency;
  let b: Agency;
  let admin: string;
  let other: string;
  let agent: string;

  const run = () => t.get(ListingExpiry).expireDue(t.clock.now());
  const rowOf = async (id: string) =>
    (
      await sql<{ status: string; expires_at: Date; version: number }>(
        t,
        `select status, expires_at, version from listings where id = ?`,
        [id],
      )
    )[0];

  beforeAll(async () => {
    t = await TestApp.start();
    a = await t.seed.agency('Expiring Agency');
    b = await t.seed.agency('Watching Agency');
    admin = await listingsKey(t, a.admin);
    other = await listingsKey(t, b.admin);
    agent = await agentOf(t, a.admin);
  });
  afterAll(() => t.stop());
  afterEach(() => t.clock.reset());

  it('is a periodic job run every minute', () => {
    expect(t.get(PeriodicJobRegistry).byName(JobName.ListingsExpireDue).everyMs).toBe(MINUTE);
  });

  it('expires a due listing at expiresAt, with a system:expiry history row; others then get 404', async () => {
    const start = t.clock.now();
    const listing = await createListing(t, admin, {
      agentId: agent,
      expiresAt: new Date(start.getTime() + 10 * DAY).toISOString(),
    });
    await api(t, other).get(`/properties/${listing.id}`).expect(200);

    t.clock.set(new Date(start.getTime() + 10 * DAY - 1000));
    await run();
    expect((await rowOf(listing.id)).status).toBe('ACTIVE');

    t.clock.set(new Date(start.getTime() + 10 * DAY));
    const summary = await run();
    expect(summary.expired).toBeGreaterThanOrEqual(1);
    expect(await rowOf(listing.id)).toMatchObject({ status: 'EXPIRED', version: 2 });

    const history = await api(t, admin).get(`/properties/${listing.id}/history`).expect(200);
    expect(history.body.data[0]).toEqual({
      at: t.clock.now().toISOString(),
      source: 'system:expiry',
      changedBy: null,
      changedFields: ['status'],
    });
    const seen = await api(t, other).get(`/properties/${listing.id}`);
    expect(seen.status).toBe(404);
    expect(codeOf(seen)).toBe('NOT_FOUND');

    // a second run finds nothing more to do for it
    await run();
    expect((await rowOf(listing.id)).version).toBe(2);

    // renew brings it back: ACTIVE, now + 90 days
    const renewed = await api(t, admin).post(`/properties/${listing.id}/renew`).expect(200);
    expect(renewed.body).toMatchObject({
      status: 'ACTIVE',
      expiresAt: new Date(t.clock.now().getTime() + 90 * DAY).toISOString(),
    });
  });

  it('auto-renews by 90 days (repeatedly, until in the future) instead of expiring', async () => {
    const start = t.clock.now();
    const expiresAt = new Date(start.getTime() + DAY);
    const listing = await createListing(t, admin, {
      agentId: agent,
      autoRenewEnabled: true,
      expiresAt: expiresAt.toISOString(),
    });
    // the job did not run for 200 days: three periods later the listing is on sale until day 271
    t.clock.set(new Date(start.getTime() + 200 * DAY));
    const summary = await run();
    expect(summary.renewed).toBeGreaterThanOrEqual(1);
    const row = await rowOf(listing.id);
    expect(row.status).toBe('ACTIVE');
    expect(new Date(row.expires_at).toISOString()).toBe(
      new Date(expiresAt.getTime() + 3 * 90 * DAY).toISOString(),
    );
    const history = await api(t, admin).get(`/properties/${listing.id}/history`).expect(200);
    expect(history.body.data[0]).toMatchObject({
      source: 'system:expiry',
      changedBy: null,
      changedFields: ['expiresAt'],
    });
  });

  it('expires DRAFT and RESERVED listings too, never SOLD, RENTED, WITHDRAWN, EXPIRED or deleted ones', async () => {
    const start = t.clock.now();
    const past = new Date(start.getTime() - DAY);
    const ids: Record<string, string> = {};
    for (const status of ['DRAFT', 'RESERVED', 'SOLD', 'RENTED', 'WITHDRAWN']) {
      [ids[status]] = await insertListings(t, a.admin.organizationId, agent, 1, { status, expiresAt: past });
    }
    const [deleted] = await insertListings(t, a.admin.organizationId, agent, 1, { expiresAt: past });
    await sql(t, `update listings set deleted_at = now() where id = ?`, [deleted]);
    const [feed] = await insertListings(t, a.admin.organizationId, null, 1, {
      expiresAt: past,
      source: 'kyero',
    });

    await run();
    expect((await rowOf(ids.DRAFT)).status).toBe('EXPIRED');
    expect((await rowOf(ids.RESERVED)).status).toBe('EXPIRED');
    for (const status of ['SOLD', 'RENTED', 'WITHDRAWN'])
      expect((await rowOf(ids[status])).status).toBe(status);
    expect((await rowOf(deleted)).status).toBe('ACTIVE');
    expect((await rowOf(feed)).status).toBe('ACTIVE');
  });

  it('works through more due listings than one batch', async () => {
    const past = new Date(t.clock.now().getTime() - DAY);
    const ids = await insertListings(t, a.admin.organizationId, agent, 230, { expiresAt: past });
    await run();
    const [row] = await sql<{ n: string }>(
      t,
      `select count(*) as n from listings where id = any(?::uuid[]) and status = 'EXPIRED'`,
      [`{${ids.join(',')}}`],
    );
    expect(Number(row.n)).toBe(230);
    const [history] = await sql<{ n: string }>(
      t,
      `select count(*) as n from listing_history where listing_id = any(?::uuid[]) and source = 'system:expiry'`,
      [`{${ids.join(',')}}`],
    );
    expect(Number(history.n)).toBe(230);
  });
});
