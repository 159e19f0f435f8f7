import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { Agency, api, asSession, HOUR, sql, TestApp, codeOf } from '../fixtures';
import type { SignedIn } from '../fixtures/seed';
import { agentOf, insertListings, listingsKey } from '../fixtures/listings';

/**
 * Open houses (issue 17 item 6, INTERFACES.md "Open houses"): session writes by the listing's agent
 * or an admin, RSVPs by anyone who sees one (409 once cancelled, ended, past the deadline or full),
 * `/v1` reads (`network` vs `mine`, filters, the paired listing filter), the host's calendar, and
 * the listing owner's private commission nowhere in the JSON. The test database is shared: every
 * network read here is narrowed to this run's own city.
 */

const DAY = 24 * HOUR;

/** Never the private `commission` key (`commissionOffer` and `commissionNotes` are allowed). */
const expectNoPrivateCommission = (res: Response) =>
  expect(JSON.stringify(res.body)).not.toContain('"commission"');

interface OpenHouseJson {
  id: string;
  status: string;
  visibility: string;
  slug: string;
  goingCount: number;
  myRsvp: string | null;
  [field: string]: unknown;
}

describe('Open houses: /network/open-houses and /v1/open-houses', () => {
  let t: TestApp;
  let a: Agency;
  let b: Agency;
  let keyA: string; // a.admin, properties:read
  let keyMia: string; // a.member, the listing's agent
  let keyB: string; // b.admin
  let keyBMember: string; // b.member
  /** This run's city (the database is shared with other suites' network rows). */
  const tag = randomUUID()
    .replace(/[^a-f]/g, '')
    .slice(0, 6);
  const CITY = `Zàfra${tag}`;
  const AREA = `ZAFRA${tag}`.toLowerCase();
  let listing: string; // A's, ACTIVE, Mia's, on the network, exact location shown
  let adminListing: string; // A's, ACTIVE, no agent
  let draftListing: string; // A's, DRAFT, Mia's
  let rivalListing: string; // B's, ACTIVE

  beforeAll(async () => {
    t = await TestApp.start();
    a = await t.seed.agency('Casa Open');
    b = await t.seed.agency('Rival Open');
    keyA = await listingsKey(t, a.admin, ['properties:read']);
    keyMia = await listingsKey(t, a.member, ['properties:read']);
    keyB = await listingsKey(t, b.admin, ['properties:read']);
    keyBMember = await listingsKey(t, b.member, ['properties:read']);
    const mia = await agentOf(t, a.member);
    [listing] = await insertListings(t, a.admin.organizationId, mia, 1, { city: CITY });
    await sql(
      t,
      `update listings set community = ?, address_line1 = 'Calle Mayor 5', shared_commission = 2.5,
                           commission = 4.75, show_exact_location = true, reference = 'OH-1'
        where id = ?`,
      [`Sierra${tag}`, listing],
    );
    [adminListing] = await insertListings(t, a.admin.organizationId, null, 1, {
      city: `Other${tag}`,
      countryCode: 'PT',
    });
    [draftListing] = await insertListings(t, a.admin.organizationId, mia, 1, { city: CITY, status: 'DRAFT' });
    const bob = await agentOf(t, b.admin);
    [rivalListing] = await insertListings(t, b.admin.organizationId, bob, 1, { city: CITY });
  });
  afterAll(() => t.stop());
  afterEach(() => t.clock.reset());

  const at = (ms: number) => new Date(t.clock.now().getTime() + ms).toISOString();
  const body = (overrides: Record<string, unknown> = {}) => ({
    propertyListingId: listing,
    startsAt: at(DAY),
    endsAt: at(DAY + 2 * HOUR),
    timezone: 'Europe/Madrid',
    visibility: 'network',
    commissionNotes: 'Half on completion',
    contactName: 'Mia Member',
    contactPhone: '+34600111222',
    invitation: { message: 'Come and see it' },
    ...overrides,
  });
  const post = (who: SignedIn, payload: Record<string, unknown>) =>
    asSession(t.http.post('/network/open-houses'), who).send(payload);
  const create = async (who: SignedIn, overrides: Record<string, unknown> = {}): Promise<OpenHouseJson> => {
    const res = await post(who, body(overrides));
    if (res.status !== 201)
      throw new Error(`open house not created: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as OpenHouseJson;
  };
  const patch = (who: SignedIn, id: string, payload: Record<string, unknown>) =>
    asSession(t.http.patch(`/network/open-houses/${id}`), who).send(payload);
  const cancel = (who: SignedIn, id: string) =>
    asSession(t.http.post(`/network/open-houses/${id}/cancel`), who);
  const rsvp = (who: SignedIn, id: string, status: string) =>
    asSession(t.http.put(`/network/open-houses/${id}/rsvp`), who).send({ status });
  const list = (key: string, query: string) => api(t, key).get(`/v1/open-houses${query}`);
  const idsOf = (res: Response) => (res.body.data as { id: string }[]).map((row) => row.id);

  describe('POST /network/open-houses', () => {
    it("answers 201 with the detail: the listing's summary and offer, never its private commission", async () => {
      const res = await post(a.member, body({ invitation: { message: 'Welcome', capacity: 20 } }));
      expect(res.status).toBe(201);
      expectNoPrivateCommission(res);
      expect(res.body).toMatchObject({
        status: 'scheduled',
        visibility: 'network',
        timezone: 'Europe/Madrid',
        host: { organizationId: a.admin.organizationId, name: 'Casa Open' },
        isHost: true,
        commissionOffer: '2.50',
        commissionNotes: 'Half on completion',
        goingCount: 0,
        myRsvp: null,
        listingRef: { source: 'internal', id: listing },
        listing: {
          title: expect.any(String),
          reference: 'OH-1',
          propertyType: 'apartment',
          city: CITY,
          currency: 'EUR',
        },
        disclosedAddress: 'Calle Mayor 5',
        mapUrl: expect.stringMatching(/^https:\/\/www\.openstreetmap\.org\/\?mlat=[-\d.]+&mlon=[-\d.]+$/),
        contactName: 'Mia Member',
        contactPhone: '+34600111222',
        hostUserId: a.member.userId,
        invitation: { message: 'Welcome', capacity: 20, rsvpDeadline: null },
      });
      expect(res.body.slug).toMatch(/^[a-z2-7]{16}$/);
      expect(Object.keys(res.body.listing).sort()).toEqual(
        [
          'area',
          'bathrooms',
          'bedrooms',
          'city',
          'currency',
          'mainImageUrl',
          'price',
          'propertyType',
          'reference',
          'title',
        ].sort(),
      );
    });

    it('refuses a listing of another agency or not ACTIVE (400), 13 hours (400), endsAt first, an unknown zone or host', async () => {
      const issuesPath = (res: Response) =>
        (res.body.error?.details?.issues ?? res.body.issues ?? [])[0]?.path;
      for (const propertyListingId of [rivalListing, draftListing, randomUUID()]) {
        const res = await post(a.admin, body({ propertyListingId }));
        expect(res.status).toBe(400);
        expect(codeOf(res)).toBe('VALIDATION_FAILED');
      }
      const long = await post(a.member, body({ endsAt: at(DAY + 13 * HOUR) }));
      expect(long.status).toBe(400);
      expect(issuesPath(long)).toBe('endsAt');
      expect((await post(a.member, body({ endsAt: at(DAY + 12 * HOUR) }))).status).toBe(201);
      expect((await post(a.member, body({ endsAt: at(DAY) }))).status).toBe(400);
      expect((await post(a.member, body({ timezone: 'Mars/Olympus' }))).status).toBe(400);
      expect((await post(a.member, body({ hostUserId: b.admin.userId }))).status).toBe(400);
      expect((await post(a.member, body({ startsAt: '2026-12-01T10:00:00' }))).status).toBe(400);
      expect((await post(a.member, body({ commissionNotes: 'x'.repeat(501) }))).status).toBe(400);
      expect((await post(a.member, body({ invitation: { message: 'x'.repeat(2001) } }))).status).toBe(400);
      expect((await post(a.member, body({ visibility: 'public' }))).status).toBe(400);
    });

    it("a member who is not the listing's agent → 403 FORBIDDEN; an admin may (any listing of the agency)", async () => {
      const res = await post(a.colleague, body());
      expect(res.status).toBe(403);
      expect(codeOf(res)).toBe('FORBIDDEN');
      expect((await post(a.member, body({ propertyListingId: adminListing }))).status).toBe(403);
      const made = await post(
        a.admin,
        body({ propertyListingId: adminListing, hostUserId: a.colleague.userId }),
      );
      expect(made.status).toBe(201);
      expect(made.body.hostUserId).toBe(a.colleague.userId);
      expect(made.body.commissionOffer).toBeNull();
      expect(made.body.mapUrl).toBeNull(); // the listing does not show its exact location
    });
  });

  describe('PATCH and cancel', () => {
    it("the listing's agent or an admin change it; a colleague 403, another agency 404", async () => {
      const oh = await create(a.member);
      const changed = await patch(a.member, oh.id, { contactName: 'Front desk', visibility: 'agency' });
      expect(changed.status).toBe(200);
      expect(changed.body).toMatchObject({ contactName: 'Front desk', visibility: 'agency', slug: oh.slug });
      expect((await patch(a.admin, oh.id, { commissionNotes: null })).body.commissionNotes).toBeNull();
      expect((await patch(a.colleague, oh.id, { contactName: 'x' })).status).toBe(403);
      expect((await patch(b.admin, oh.id, { contactName: 'x' })).status).toBe(404);
      expect((await patch(a.member, oh.id, { endsAt: at(DAY + 14 * HOUR) })).status).toBe(400);
      expect((await cancel(a.colleague, oh.id)).status).toBe(403);
      expect((await cancel(b.admin, oh.id)).status).toBe(404);
      const cancelled = await cancel(a.member, oh.id);
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.status).toBe('cancelled');
      expect((await cancel(a.admin, oh.id)).body.status).toBe('cancelled');
      expect((await patch(a.member, oh.id, { contactName: 'again' })).status).toBe(409);
      expect((await asSession(t.http.patch('/network/open-houses/nope'), a.admin).send({})).status).toBe(400);
    });
  });

  describe('GET /v1/open-houses', () => {
    it("network: other agencies' network events only; mine: the own agency's in any status", async () => {
      const net = await create(a.member);
      const own = await create(a.member, { visibility: 'agency' });
      const gone = await create(a.member);
      await cancel(a.member, gone.id);
      const rival = await create(b.admin, { propertyListingId: rivalListing });

      const fromB = await list(keyB, `?area=${AREA}&limit=25`);
      expect(fromB.status).toBe(200);
      expect(idsOf(fromB)).toContain(net.id);
      expect(idsOf(fromB)).not.toContain(own.id);
      expect(idsOf(fromB)).not.toContain(gone.id);
      expect(idsOf(fromB)).not.toContain(rival.id); // the own agency's are not "network"
      const row = (fromB.body.data as OpenHouseJson[]).find((r) => r.id === net.id)!;
      expect(row).toMatchObject({ isHost: false, commissionOffer: '2.50', host: { name: 'Casa Open' } });
      expect(row).not.toHaveProperty('slug');
      expectNoPrivateCommission(fromB);

      const fromA = await list(keyA, `?area=${AREA}&limit=25`);
      expect(idsOf(fromA)).toEqual([rival.id]);

      const mine = await list(keyMia, '?scope=mine&limit=25');
      expect(idsOf(mine)).toEqual(expect.arrayContaining([net.id, own.id, gone.id]));
      expect(idsOf(mine)).not.toContain(rival.id);
      expect((mine.body.data as OpenHouseJson[]).find((r) => r.id === gone.id)!.status).toBe('cancelled');
      expectNoPrivateCommission(mine);
    });

    it('detail: another agency sees a network event but not an agency one (404), nor a bad id (400)', async () => {
      const net = await create(a.member);
      const own = await create(a.member, { visibility: 'agency' });
      const seen = await api(t, keyB).get(`/v1/open-houses/${net.id}`);
      expect(seen.status).toBe(200);
      expect(seen.body).toMatchObject({ id: net.id, isHost: false, disclosedAddress: 'Calle Mayor 5' });
      expectNoPrivateCommission(seen);
      const hidden = await api(t, keyB).get(`/v1/open-houses/${own.id}`);
      expect(hidden.status).toBe(404);
      expect(codeOf(hidden)).toBe('NOT_FOUND');
      expect((await api(t, keyMia).get(`/v1/open-houses/${own.id}`)).status).toBe(200);
      expect((await api(t, keyB).get(`/v1/open-houses/${randomUUID()}`)).status).toBe(404);
      expect((await api(t, keyB).get('/v1/open-houses/123')).status).toBe(400);
      expect((await t.http.get(`/v1/open-houses/${net.id}`)).status).toBe(401);
    });

    it('from, to, area (prefix of city or community, any case and accents), listingCountry, source; nearest first', async () => {
      const soon = await create(a.member, { startsAt: at(2 * DAY), endsAt: at(2 * DAY + HOUR) });
      const later = await create(a.member, { startsAt: at(5 * DAY), endsAt: at(5 * DAY + HOUR) });
      const elsewhere = await create(a.admin, {
        propertyListingId: adminListing,
        startsAt: at(3 * DAY),
        endsAt: at(3 * DAY + HOUR),
      });
      const ids = async (query: string) => {
        const res = await list(keyB, `${query}&limit=25`);
        expect(res.status).toBe(200);
        return idsOf(res).filter((id) => [soon.id, later.id, elsewhere.id].includes(id));
      };
      expect(await ids(`?area=${AREA}&from=${at(DAY + 3 * HOUR)}`)).toEqual([soon.id, later.id]);
      expect(await ids(`?area=${AREA}&from=${at(2 * DAY + 2 * HOUR)}`)).toEqual([later.id]);
      expect(await ids(`?area=${AREA}&from=${at(DAY + 3 * HOUR)}&to=${at(4 * DAY)}`)).toEqual([soon.id]);
      expect(await ids(`?area=${encodeURIComponent(`SIERRA${tag}`)}&from=${at(DAY + 3 * HOUR)}`)).toEqual([
        soon.id,
        later.id,
      ]);
      expect(await ids(`?area=${encodeURIComponent(`Other${tag}`)}`)).toEqual([elsewhere.id]);
      expect(await ids(`?area=zaf&listingCountry=pt`)).toEqual([]);
      expect(await ids(`?area=${encodeURIComponent(`oth`)}&listingCountry=PT`)).toContain(elsewhere.id);
      expect(await ids(`?area=${AREA}&source=kyero`)).toEqual([]);
      expect(await ids(`?listingSource=internal&listingId=${listing}&from=${at(3 * DAY)}`)).toEqual([
        later.id,
      ]);
      expect(await ids(`?listingSource=kyero&listingId=${listing}`)).toEqual([]);
    });

    it('listingSource and listingId only together (400); limit 1-25; an unknown scope 400', async () => {
      for (const query of [
        `?listingId=${listing}`,
        '?listingSource=internal',
        '?limit=26',
        '?limit=0',
        '?scope=everyone',
        '?from=yesterday',
        '?listingCountry=ESP',
      ]) {
        const res = await list(keyB, query);
        expect({ query, status: res.status }).toEqual({ query, status: 400 });
        expect(codeOf(res)).toBe('VALIDATION_FAILED');
      }
    });

    it('hasMore when more events match than the limit', async () => {
      await create(a.member);
      await create(a.member);
      const res = await list(keyB, `?area=${AREA}&limit=1`);
      expect(res.body.data).toHaveLength(1);
      expect(res.body.hasMore).toBe(true);
    });

    it('needs properties:read', async () => {
      const crmOnly = await list(b.admin.key, '');
      expect(crmOnly.status).toBe(403);
    });
  });

  describe('PUT /network/open-houses/{id}/rsvp', () => {
    it('counts going answers and shows each caller their own', async () => {
      const oh = await create(a.member);
      const first = await rsvp(b.admin, oh.id, 'going');
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ goingCount: 1, myRsvp: 'going', isHost: false });
      expectNoPrivateCommission(first);
      expect((await rsvp(b.member, oh.id, 'maybe')).body).toMatchObject({ goingCount: 1, myRsvp: 'maybe' });
      expect((await rsvp(a.colleague, oh.id, 'going')).body).toMatchObject({
        goingCount: 2,
        myRsvp: 'going',
      });
      expect((await rsvp(b.admin, oh.id, 'not_going')).body).toMatchObject({
        goingCount: 1,
        myRsvp: 'not_going',
      });
      const asMember = await api(t, keyBMember).get(`/v1/open-houses/${oh.id}`);
      expect(asMember.body).toMatchObject({ goingCount: 1, myRsvp: 'maybe' });
      const asMia = await api(t, keyMia).get(`/v1/open-houses/${oh.id}`);
      expect(asMia.body).toMatchObject({ goingCount: 1, myRsvp: null });
      expect((await rsvp(b.admin, oh.id, 'perhaps')).status).toBe(400);
    });

    it('another agency cannot answer an agency-only event (404)', async () => {
      const own = await create(a.member, { visibility: 'agency' });
      expect((await rsvp(b.admin, own.id, 'going')).status).toBe(404);
      expect((await rsvp(a.colleague, own.id, 'going')).status).toBe(200);
    });

    it('full: going beyond capacity → 409; maybe and not_going still answer; a going person may repeat', async () => {
      const oh = await create(a.member, { invitation: { message: 'Small', capacity: 1 } });
      expect((await rsvp(b.admin, oh.id, 'going')).status).toBe(200);
      const full = await rsvp(b.member, oh.id, 'going');
      expect(full.status).toBe(409);
      expect(codeOf(full)).toBe('CONFLICT');
      expect((await rsvp(b.member, oh.id, 'maybe')).status).toBe(200);
      expect((await rsvp(b.admin, oh.id, 'going')).status).toBe(200);
    });

    it('cancelled → 409', async () => {
      const oh = await create(a.member);
      await cancel(a.admin, oh.id);
      const res = await rsvp(b.admin, oh.id, 'going');
      expect(res.status).toBe(409);
      expect(codeOf(res)).toBe('CONFLICT');
    });

    it('past the rsvpDeadline → 409', async () => {
      const oh = await create(a.member, { invitation: { message: 'Hurry', rsvpDeadline: at(HOUR) } });
      expect((await rsvp(b.admin, oh.id, 'going')).status).toBe(200);
      t.clock.advance(2 * HOUR);
      const res = await rsvp(b.member, oh.id, 'going');
      expect(res.status).toBe(409);
    });

    it('ended by the clock → 409; the status reads ended, no longer on the network list', async () => {
      const oh = await create(a.member, { startsAt: at(HOUR), endsAt: at(2 * HOUR) });
      t.clock.advance(3 * HOUR);
      const res = await rsvp(b.admin, oh.id, 'going');
      expect(res.status).toBe(409);
      const read = await api(t, keyMia).get(`/v1/open-houses/${oh.id}`);
      expect(read.body.status).toBe('ended');
      expect(idsOf(await list(keyB, `?area=${AREA}&limit=25`))).not.toContain(oh.id);
      expect((await cancel(a.member, oh.id)).status).toBe(409);
    });
  });

  describe('calendar', () => {
    it("a scheduled open house is on its host's calendar (kind open_house), not on others'", async () => {
      const start = new Date(t.clock.now().getTime() + 2 * DAY);
      start.setUTCHours(15, 0, 0, 0);
      const oh = await create(a.member, {
        startsAt: start.toISOString(),
        endsAt: new Date(start.getTime() + 2 * HOUR).toISOString(),
      });
      const day = start.toISOString().slice(0, 10);
      const next = new Date(start.getTime() + DAY).toISOString().slice(0, 10);
      const items = async (who: { key: string }) => {
        const res = await api(t, who.key).get(`/v1/calendar?from=${day}&to=${next}&tz=UTC`);
        expect(res.status).toBe(200);
        return (res.body.items as { kind: string; eventId: string }[]).filter(
          (item) => item.kind === 'open_house',
        );
      };
      const mine = await items(a.member);
      expect(mine.find((item) => item.eventId === oh.id)).toMatchObject({
        kind: 'open_house',
        startsAt: start.toISOString(),
        endsAt: new Date(start.getTime() + 2 * HOUR).toISOString(),
        allDay: false,
        status: 'scheduled',
      });
      expect((await items(a.colleague)).map((item) => item.eventId)).not.toContain(oh.id);
      await cancel(a.member, oh.id);
      expect((await items(a.member)).map((item) => item.eventId)).not.toContain(oh.id);
    });

    it("blocks its host's free times while scheduled", async () => {
      const start = new Date(t.clock.now().getTime() + 2 * DAY);
      while ([0, 6].includes(start.getUTCDay())) start.setTime(start.getTime() + DAY);
      start.setUTCHours(15, 0, 0, 0);
      const day = start.toISOString().slice(0, 10);
      const next = new Date(start.getTime() + DAY).toISOString().slice(0, 10);
      const oh = await create(a.member, {
        hostUserId: a.colleague.userId,
        startsAt: start.toISOString(),
        endsAt: new Date(start.getTime() + 2 * HOUR).toISOString(),
      });
      const starts = async () => {
        const res = await api(t, a.colleague.key).get(
          `/v1/calendar/free-times?from=${day}&to=${next}&tz=UTC&durationMinutes=60`,
        );
        expect(res.status).toBe(200);
        return (res.body.slots as { startsAt: string }[]).map((slot) => slot.startsAt.slice(11, 16));
      };
      const busy = await starts();
      expect(busy).toEqual(expect.arrayContaining(['14:00', '17:00']));
      for (const hhmm of ['14:30', '15:00', '16:00', '16:30']) expect(busy).not.toContain(hhmm);
      await cancel(a.member, oh.id);
      expect(await starts()).toEqual(expect.arrayContaining(['15:00', '16:00']));
    });
  });
});
