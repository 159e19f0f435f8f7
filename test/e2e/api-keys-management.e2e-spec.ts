import { ApiKeyMaintenanceService, KeyUsageRecorder } from '@app/identity';
import {
  advanceClock,
  asKey,
  asSession,
  expectError,
  expectUnauthenticated,
  expectValidation,
  keyRow,
  makeOlder,
  postKey,
  SignedIn,
  sql,
  TestApp,
} from '../fixtures';

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;
const KEY_FORMAT = /^svc_pk_[A-Za-z0-9]{32}$/;
const MEMBER_DEFAULT_SCOPES = ['properties:read', 'sources:read', 'agents:read'];
const ADMIN_DEFAULT_SCOPES = [
  'properties:read',
  'sources:read',
  'properties:write',
  'media:write',
  'agents:read',
];

describe('API key management (/api-keys)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.stop());
  beforeEach(() => t.resetRows());

  const post = (who: SignedIn, body: object) => asSession(t.http.post('/api-keys'), who).send(body);
  const patch = (who: SignedIn, id: string, body: object) =>
    asSession(t.http.patch(`/api-keys/${id}`), who).send(body);
  const rotate = (who: SignedIn, id: string) => asSession(t.http.post(`/api-keys/${id}/rotate`), who);
  const revoke = (who: SignedIn, id: string) => asSession(t.http.delete(`/api-keys/${id}`), who);
  const list = (who: SignedIn) => asSession(t.http.get('/api-keys'), who);
  const me = (secret: string) => asKey(t.http.get('/v1/me'), secret);

  describe('POST /api-keys', () => {
    it('answers {id, key, prefixHint, scopes} with a svc_pk_ secret whose first 12 characters are the hint', async () => {
      const admin = await t.seed.organization();
      const res = await post(admin, { name: 'Website sync', scopes: ['crm:read', 'properties:read'] });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        key: expect.stringMatching(KEY_FORMAT),
        prefixHint: res.body.key.slice(0, 12),
        scopes: ['crm:read', 'properties:read'],
      });
      expect(res.body.prefixHint).toHaveLength(12);
    });

    it('shows the secret only once: no listed row carries it', async () => {
      const admin = await t.seed.organization();
      const created = await postKey(t, admin);
      const res = await list(admin).expect(200);
      expect(res.body).toHaveLength(1);
      expect(res.body[0]).not.toHaveProperty('key');
      expect(res.body[0]).not.toHaveProperty('secretHash');
      expect(JSON.stringify(res.body)).not.toContain(created.key);
      expect(res.body[0].prefixHint).toBe(created.prefixHint);
    });

    it('gives every key its own secret', async () => {
      const admin = await t.seed.organization();
      const a = await postKey(t, admin);
      const b = await postKey(t, admin);
      expect(a.key).not.toBe(b.key);
      expect(a.id).not.toBe(b.id);
    });

    it('gives a member key without scopes properties:read, sources:read and the reserved agents:read', async () => {
      const admin = await t.seed.organization();
      const member = await t.seed.member(admin);
      const res = await post(member, { name: 'No scopes' }).expect(201);
      expect(res.body.scopes).toEqual(MEMBER_DEFAULT_SCOPES);
      const empty = await post(member, { name: 'Empty scopes', scopes: [] }).expect(201);
      expect(empty.body.scopes).toEqual(MEMBER_DEFAULT_SCOPES);
    });

    it('gives an admin key without scopes properties:write and media:write as well', async () => {
      const admin = await t.seed.organization();
      const res = await post(admin, { name: 'No scopes' }).expect(201);
      expect(res.body.scopes).toEqual(ADMIN_DEFAULT_SCOPES);
      expect((await keyRow(t, admin, res.body.id)).scopes).toEqual(ADMIN_DEFAULT_SCOPES);
    });

    it('keeps the exact scopes asked for, without the reserved one', async () => {
      const admin = await t.seed.organization();
      const res = await post(admin, { name: 'CRM', scopes: ['crm:read', 'crm:write'] }).expect(201);
      expect(res.body.scopes).toEqual(['crm:read', 'crm:write']);
    });

    it('refuses properties:write and media:write to a member with 403 API_KEY_SCOPE_NOT_GRANTABLE', async () => {
      const admin = await t.seed.organization();
      const member = await t.seed.member(admin);
      expectError(
        await post(member, { name: 'x', scopes: ['properties:read', 'properties:write'] }),
        403,
        'API_KEY_SCOPE_NOT_GRANTABLE',
      );
      expectError(
        await post(member, { name: 'x', scopes: ['media:write'] }),
        403,
        'API_KEY_SCOPE_NOT_GRANTABLE',
      );
      expect((await list(admin).expect(200)).body).toEqual([]);
    });

    it('lets an admin grant properties:write and media:write', async () => {
      const admin = await t.seed.organization();
      const res = await post(admin, { name: 'x', scopes: ['properties:write', 'media:write'] }).expect(201);
      expect(res.body.scopes).toEqual(['properties:write', 'media:write']);
    });

    it('refuses repeated, unknown and reserved scopes with 400 VALIDATION_FAILED', async () => {
      const admin = await t.seed.organization();
      expectValidation(await post(admin, { name: 'x', scopes: ['crm:read', 'crm:read'] }));
      expectValidation(await post(admin, { name: 'x', scopes: ['crm:delete'] }));
      expectValidation(await post(admin, { name: 'x', scopes: ['agents:read'] }));
      expectValidation(await post(admin, { name: 'x', scopes: 'crm:read' }));
      expect((await list(admin).expect(200)).body).toEqual([]);
    });

    it('needs a name of 1-255 characters', async () => {
      const admin = await t.seed.organization();
      expectValidation(await post(admin, {}));
      expectValidation(await post(admin, { name: '' }));
      expectValidation(await post(admin, { name: 'n'.repeat(256) }));
      expectValidation(await post(admin, { name: 42 }));
      await post(admin, { name: 'n'.repeat(255) }).expect(201);
    });

    it('sets no expiry unless expiresInDays is sent', async () => {
      const admin = await t.seed.organization();
      const created = await postKey(t, admin);
      expect((await keyRow(t, admin, created.id)).expiresAt).toBeNull();
    });

    it('sets the expiry expiresInDays ahead, 1 to 3650', async () => {
      const admin = await t.seed.organization();
      const now = new Date('2026-11-20T10:00:00.000Z');
      t.clock.set(now);
      const short = await postKey(t, admin, { expiresInDays: 1 });
      const long = await postKey(t, admin, { expiresInDays: 3650 });
      expect((await keyRow(t, admin, short.id)).expiresAt).toBe(new Date(now.getTime() + DAY).toISOString());
      expect((await keyRow(t, admin, long.id)).expiresAt).toBe(
        new Date(now.getTime() + 3650 * DAY).toISOString(),
      );
    });

    it('refuses expiresInDays outside 1-3650 or not an integer', async () => {
      const admin = await t.seed.organization();
      for (const expiresInDays of [0, -1, 3651, 1.5, '30']) {
        expectValidation(await post(admin, { name: 'x', expiresInDays }));
      }
      expect((await list(admin).expect(200)).body).toEqual([]);
    });

    it('answers 401 to an API key: key management takes a session token', async () => {
      const admin = await t.seed.organization();
      const created = await postKey(t, admin);
      expectUnauthenticated(await asKey(t.http.post('/api-keys'), created.key).send({ name: 'x' }));
      expectUnauthenticated(await asKey(t.http.get('/api-keys'), created.key));
      expectUnauthenticated(await t.http.get('/api-keys'));
    });
  });

  describe('allowed websites', () => {
    it('keeps https origins, with or without a port, and http only for localhost', async () => {
      const admin = await t.seed.organization();
      const origins = ['https://www.agency.example', 'https://agency.example:8443', 'http://localhost:3000'];
      const created = await postKey(t, admin, { scopes: ['properties:read'], allowedOrigins: origins });
      expect((await keyRow(t, admin, created.id)).allowedOrigins).toEqual(origins);
    });

    it.each([
      ['a path', 'https://www.agency.example/listings'],
      ['a wildcard', 'https://*.agency.example'],
      ['plain http off localhost', 'http://www.agency.example'],
      ['no scheme', 'www.agency.example'],
      ['another scheme', 'ftp://agency.example'],
      ['a query', 'https://agency.example?x=1'],
    ])('refuses an origin with %s with 400 VALIDATION_FAILED', async (_label, origin) => {
      const admin = await t.seed.organization();
      expectValidation(
        await post(admin, { name: 'x', scopes: ['properties:read'], allowedOrigins: [origin] }),
      );
    });

    it('takes up to 20 origins and refuses 21', async () => {
      const admin = await t.seed.organization();
      const origins = (n: number) => Array.from({ length: n }, (_, i) => `https://site${i}.agency.example`);
      expectValidation(
        await post(admin, { name: 'x', scopes: ['properties:read'], allowedOrigins: origins(21) }),
      );
      await post(admin, { name: 'x', scopes: ['properties:read'], allowedOrigins: origins(20) }).expect(201);
    });

    it.each([
      'crm:read',
      'crm:write',
      'brochures:read',
      'brochures:write',
      'documents:read',
      'documents:write',
    ])('refuses websites on a key with the server scope %s (POST)', async (scope) => {
      const admin = await t.seed.organization();
      const res = await post(admin, {
        name: 'x',
        scopes: ['properties:read', scope],
        allowedOrigins: ['https://www.agency.example'],
      });
      expectError(res, 400, 'API_KEY_ORIGINS_NOT_ALLOWED_FOR_SERVER_SCOPES');
    });

    it('refuses websites on a server-scope key and a server scope on a key with websites (PATCH)', async () => {
      const admin = await t.seed.organization();
      const server = await t.seed.apiKey(admin, { scopes: ['crm:read'] });
      expectError(
        await patch(admin, server.id, { allowedOrigins: ['https://www.agency.example'] }),
        400,
        'API_KEY_ORIGINS_NOT_ALLOWED_FOR_SERVER_SCOPES',
      );
      const web = await t.seed.apiKey(admin, {
        scopes: ['properties:read'],
        allowedOrigins: ['https://www.agency.example'],
      });
      expectError(
        await patch(admin, web.id, { scopes: ['properties:read', 'documents:read'] }),
        400,
        'API_KEY_ORIGINS_NOT_ALLOWED_FOR_SERVER_SCOPES',
      );
      expect((await keyRow(t, admin, web.id)).scopes).toEqual(['properties:read']);
      expect((await keyRow(t, admin, server.id)).allowedOrigins).toEqual([]);
    });

    it('lets the owner swap the websites and remove them all with []', async () => {
      const admin = await t.seed.organization();
      const member = await t.seed.member(admin);
      const web = await t.seed.apiKey(member, {
        scopes: ['properties:read'],
        allowedOrigins: ['https://a.agency.example'],
      });
      const swapped = await patch(member, web.id, { allowedOrigins: ['https://b.agency.example'] }).expect(
        200,
      );
      expect(swapped.body.allowedOrigins).toEqual(['https://b.agency.example']);
      const cleared = await patch(member, web.id, { allowedOrigins: [] }).expect(200);
      expect(cleared.body.allowedOrigins).toEqual([]);
    });

    it('refuses 21 origins and malformed ones on PATCH', async () => {
      const admin = await t.seed.organization();
      const web = await t.seed.apiKey(admin, { scopes: ['properties:read'] });
      const origins = Array.from({ length: 21 }, (_, i) => `https://site${i}.agency.example`);
      expectValidation(await patch(admin, web.id, { allowedOrigins: origins }));
      expectValidation(await patch(admin, web.id, { allowedOrigins: ['https://agency.example/x'] }));
    });
  });

  describe('limits', () => {
    const makeKeys = async (owner: SignedIn, n: number) => {
      const keys = [];
      for (let i = 0; i < n; i += 1) keys.push(await t.seed.apiKey(owner, { name: `Key ${i}` }));
      return keys;
    };

    it('allows 10 active keys per person; the 11th is 409 API_KEY_LIMIT_REACHED', async () => {
      const admin = await t.seed.organization();
      const member = await t.seed.member(admin);
      await makeKeys(member, 10);
      expectError(await post(member, { name: 'Eleventh' }), 409, 'API_KEY_LIMIT_REACHED');
      // the limit is per person: a colleague still creates
      await post(admin, { name: 'Admin key' }).expect(201);
    });

    it('does not count revoked, rotated-away, expired or service-set keys', async () => {
      const admin = await t.seed.organization();
      const keys = await makeKeys(admin, 9);
      const expiring = await t.seed.apiKey(admin, { expiresInDays: 1 });
      expectError(await post(admin, { name: 'x' }), 409, 'API_KEY_LIMIT_REACHED');

      await revoke(admin, keys[0].id).expect(200);
      await post(admin, { name: 'After revoke' }).expect(201);
      expectError(await post(admin, { name: 'x' }), 409, 'API_KEY_LIMIT_REACHED');

      // rotation replaces a key: still 10 active
      await rotate(admin, keys[1].id).expect(201);
      expectError(await post(admin, { name: 'x' }), 409, 'API_KEY_LIMIT_REACHED');

      await advanceClock(t, DAY + 1000, admin);
      expect((await keyRow(t, admin, expiring.id)).status).toBe('expired');
      await post(admin, { name: 'After expiry' }).expect(201);
      expectError(await post(admin, { name: 'x' }), 409, 'API_KEY_LIMIT_REACHED');

      await sql(t, 'update api_keys set system = true where id = ?', [keys[2].id]);
      await post(admin, { name: 'After system' }).expect(201);
    });

    it('allows 50 active keys per organization; the 51st is 409 API_KEY_LIMIT_REACHED', async () => {
      const admin = await t.seed.organization();
      const people = [admin];
      for (let i = 0; i < 4; i += 1) people.push(await t.seed.member(admin));
      for (const person of people) await makeKeys(person, 10);
      const newcomer = await t.seed.member(admin);
      expectError(await post(newcomer, { name: 'Fifty-first' }), 409, 'API_KEY_LIMIT_REACHED');

      const all = (await list(admin).expect(200)).body;
      expect(all).toHaveLength(50);
      await revoke(admin, all[0].id).expect(200);
      await post(newcomer, { name: 'Fiftieth again' }).expect(201);
      expectError(await post(newcomer, { name: 'x' }), 409, 'API_KEY_LIMIT_REACHED');
    });

    it('lets only one of several simultaneous creates take the last place', async () => {
      const admin = await t.seed.organization();
      await makeKeys(admin, 9);
      const answers = await Promise.all(
        Array.from({ length: 4 }, (_, i) => post(admin, { name: `Race ${i}` })),
      );
      expect(answers.map((res) => res.status).sort()).toEqual([201, 409, 409, 409]);
      for (const res of answers.filter((r) => r.status === 409))
        expectError(res, 409, 'API_KEY_LIMIT_REACHED');
      expect((await list(admin).expect(200)).body).toHaveLength(10);
    });

    it('counts per organization: another agency is not limited by this one', async () => {
      const admin = await t.seed.organization();
      await makeKeys(admin, 10);
      const other = await t.seed.organization();
      await post(other, { name: 'Elsewhere' }).expect(201);
    });
  });

  describe('GET /api-keys', () => {
    it('lists every key of the organization with every status, to members too', async () => {
      const admin = await t.seed.organization();
      const member = await t.seed.member(admin);
      const active = await t.seed.apiKey(admin, { name: 'Active' });
      const revoked = await t.seed.apiKey(admin, { name: 'Revoked' });
      const rotatedAway = await t.seed.apiKey(member, { name: 'Rotated' });
      const expired = await t.seed.apiKey(member, { name: 'Expired', expiresInDays: 1 });
      await revoke(admin, revoked.id).expect(200);
      const successor = (await rotate(member, rotatedAway.id).expect(201)).body;
      await advanceClock(t, DAY + 1000, admin, member);

      for (const viewer of [admin, member]) {
        const rows: Record<string, unknown>[] = (await list(viewer).expect(200)).body;
        const statusOf = Object.fromEntries(rows.map((r) => [r.id, r.status]));
        expect(statusOf).toEqual({
          [active.id]: 'active',
          [revoked.id]: 'revoked',
          [rotatedAway.id]: 'rotated',
          [successor.id]: 'active',
          [expired.id]: 'expired',
        });
        const ownerStateOf = Object.fromEntries(rows.map((r) => [r.id, r.ownerState]));
        expect(ownerStateOf).toEqual({
          [active.id]: 'member',
          [revoked.id]: 'unknown',
          [rotatedAway.id]: 'unknown',
          [successor.id]: 'member',
          [expired.id]: 'unknown',
        });
      }
    });

    it('shapes each row as the API key resource', async () => {
      const admin = await t.seed.organization();
      const now = new Date('2026-11-20T10:00:00.000Z');
      t.clock.set(now);
      const created = await t.seed.apiKey(admin, { name: 'Sync', scopes: ['crm:read'], expiresInDays: 30 });
      expect(await keyRow(t, admin, created.id)).toEqual({
        id: created.id,
        name: 'Sync',
        status: 'active',
        prefixHint: created.prefixHint,
        legacy: false,
        system: false,
        scopes: ['crm:read'],
        allowedOrigins: [],
        rateLimitPerMinute: null,
        createdById: admin.userId,
        mine: true,
        ownerState: 'member',
        createdAt: now.toISOString(),
        lastUsedAt: null,
        lastUsedIp: null,
        lastUsedUserAgent: null,
        usageCount: 0,
        expiresAt: new Date(now.getTime() + 30 * DAY).toISOString(),
        rotatedFromId: null,
        graceUntil: null,
      });
    });

    it('says mine only on the caller’s own keys', async () => {
      const admin = await t.seed.organization();
      const member = await t.seed.member(admin);
      const adminKey = await t.seed.apiKey(admin);
      const memberKey = await t.seed.apiKey(member);
      expect((await keyRow(t, member, memberKey.id)).mine).toBe(true);
      expect((await keyRow(t, member, adminKey.id)).mine).toBe(false);
      expect((await keyRow(t, admin, memberKey.id)).mine).toBe(false);
    });

    it('marks older keys and flagged keys legacy', async () => {
      const admin = await t.seed.organization();
      const older = await t.seed.apiKey(admin, { name: 'Older' });
      const flagged = await t.seed.apiKey(admin, { name: 'Flagged' });
      const fresh = await t.seed.apiKey(admin, { name: 'Fresh' });
      await sql(
        t,
        `update api_keys set lineage_created_at = '2026-10-03T23:59:59Z', prefix_hint = null where id = ?`,
        [older.id],
      );
      await sql(t, 'update api_keys set legacy = true where id = ?', [flagged.id]);
      await sql(t, `update api_keys set lineage_created_at = '2026-10-04T00:00:00Z' where id = ?`, [
        fresh.id,
      ]);
      expect(await keyRow(t, admin, older.id)).toMatchObject({ legacy: true, prefixHint: null });
      expect((await keyRow(t, admin, flagged.id)).legacy).toBe(true);
      expect((await keyRow(t, admin, fresh.id)).legacy).toBe(false);
    });

    it('gives ownerState member, left after the owner leaves, unknown for dead or ownerless keys', async () => {
      const admin = await t.seed.organization();
      const member = await t.seed.member(admin);
      const staying = await t.seed.apiKey(admin);
      const leaving = await t.seed.apiKey(member);
      const revoked = await t.seed.apiKey(admin);
      const ownerless = await t.seed.apiKey(admin);
      await revoke(admin, revoked.id).expect(200);
      await sql(t, 'update api_keys set created_by_id = null where id = ?', [ownerless.id]);
      expect((await keyRow(t, admin, leaving.id)).ownerState).toBe('member');

      await asSession(t.http.delete(`/organization/members/${member.userId}`), admin).expect(204);
      expect((await keyRow(t, admin, staying.id)).ownerState).toBe('member');
      expect((await keyRow(t, admin, leaving.id)).ownerState).toBe('left');
      expect((await keyRow(t, admin, revoked.id)).ownerState).toBe('unknown');
      expect((await keyRow(t, admin, ownerless.id)).ownerState).toBe('unknown');
    });

    it('reports usage after the recorder writes it; a member sees ip and user agent only on their own keys', async () => {
      const admin = await t.seed.organization();
      const member = await t.seed.member(admin);
      const colleague = await t.seed.member(admin);
      const memberKey = await t.seed.apiKey(member);
      const colleagueKey = await t.seed.apiKey(colleague);
      const usedAt = new Date('2026-11-20T12:00:00.000Z');
      t.clock.set(usedAt);
      for (const secret of [memberKey.key, memberKey.key, colleagueKey.key]) {
        await me(secret).set('User-Agent', 'estate-sync/1.0').expect(200);
      }
      expect((await keyRow(t, member, memberKey.id)).usageCount).toBe(0);
      await t.get(KeyUsageRecorder).flush();

      const used = {
        lastUsedAt: usedAt.toISOString(),
        lastUsedIp: expect.stringMatching(/\S/),
        lastUsedUserAgent: 'estate-sync/1.0',
      };
      expect(await keyRow(t, member, memberKey.id)).toMatchObject({ ...used, usageCount: 2 });
      expect(await keyRow(t, admin, memberKey.id)).toMatchObject({ ...used, usageCount: 2 });
      expect(await keyRow(t, colleague, colleagueKey.id)).toMatchObject({ ...used, usageCount: 1 });
      expect(await keyRow(t, member, colleagueKey.id)).toMatchObject({
        lastUsedAt: usedAt.toISOString(),
        lastUsedIp: null,
        lastUsedUserAgent: null,
        usageCount: 1,
      });
    });

    it('never lists another organization’s keys', async () => {
      const admin = await t.seed.organization();
      const other = await t.seed.organization();
      const mine = await t.seed.apiKey(admin);
      await t.seed.apiKey(other);
      const rows: { id: string }[] = (await list(admin).expect(200)).body;
      expect(rows.map((r) => r.id)).toEqual([mine.id]);
    });
  });

  describe('PATCH /api-keys/:id', () => {
    it('renames, narrows, sets and removes the expiry, answering the row', async () => {
      const admin = await t.seed.organization();
      const now = new Date('2026-11-20T10:00:00.000Z');
      t.clock.set(now);
      const created = await t.seed.apiKey(admin, { scopes: ['crm:read', 'crm:write'] });
      const expiresAt = new Date(now.getTime() + 10 * DAY).toISOString();
      const res = await patch(admin, created.id, { name: 'Renamed', scopes: ['crm:read'], expiresAt }).expect(
        200,
      );
      expect(res.body).toMatchObject({
        id: created.id,
        name: 'Renamed',
        scopes: ['crm:read'],
        expiresAt,
        status: 'active',
      });
      expect(await keyRow(t, admin, created.id)).toMatchObject({
        name: 'Renamed',
        scopes: ['crm:read'],
        expiresAt,
      });

      const cleared = await patch(admin, created.id, { expiresAt: null }).expect(200);
      expect(cleared.body.expiresAt).toBeNull();
    });

    it('accepts an expiry exactly 3650 days ahead and refuses past, present, later or malformed ones', async () => {
      const admin = await t.seed.organization();
      const now = new Date('2026-11-20T10:00:00.000Z');
      t.clock.set(now);
      const created = await t.seed.apiKey(admin);
      const at = (ms: number) => new Date(now.getTime() + ms).toISOString();
      for (const expiresAt of [
        at(-DAY),
        at(0),
        at(3650 * DAY + 1000),
        at(3651 * DAY),
        'next week',
        '2027-13-01',
      ]) {
        expectValidation(await patch(admin, created.id, { expiresAt }));
      }
      expect((await keyRow(t, admin, created.id)).expiresAt).toBeNull();
      await patch(admin, created.id, { expiresAt: at(3650 * DAY) }).expect(200);
    });

    it('refuses a body with none of the fields, an empty scope set and repeated scopes', async () => {
      const admin = await t.seed.organization();
      const created = await t.seed.apiKey(admin, { scopes: ['crm:read'] });
      expectValidation(await patch(admin, created.id, {}));
      expectValidation(await patch(admin, created.id, { scopes: [] }));
      expectValidation(await patch(admin, created.id, { scopes: ['crm:read', 'crm:read'] }));
      expectValidation(await patch(admin, created.id, { scopes: ['crm:everything'] }));
      expectValidation(await patch(admin, created.id, { name: '' }));
      expectValidation(await patch(admin, created.id, { name: 'n'.repeat(256) }));
    });

    it('refuses adding the reserved agents:read with 400 API_KEY_SCOPE_RESERVED', async () => {
      const admin = await t.seed.organization();
      const created = await t.seed.apiKey(admin, { scopes: ['crm:read'] });
      expectError(
        await patch(admin, created.id, { scopes: ['crm:read', 'agents:read'] }),
        400,
        'API_KEY_SCOPE_RESERVED',
      );
      expect((await keyRow(t, admin, created.id)).scopes).toEqual(['crm:read']);
    });

    it('keeps agents:read on a key that had it when its scopes change', async () => {
      const admin = await t.seed.organization();
      const created = await t.seed.apiKey(admin);
      const res = await patch(admin, created.id, { scopes: ['properties:read'] }).expect(200);
      expect(res.body.scopes).toEqual(['properties:read', 'agents:read']);
    });

    it('lets a member widen their own key within their role, not beyond it', async () => {
      const admin = await t.seed.organization();
      const member = await t.seed.member(admin);
      const created = await t.seed.apiKey(member, { scopes: ['crm:read'] });
      const res = await patch(member, created.id, {
        scopes: ['crm:read', 'crm:write', 'documents:read'],
      }).expect(200);
      expect(res.body.scopes).toEqual(['crm:read', 'crm:write', 'documents:read']);
      expectError(
        await patch(member, created.id, { scopes: ['crm:read', 'properties:write'] }),
        403,
        'API_KEY_SCOPE_NOT_GRANTABLE',
      );
      expectError(
        await patch(member, created.id, { scopes: ['media:write'] }),
        403,
        'API_KEY_SCOPE_NOT_GRANTABLE',
      );
    });

    it('lets an admin narrow, rename, change expiry and add websites on a member’s key', async () => {
      const admin = await t.seed.organization();
      const member = await t.seed.member(admin);
      const created = await t.seed.apiKey(member, { scopes: ['properties:read', 'sources:read'] });
      const expiresAt = new Date(t.clock.now().getTime() + 7 * DAY).toISOString();
      const res = await patch(admin, created.id, {
        name: 'Tidied by admin',
        scopes: ['properties:read'],
        expiresAt,
        allowedOrigins: ['https://www.agency.example'],
      }).expect(200);
      expect(res.body).toMatchObject({
        name: 'Tidied by admin',
        scopes: ['properties:read'],
        expiresAt,
        allowedOrigins: ['https://www.agency.example'],
        createdById: member.userId,
        mine: false,
      });
    });

    it('refuses an admin widening a member’s key with 403 API_KEY_NOT_YOURS', async () => {
      const admin = await t.seed.organization();
      const member = await t.seed.member(admin);
      const created = await t.seed.apiKey(member, { scopes: ['crm:read'] });
      expectError(
        await patch(admin, created.id, { scopes: ['crm:read', 'crm:write'] }),
        403,
        'API_KEY_NOT_YOURS',
      );
      expectError(await patch(admin, created.id, { scopes: ['crm:write'] }), 403, 'API_KEY_NOT_YOURS');
      expect((await keyRow(t, admin, created.id)).scopes).toEqual(['crm:read']);
    });

    it('lets only the owner remove all websites (others: 403 API_KEY_NOT_YOURS)', async () => {
      const admin = await t.seed.organization();
      const member = await t.seed.member(admin);
      const created = await t.seed.apiKey(member, {
        scopes: ['properties:read'],
        allowedOrigins: ['https://a.agency.example', 'https://b.agency.example'],
      });
      expectError(await patch(admin, created.id, { allowedOrigins: [] }), 403, 'API_KEY_NOT_YOURS');
      // an admin may still change the websites while some remain
      await patch(admin, created.id, { allowedOrigins: ['https://a.agency.example'] }).expect(200);
      await patch(member, created.id, { allowedOrigins: [] }).expect(200);
    });

    it('refuses a member editing a colleague’s key with 403 API_KEY_NOT_YOURS', async () => {
      const admin = await t.seed.organization();
      const member = await t.seed.member(admin);
      const colleague = await t.seed.member(admin);
      const colleagueKey = await t.seed.apiKey(colleague, { scopes: ['crm:read', 'crm:write'] });
      const adminKey = await t.seed.apiKey(admin, { scopes: ['crm:read'] });
      for (const id of [colleagueKey.id, adminKey.id]) {
        expectError(await patch(member, id, { name: 'Mine now' }), 403, 'API_KEY_NOT_YOURS');
      }
      expectError(await patch(member, colleagueKey.id, { scopes: ['crm:read'] }), 403, 'API_KEY_NOT_YOURS');
      expect((await keyRow(t, admin, colleagueKey.id)).name).toBe('Integration');
    });

    it('refuses edits of revoked, rotated and expired keys with 409 API_KEY_NOT_ACTIVE', async () => {
      const admin = await t.seed.organization();
      const revoked = await t.seed.apiKey(admin);
      const rotated = await t.seed.apiKey(admin);
      const expiring = await t.seed.apiKey(admin, { expiresInDays: 1 });
      await revoke(admin, revoked.id).expect(200);
      await rotate(admin, rotated.id).expect(201);
      for (const id of [revoked.id, rotated.id]) {
        expectError(await patch(admin, id, { name: 'x' }), 409, 'API_KEY_NOT_ACTIVE');
      }
      await advanceClock(t, DAY, admin);
      expectError(await patch(admin, expiring.id, { expiresAt: null }), 409, 'API_KEY_NOT_ACTIVE');
    });

    it('refuses changes to a service-set key with 403 FORBIDDEN', async () => {
      const admin = await t.seed.organization();
      const created = await t.seed.apiKey(admin);
      await sql(t, 'update api_keys set system = true where id = ?', [created.id]);
      expect((await keyRow(t, admin, created.id)).system).toBe(true);
      expectError(await patch(admin, created.id, { name: 'x' }), 403, 'FORBIDDEN');
    });

    it('answers 404 for another organization’s key and 400 for an id that is no uuid', async () => {
      const admin = await t.seed.organization();
      const other = await t.seed.organization();
      const theirs = await t.seed.apiKey(other, { scopes: ['crm:read'] });
      expectError(await patch(admin, theirs.id, { name: 'Stolen' }), 404, 'NOT_FOUND');
      expectError(
        await patch(admin, '0190aaaa-0000-7000-8000-000000000000', { name: 'x' }),
        404,
        'NOT_FOUND',
      );
      expectValidation(await patch(admin, 'not-a-uuid', { name: 'x' }));
      expect((await keyRow(t, other, theirs.id)).name).toBe('Integration');
    });

    it('takes a narrowed scope away on the key’s next call', async () => {
      const admin = await t.seed.organization();
      const member = await t.seed.member(admin);
      const created = await t.seed.apiKey(member, { scopes: ['crm:read', 'properties:read'] });
      await asKey(t.http.get('/v1/tags'), created.key).expect(200);
      await patch(admin, created.id, { scopes: ['properties:read'] }).expect(200);
      expectError(await asKey(t.http.get('/v1/tags'), created.key), 403, 'API_KEY_SCOPE_MISSING', {
        missing: ['crm:read'],
      });
    });

    it('makes a key stop at once when its new expiry has passed', async () => {
      const admin = await t.seed.organization();
      const created = await t.seed.apiKey(admin);
      await me(created.key).expect(200);
      const expiresAt = new Date(t.clock.now().getTime() + HOUR).toISOString();
      await patch(admin, created.id, { expiresAt }).expect(200);
      t.clock.advance(HOUR);
      expectUnauthenticated(await me(created.key));
    });
  });

  describe('POST /api-keys/:id/rotate', () => {
    it('answers 201 {id, key, prefixHint, rotatedFromId, previousKeyValidUntil} 24 hours ahead', async () => {
      const admin = await t.seed.organization();
      const created = await t.seed.apiKey(admin);
      const now = new Date('2026-11-20T10:00:00.000Z');
      t.clock.set(now);
      const res = await rotate(admin, created.id);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        key: expect.stringMatching(KEY_FORMAT),
        prefixHint: res.body.key.slice(0, 12),
        rotatedFromId: created.id,
        previousKeyValidUntil: new Date(now.getTime() + 24 * HOUR).toISOString(),
      });
      expect(res.body.key).not.toBe(created.key);
      expect(res.body.id).not.toBe(created.id);
      expect(JSON.stringify((await list(admin)).body)).not.toContain(res.body.key);
      expect(await keyRow(t, admin, created.id)).toMatchObject({
        status: 'rotated',
        graceUntil: res.body.previousKeyValidUntil,
        ownerState: 'unknown',
      });
    });

    it('keeps the old key working for 24 hours, then answers 401', async () => {
      const admin = await t.seed.organization();
      const created = await t.seed.apiKey(admin);
      await me(created.key).expect(200);
      const rotated = (await rotate(admin, created.id).expect(201)).body;
      await me(created.key).expect(200);
      await me(rotated.key).expect(200);
      t.clock.advance(24 * HOUR - 1000);
      expect((await me(created.key).expect(200)).body.key.id).toBe(created.id);
      t.clock.advance(1000);
      expectUnauthenticated(await me(created.key));
      await me(rotated.key).expect(200);
    });

    it('gives the new key the same name, scopes, websites, rate limit, expiry and owner', async () => {
      const admin = await t.seed.organization();
      const member = await t.seed.member(admin);
      const created = await t.seed.apiKey(member, {
        name: 'Web widget',
        scopes: ['properties:read', 'sources:read'],
        allowedOrigins: ['https://www.agency.example'],
        expiresInDays: 30,
      });
      await t.get(ApiKeyMaintenanceService).setRateLimit(created.id, 300);
      const before = await keyRow(t, admin, created.id);
      t.clock.advance(HOUR);
      const rotated = (await rotate(admin, created.id).expect(201)).body;
      const after = await keyRow(t, admin, rotated.id);
      const kept = [
        'name',
        'scopes',
        'allowedOrigins',
        'rateLimitPerMinute',
        'expiresAt',
        'createdById',
      ] as const;
      for (const field of kept) expect([field, after[field]]).toEqual([field, before[field]]);
      expect(after).toMatchObject({
        status: 'active',
        rateLimitPerMinute: 300,
        createdById: member.userId,
        rotatedFromId: created.id,
        legacy: false,
        usageCount: 0,
      });
    });

    it('makes the rotating admin the owner of a key that had none', async () => {
      const admin = await t.seed.organization();
      const created = await t.seed.apiKey(admin, { scopes: ['crm:read'] });
      await sql(t, 'update api_keys set created_by_id = null where id = ?', [created.id]);
      expectError(await me(created.key), 403, 'API_KEY_HAS_NO_OWNER');
      const other = await t.seed.member(admin, 'admin', 'Olga');
      const rotated = (await rotate(other, created.id).expect(201)).body;
      expect(await keyRow(t, other, rotated.id)).toMatchObject({ createdById: other.userId, mine: true });
      expect((await me(rotated.key).expect(200)).body.user.id).toBe(other.userId);
      expectError(await me(created.key), 403, 'API_KEY_HAS_NO_OWNER');
    });

    it('refuses a second rotation with 409 API_KEY_ALREADY_ROTATED', async () => {
      const admin = await t.seed.organization();
      const created = await t.seed.apiKey(admin);
      await rotate(admin, created.id).expect(201);
      expectError(await rotate(admin, created.id), 409, 'API_KEY_ALREADY_ROTATED');
      await advanceClock(t, 25 * HOUR, admin);
      expectError(await rotate(admin, created.id), 409, 'API_KEY_ALREADY_ROTATED');
    });

    it('refuses rotating a revoked or expired key with 409 API_KEY_NOT_ACTIVE', async () => {
      const admin = await t.seed.organization();
      const revoked = await t.seed.apiKey(admin);
      const expiring = await t.seed.apiKey(admin, { expiresInDays: 1 });
      await revoke(admin, revoked.id).expect(200);
      expectError(await rotate(admin, revoked.id), 409, 'API_KEY_NOT_ACTIVE');
      await advanceClock(t, DAY, admin);
      expectError(await rotate(admin, expiring.id), 409, 'API_KEY_NOT_ACTIVE');
    });

    it('keeps an older key older: the new key is still refused on /v1 with API_KEY_LEGACY', async () => {
      const admin = await t.seed.organization();
      const created = await t.seed.apiKey(admin);
      await makeOlder(t, created.id);
      expectError(await me(created.key), 403, 'API_KEY_LEGACY');
      const rotated = (await rotate(admin, created.id).expect(201)).body;
      expect((await keyRow(t, admin, rotated.id)).legacy).toBe(true);
      expectError(await me(rotated.key), 403, 'API_KEY_LEGACY');
    });

    it('lets a member rotate their own key, not a colleague’s (403 API_KEY_NOT_YOURS)', async () => {
      const admin = await t.seed.organization();
      const member = await t.seed.member(admin);
      const colleague = await t.seed.member(admin);
      const own = await t.seed.apiKey(member);
      const theirs = await t.seed.apiKey(colleague);
      await rotate(member, own.id).expect(201);
      expectError(await rotate(member, theirs.id), 403, 'API_KEY_NOT_YOURS');
      expect((await keyRow(t, admin, theirs.id)).status).toBe('active');
    });

    it('lets an admin rotate a member’s key, keeping the member as owner', async () => {
      const admin = await t.seed.organization();
      const member = await t.seed.member(admin);
      const own = await t.seed.apiKey(member);
      const rotated = (await rotate(admin, own.id).expect(201)).body;
      expect((await keyRow(t, member, rotated.id)).createdById).toBe(member.userId);
      expect((await me(rotated.key).expect(200)).body.user.id).toBe(member.userId);
    });

    it('refuses rotating a service-set key (403 FORBIDDEN), another agency’s key (404) and a non-uuid (400)', async () => {
      const admin = await t.seed.organization();
      const system = await t.seed.apiKey(admin);
      await sql(t, 'update api_keys set system = true where id = ?', [system.id]);
      expectError(await rotate(admin, system.id), 403, 'FORBIDDEN');
      const other = await t.seed.organization();
      const theirs = await t.seed.apiKey(other);
      expectError(await rotate(admin, theirs.id), 404, 'NOT_FOUND');
      expectValidation(await rotate(admin, 'nope'));
      expect((await keyRow(t, other, theirs.id)).status).toBe('active');
    });
  });

  describe('DELETE /api-keys/:id', () => {
    it('revokes at once and for good: 200 {success: true}, then 401 on /v1', async () => {
      const admin = await t.seed.organization();
      const created = await t.seed.apiKey(admin);
      await me(created.key).expect(200); // the door has the key cached now
      const res = await revoke(admin, created.id);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });
      expectUnauthenticated(await me(created.key));
      expect((await keyRow(t, admin, created.id)).status).toBe('revoked');
      expectError(await patch(admin, created.id, { name: 'back' }), 409, 'API_KEY_NOT_ACTIVE');
    });

    it('answers 200 again for a key already revoked, changing nothing', async () => {
      const admin = await t.seed.organization();
      const created = await t.seed.apiKey(admin);
      await revoke(admin, created.id).expect(200);
      const res = await revoke(admin, created.id).expect(200);
      expect(res.body).toEqual({ success: true });
      expect((await keyRow(t, admin, created.id)).status).toBe('revoked');
    });

    it('lets an admin revoke a member’s key', async () => {
      const admin = await t.seed.organization();
      const member = await t.seed.member(admin);
      const created = await t.seed.apiKey(member);
      await me(created.key).expect(200);
      await revoke(admin, created.id).expect(200);
      expectUnauthenticated(await me(created.key));
    });

    it('lets a member revoke their own key but not a colleague’s (403 API_KEY_NOT_YOURS)', async () => {
      const admin = await t.seed.organization();
      const member = await t.seed.member(admin);
      const own = await t.seed.apiKey(member);
      const adminKey = await t.seed.apiKey(admin);
      expectError(await revoke(member, adminKey.id), 403, 'API_KEY_NOT_YOURS');
      await me(adminKey.key).expect(200);
      await revoke(member, own.id).expect(200);
      expectUnauthenticated(await me(own.key));
    });

    it('kills an old key inside its rotation grace', async () => {
      const admin = await t.seed.organization();
      const created = await t.seed.apiKey(admin);
      const rotated = (await rotate(admin, created.id).expect(201)).body;
      await me(created.key).expect(200);
      await revoke(admin, created.id).expect(200);
      expectUnauthenticated(await me(created.key));
      await me(rotated.key).expect(200);
    });

    it('refuses revoking a service-set key, even for an admin (403 FORBIDDEN)', async () => {
      const admin = await t.seed.organization();
      const created = await t.seed.apiKey(admin);
      await sql(t, 'update api_keys set system = true where id = ?', [created.id]);
      expectError(await revoke(admin, created.id), 403, 'FORBIDDEN');
      expect((await keyRow(t, admin, created.id)).status).toBe('active');
    });

    it('answers 404 for another agency’s key and 400 for a non-uuid id', async () => {
      const admin = await t.seed.organization();
      const other = await t.seed.organization();
      const theirs = await t.seed.apiKey(other);
      expectError(await revoke(admin, theirs.id), 404, 'NOT_FOUND');
      expectValidation(await revoke(admin, '12345'));
      await me(theirs.key).expect(200);
    });
  });
});
