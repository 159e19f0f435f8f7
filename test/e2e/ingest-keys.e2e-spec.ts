import { KeyUsageRecorder } from '@app/identity';
import {
  asKey,
  asSession,
  expectError,
  expectNotFound,
  expectUnauthenticated,
  expectValidation,
  SignedIn,
  sql,
  TestApp,
} from '../fixtures';

interface IssuedKey {
  id: string;
  name: string;
  connector: string;
  key: string;
  prefixHint: string;
  createdAt: string;
}

/** Integration keys (admin session routes) and the `/integrations/v1` door (INTERFACES.md "Ingestion"). */
describe('integration keys and the /integrations/v1 door', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.stop());

  const issue = async (admin: SignedIn, body: Record<string, unknown> = {}): Promise<IssuedKey> => {
    const res = await asSession(t.http.post('/integration-keys'), admin).send({
      name: 'Aircall',
      connector: 'aircall',
      ...body,
    });
    if (res.status !== 201) throw new Error(`not issued: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as IssuedKey;
  };
  const me = (secret: string) => asKey(t.http.get('/integrations/v1/me'), secret);

  describe('managing keys', () => {
    let admin: SignedIn;
    let member: SignedIn;
    beforeAll(async () => {
      admin = await t.seed.organization({ name: 'Casa Keys' });
      member = await t.seed.member(admin);
    });

    it('issues a key once, lists it without the secret, revokes it and refuses it at once', async () => {
      const created = await issue(admin, { name: 'Aircall sales', connector: 'air-call2' });
      expect(created).toEqual({
        id: expect.any(String),
        name: 'Aircall sales',
        connector: 'air-call2',
        key: expect.stringMatching(/^svc_int_[0-9a-f]{32}$/),
        prefixHint: created.key.slice(0, 12),
        createdAt: expect.any(String),
      });
      const [row] = await sql<{ key_hash: string }>(t, 'select key_hash from integration_keys where id = ?', [
        created.id,
      ]);
      expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.key_hash).not.toContain(created.key.slice(8));

      await me(created.key).expect(200); // cached by the door from here on
      await t.get(KeyUsageRecorder).flush();
      const list = await asSession(t.http.get('/integration-keys'), admin).expect(200);
      expect(list.body.hasMore).toBe(false);
      expect(list.body.data.find((k: { id: string }) => k.id === created.id)).toEqual({
        id: created.id,
        name: 'Aircall sales',
        connector: 'air-call2',
        prefixHint: created.prefixHint,
        status: 'active',
        createdById: admin.userId,
        createdAt: created.createdAt,
        lastUsedAt: expect.any(String),
        revokedAt: null,
      });

      const revoked = await asSession(t.http.delete(`/integration-keys/${created.id}`), admin).expect(200);
      expect(revoked.body).toEqual({ success: true });
      expectUnauthenticated(await me(created.key));
      const after = await asSession(t.http.get('/integration-keys'), admin).expect(200);
      expect(after.body.data.find((k: { id: string }) => k.id === created.id)).toMatchObject({
        status: 'revoked',
        revokedAt: expect.any(String),
      });
    });

    it('is for admins only (403 ORG_ADMIN_REQUIRED for a member)', async () => {
      const key = await issue(admin);
      expectError(
        await asSession(t.http.post('/integration-keys'), member).send({ name: 'x', connector: 'x' }),
        403,
        'ORG_ADMIN_REQUIRED',
      );
      expectError(await asSession(t.http.get('/integration-keys'), member), 403, 'ORG_ADMIN_REQUIRED');
      expectError(
        await asSession(t.http.delete(`/integration-keys/${key.id}`), member),
        403,
        'ORG_ADMIN_REQUIRED',
      );
      await me(key.key).expect(200);
    });

    it('validates name and connector, and 404s another agency key', async () => {
      expectValidation(
        await asSession(t.http.post('/integration-keys'), admin).send({ name: '', connector: 'Air Call' }),
        'name',
        'connector',
      );
      expectValidation(
        await asSession(t.http.post('/integration-keys'), admin).send({ name: 'x', connector: '-aircall' }),
        'connector',
      );
      expectValidation(
        await asSession(t.http.post('/integration-keys'), admin).send({
          name: 'x'.repeat(256),
          connector: 'a',
        }),
        'name',
      );
      const other = await t.seed.organization({ name: 'Other Agency' });
      const theirs = await issue(other);
      expectNotFound(
        await asSession(t.http.delete(`/integration-keys/${theirs.id}`), admin),
        'Integration key',
      );
      expect(
        (await asSession(t.http.get('/integration-keys'), admin).expect(200)).body.data,
      ).not.toContainEqual(expect.objectContaining({ id: theirs.id }));
      await me(theirs.key).expect(200);
    });

    it('allows 20 active keys per organization (409 CONFLICT for the 21st; a revoke frees a place)', async () => {
      const agency = await t.seed.organization({ name: 'Twenty Keys' });
      const keys: IssuedKey[] = [];
      for (let i = 0; i < 20; i++) keys.push(await issue(agency, { name: `k${i}` }));
      expectError(
        await asSession(t.http.post('/integration-keys'), agency).send({ name: 'k21', connector: 'aircall' }),
        409,
        'CONFLICT',
      );
      await asSession(t.http.delete(`/integration-keys/${keys[0].id}`), agency).expect(200);
      await issue(agency, { name: 'k21' });
    });
  });

  describe('the door', () => {
    let admin: SignedIn;
    let key: IssuedKey;
    let apiKey: string;
    beforeAll(async () => {
      admin = await t.seed.organization({ name: 'Casa Door' });
      key = await issue(admin, { name: 'Idealista', connector: 'idealista' });
      apiKey = (await t.seed.apiKey(admin, ['crm:read'])).key;
    });

    it('answers /me with the organization and the key, the request id and the rate-limit headers', async () => {
      const res = await me(key.key).expect(200);
      expect(res.body).toEqual({
        organization: { id: admin.organizationId, name: 'Casa Door' },
        key: { id: key.id, name: 'Idealista', connector: 'idealista', prefixHint: key.prefixHint },
      });
      expect(res.headers['x-request-id']).toEqual(expect.any(String));
      expect(res.headers).toMatchObject({
        'x-ratelimit-limit-short': '600',
        'x-ratelimit-limit-medium': '3000',
        'x-ratelimit-limit-long': '15000',
      });
      const next = await asKey(t.http.get('/integrations/v1/me'), key.key)
        .set('X-API-Key', key.key)
        .expect(200);
      expect(Number(next.headers['x-ratelimit-remaining-short'])).toBe(
        Number(res.headers['x-ratelimit-remaining-short']) - 1,
      );
    });

    it('refuses every other credential, and an integration key anywhere else (401)', async () => {
      expectUnauthenticated(await t.http.get('/integrations/v1/me'));
      expectUnauthenticated(await me(apiKey));
      expectUnauthenticated(await asSession(t.http.get('/integrations/v1/me'), admin));
      expectUnauthenticated(await me('svc_int_not-a-key'));
      expectUnauthenticated(await me(`svc_int_${'0'.repeat(32)}`));
      expectUnauthenticated(await me(key.key.toUpperCase().replace('SVC_INT_', 'svc_int_')));
      expectUnauthenticated(await asKey(t.http.get('/v1/me'), key.key));
      expectUnauthenticated(await asKey(t.http.get('/v1/leads'), key.key));
      expectUnauthenticated(await asKey(t.http.get('/integration-keys'), key.key));
      expectUnauthenticated(await asKey(t.http.get('/api-keys'), key.key));
    });

    it('answers 403 ORG_DISABLED while the organization is disabled', async () => {
      await me(key.key).expect(200);
      await t.seed.disabled(admin, true);
      expectError(await me(key.key), 403, 'ORG_DISABLED');
      await t.seed.disabled(admin, false);
      await me(key.key).expect(200);
    });

    it('refuses past 600 calls a minute with 429 RATE_LIMITED', async () => {
      const limited = await issue(admin, { name: 'Busy', connector: 'busy' });
      let last = await me(limited.key);
      for (let i = 1; i < 600; i++) last = await me(limited.key);
      expect(last.status).toBe(200);
      expect(last.headers['x-ratelimit-remaining-short']).toBe('0');
      const refused = await me(limited.key);
      expectError(refused, 429, 'RATE_LIMITED');
      expect(refused.headers['retry-after']).toEqual(expect.any(String));
      await me(key.key).expect(200); // another key keeps its own budget
    });
  });
});
