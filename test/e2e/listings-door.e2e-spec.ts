import type { Response } from 'supertest';
import {
  api,
  asKey,
  asSession,
  expectError,
  expectUnauthenticated,
  makeOlder,
  MINUTE,
  SignedIn,
  sql,
  TestApp,
  codeOf,
} from '../fixtures';

/**
 * The listing families' door (INTERFACES.md "Listings"): API keys only, the legacy error shape on
 * every error of `/properties*` and `/property-sources*`, origin checks instead of rule 3, and
 * rule 6's agency keys. `/v1` keeps its rules and its envelope.
 */

const READ = ['properties:read'];
const THEMES = '/properties/themes';
const SITE = 'https://www.agency.example';

/** `{statusCode, code, message, missingScopes, requiredScopes}` and nothing else, with the request id header. */
function expectLegacy(
  res: Response,
  status: number,
  code: string,
  scopes: { requiredScopes?: string[]; missingScopes?: string[] } = {},
): void {
  expect({ status: res.status, code: codeOf(res) }).toEqual({ status, code });
  expect(res.body).toEqual({
    statusCode: status,
    code,
    message: expect.any(String),
    missingScopes: scopes.missingScopes ?? [],
    requiredScopes: scopes.requiredScopes ?? expect.any(Array),
  });
  expect(res.headers['x-request-id']).toEqual(expect.any(String));
  expect(res.headers['content-type']).toMatch(/^application\/json/);
}

function expectLegacyUnauthenticated(res: Response, requiredScopes = READ): void {
  expectLegacy(res, 401, 'UNAUTHENTICATED', { requiredScopes });
  expect(res.headers['www-authenticate']).toMatch(/^Bearer realm="?[^"]+"?$/);
}

describe('the listing families: door and legacy error shape', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.stop());
  beforeEach(() => t.resetRows());

  const themes = (secret: string) => asKey(t.http.get(THEMES), secret);
  const removeMember = (admin: SignedIn, person: SignedIn) =>
    asSession(t.http.delete(`/organization/members/${person.userId}`), admin).expect(204);
  const revoke = (admin: SignedIn, keyId: string) =>
    asSession(t.http.delete(`/api-keys/${keyId}`), admin).expect(200);

  describe('API keys only', () => {
    it('answers 401 in the legacy shape with WWW-Authenticate when no credential is sent', async () => {
      expectLegacyUnauthenticated(await t.http.get(THEMES));
      expectLegacyUnauthenticated(await t.http.get('/properties/features'));
    });

    it('answers 401 to a session token, an integration key, a malformed and an unknown key', async () => {
      const admin = await t.seed.organization();
      const integration = await t.seed.integrationKey(admin, 'idealista');
      expectLegacyUnauthenticated(await asSession(t.http.get(THEMES), admin));
      expectLegacyUnauthenticated(await themes(integration.key));
      expectLegacyUnauthenticated(await themes('svc_pk_short'));
      expectLegacyUnauthenticated(await themes(`svc_pk_${'A'.repeat(32)}`));
    });

    it("opens the route to an admin's and a member's key holding the scope", async () => {
      const admin = await t.seed.organization();
      const member = await t.seed.member(admin);
      for (const owner of [admin, member]) {
        const key = await t.seed.apiKey(owner, READ);
        const res = await themes(key.key).expect(200);
        expect(res.body.data).toHaveLength(6);
      }
    });

    it('takes the key in every accepted header', async () => {
      const admin = await t.seed.organization();
      const key = await t.seed.apiKey(admin, READ);
      await t.http.get(THEMES).set('X-API-Key', key.key).expect(200);
      await t.http.get(THEMES).set('Authorization', `ApiKey ${key.key}`).expect(200);
    });
  });

  describe('the legacy shape on every error kind', () => {
    it('403 API_KEY_SCOPE_MISSING names the missing and the required scopes', async () => {
      const admin = await t.seed.organization();
      const sources = await t.seed.apiKey(admin, ['sources:read']);
      const res = await themes(sources.key);
      expectLegacy(res, 403, 'API_KEY_SCOPE_MISSING', {
        missingScopes: ['properties:read'],
        requiredScopes: ['properties:read'],
      });
    });

    it('404 NOT_FOUND for an unknown sub-path, with or without a key', async () => {
      const admin = await t.seed.organization();
      const key = await t.seed.apiKey(admin, READ);
      for (const res of [
        await api(t, key.key).get('/properties/nope/x'),
        await t.http.get('/properties/nope/x'),
        await api(t, key.key).get('/property-sources/nope/x/y'),
        await api(t, key.key).delete('/properties'),
      ]) {
        expectLegacy(res, 404, 'NOT_FOUND', { requiredScopes: [] });
      }
    });

    it("400 BAD_REQUEST for a body that is not JSON, naming the route's scopes though no route ran", async () => {
      const admin = await t.seed.organization();
      const key = await t.seed.apiKey(admin, READ);
      const onRoute = await themes(key.key).set('Content-Type', 'application/json').send('{"title": ');
      expectLegacy(onRoute, 400, 'BAD_REQUEST', { requiredScopes: READ });
      const unknown = await api(t, key.key)
        .post('/properties/nope')
        .set('Content-Type', 'application/json')
        .send('{not json');
      expectLegacy(unknown, 400, 'BAD_REQUEST', { requiredScopes: [] });
    });

    it('400 BAD_REQUEST for a body sent to a route that takes none', async () => {
      const admin = await t.seed.organization();
      const key = await t.seed.apiKey(admin, READ);
      expectLegacy(await themes(key.key).send({ anything: 1 }), 400, 'BAD_REQUEST', {
        requiredScopes: READ,
      });
    });

    it('413 PAYLOAD_TOO_LARGE for a body over 5 MB', async () => {
      const admin = await t.seed.organization();
      const key = await t.seed.apiKey(admin, READ);
      const res = await api(t, key.key)
        .post('/properties/nope')
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ text: 'x'.repeat(5 * 1024 * 1024 + 10) }));
      expectLegacy(res, 413, 'PAYLOAD_TOO_LARGE', { requiredScopes: [] });
    });

    it('429 RATE_LIMITED keeps Retry-After and the rate-limit headers', async () => {
      const admin = await t.seed.organization();
      const key = await t.seed.apiKey(admin, READ);
      await sql(t, 'update api_keys set rate_limit_per_minute = 1 where id = ?', [key.id]);
      await themes(key.key).expect(200);
      const res = await themes(key.key);
      expectLegacy(res, 429, 'RATE_LIMITED', { requiredScopes: READ });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.headers['x-ratelimit-limit-short']).toBe('1');
      expect(res.headers['x-ratelimit-remaining-short']).toBe('0');
    });
  });

  describe('rule 3 does not apply; origin checks do', () => {
    it('takes a key made before 4 October 2026, which /v1 refuses with API_KEY_LEGACY in the envelope', async () => {
      const admin = await t.seed.organization();
      const older = await t.seed.apiKey(admin, READ);
      await makeOlder(t, older.id);
      await themes(older.key).expect(200);
      expectError(await asKey(t.http.get('/v1/me'), older.key), 403, 'API_KEY_LEGACY');
    });

    it('takes a key flagged legacy', async () => {
      const admin = await t.seed.organization();
      const flagged = await t.seed.apiKey(admin, READ);
      await sql(t, 'update api_keys set legacy = true where id = ?', [flagged.id]);
      await themes(flagged.key).expect(200);
    });

    it('takes a key with websites without Origin or from a listed one, refuses an unlisted one', async () => {
      const admin = await t.seed.organization();
      const web = await t.seed.apiKey(admin, {
        scopes: ['properties:read', 'sources:read'],
        allowedOrigins: [SITE, 'http://localhost:3000'],
      });
      await themes(web.key).expect(200);
      await themes(web.key).set('Origin', SITE).expect(200);
      await themes(web.key).set('Origin', 'http://localhost:3000').expect(200);
      for (const origin of [
        'https://evil.example',
        'https://www.agency.example:8443',
        'http://www.agency.example',
        'http://localhost:4000',
        'null',
      ]) {
        expectLegacy(await themes(web.key).set('Origin', origin), 403, 'API_KEY_ORIGIN_NOT_ALLOWED', {
          requiredScopes: READ,
        });
      }
      expectError(await asKey(t.http.get('/v1/me'), web.key), 403, 'API_KEY_HAS_WEBSITES');
    });

    it('refuses any Origin to a key without websites', async () => {
      const admin = await t.seed.organization();
      const key = await t.seed.apiKey(admin, READ);
      expectLegacy(await themes(key.key).set('Origin', SITE), 403, 'API_KEY_ORIGIN_NOT_ALLOWED');
      await themes(key.key).expect(200);
    });

    it('refuses a server-scope key sent with an Origin, takes it without', async () => {
      const admin = await t.seed.organization();
      const server = await t.seed.apiKey(admin, ['properties:read', 'crm:read']);
      for (const origin of [SITE, 'http://localhost:3000']) {
        expectLegacy(await themes(server.key).set('Origin', origin), 403, 'API_KEY_ORIGIN_NOT_ALLOWED');
      }
      await themes(server.key).expect(200);
    });
  });

  describe('rules 5 and 6: the owner', () => {
    it('answers 403 API_KEY_HAS_NO_OWNER to a key without an owner', async () => {
      const admin = await t.seed.organization();
      const key = await t.seed.apiKey(admin, READ);
      await makeOlder(t, key.id);
      await sql(t, 'update api_keys set created_by_id = null where id = ?', [key.id]);
      expectLegacy(await themes(key.key), 403, 'API_KEY_HAS_NO_OWNER', { requiredScopes: READ });
    });

    it('stops a newer key of an owner who left: 403 API_KEY_OWNER_NOT_IN_ORGANIZATION', async () => {
      const admin = await t.seed.organization();
      const member = await t.seed.member(admin);
      const newer = await t.seed.apiKey(member, READ);
      await themes(newer.key).expect(200); // cached by the door now
      await removeMember(admin, member);
      expectLegacy(await themes(newer.key), 403, 'API_KEY_OWNER_NOT_IN_ORGANIZATION', {
        requiredScopes: READ,
      });
      t.clock.advance(5 * MINUTE);
      expectLegacy(await themes(newer.key), 403, 'API_KEY_OWNER_NOT_IN_ORGANIZATION');
    });

    it('stops a key first created on 4 October 2026 at midnight UTC', async () => {
      const admin = await t.seed.organization();
      const member = await t.seed.member(admin);
      const newer = await t.seed.apiKey(member, READ);
      await sql(t, `update api_keys set lineage_created_at = '2026-10-04T00:00:00Z' where id = ?`, [
        newer.id,
      ]);
      await removeMember(admin, member);
      expectLegacy(await themes(newer.key), 403, 'API_KEY_OWNER_NOT_IN_ORGANIZATION');
    });

    it('lets an older key of an owner who left go on as an agency key until an admin revokes it', async () => {
      const admin = await t.seed.organization();
      const member = await t.seed.member(admin);
      const older = await t.seed.apiKey(member, READ);
      await makeOlder(t, older.id);
      await themes(older.key).expect(200);
      await removeMember(admin, member);
      await themes(older.key).expect(200);
      t.clock.advance(10 * MINUTE);
      await themes(older.key).expect(200);
      // the origin rule still applies to it
      expectLegacy(await themes(older.key).set('Origin', SITE), 403, 'API_KEY_ORIGIN_NOT_ALLOWED');
      await revoke(admin, older.id);
      expectLegacyUnauthenticated(await themes(older.key));
    });

    it('answers 403 ORG_DISABLED while the organization is disabled, agency keys included', async () => {
      const admin = await t.seed.organization();
      const member = await t.seed.member(admin);
      const key = await t.seed.apiKey(admin, READ);
      const older = await t.seed.apiKey(member, READ);
      await makeOlder(t, older.id);
      await removeMember(admin, member);
      await t.seed.disabled(admin.organizationId, true);
      expectLegacy(await themes(key.key), 403, 'ORG_DISABLED');
      expectLegacy(await themes(older.key), 403, 'ORG_DISABLED');
      await t.seed.disabled(admin.organizationId, false);
      await themes(key.key).expect(200);
      await themes(older.key).expect(200);
    });
  });

  describe('/v1 is unchanged', () => {
    it('keeps the envelope and its rules', async () => {
      expectUnauthenticated(await t.http.get('/v1/me'));
      const admin = await t.seed.organization();
      const key = await t.seed.apiKey(admin, READ);
      expectError(await asKey(t.http.get('/v1/members'), key.key), 403, 'API_KEY_SCOPE_MISSING', {
        missing: ['crm:read'],
      });
      expectError(
        await asKey(t.http.get('/v1/me'), key.key).set('Origin', SITE),
        403,
        'API_KEY_ORIGIN_NOT_ALLOWED',
      );
      expectError(await asKey(t.http.get('/v1/nope'), key.key), 404, 'NOT_FOUND');
      const member = await t.seed.member(admin);
      const memberKey = await t.seed.apiKey(member, READ);
      await makeOlder(t, memberKey.id);
      await removeMember(admin, member);
      expectError(await asKey(t.http.get('/v1/me'), memberKey.key), 403, 'API_KEY_LEGACY');
    });
  });
});
