import {
  asKey,
  asSession,
  expectError,
  expectUnauthenticated,
  keyRow,
  makeOlder,
  SignedIn,
  sql,
  TestApp,
} from '../fixtures';

const HOUR = 60 * 60 * 1000;
const CRM = ['crm:read', 'crm:write'];

/** The `/v1` door: credentials, the key rules, scopes, role and plan gates (spec: Authentication). */
describe('API keys on /v1', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.stop());
  beforeEach(() => t.resetRows());

  const me = (secret: string) => asKey(t.http.get('/v1/me'), secret);
  const leadIds = async (secret: string): Promise<number[]> => {
    const res = await asKey(t.http.get('/v1/leads'), secret).expect(200);
    return (res.body.data as { id: number }[]).map((lead) => lead.id).sort((a, b) => a - b);
  };
  let leadCounter = 0;
  const createLead = async (secret: string): Promise<number> => {
    const n = ++leadCounter;
    const res = await asKey(t.http.post('/v1/leads'), secret).send({
      firstName: `Lea${n}`,
      lastName: 'Buyer',
      email: `lead${n}@example.test`,
      phoneNumber: `+3460000${String(n).padStart(4, '0')}`,
      crmStatus: 'lead',
    });
    if (res.status !== 201) throw new Error(`lead not created: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.lead.id as number;
  };
  /** An admin-only, plan-needing route (bulk lead status). */
  const bulkStatus = (secret: string, ids: number[] = []) =>
    asKey(t.http.post('/v1/leads/status'), secret).send({ leadIds: ids, crmStatus: 'potential' });
  const changeRole = (admin: SignedIn, person: SignedIn, role: 'admin' | 'member') =>
    asSession(t.http.patch(`/organization/members/${person.userId}`), admin)
      .send({ role })
      .expect(200);
  const removeMember = (admin: SignedIn, person: SignedIn) =>
    asSession(t.http.delete(`/organization/members/${person.userId}`), admin).expect(204);

  describe('sending a key', () => {
    it('accepts Authorization: Bearer, Authorization: ApiKey and X-API-Key', async () => {
      const admin = await t.seed.organization();
      const created = await t.seed.apiKey(admin);
      for (const res of [
        await t.http.get('/v1/me').set('Authorization', `Bearer ${created.key}`),
        await t.http.get('/v1/me').set('Authorization', `ApiKey ${created.key}`),
        await t.http.get('/v1/me').set('X-API-Key', created.key),
      ]) {
        expect(res.status).toBe(200);
        expect(res.body.key.id).toBe(created.id);
      }
    });

    it('lets X-API-Key win over Bearer', async () => {
      const admin = await t.seed.organization();
      const a = await t.seed.apiKey(admin, { name: 'A' });
      const b = await t.seed.apiKey(admin, { name: 'B' });
      const garbage = await t.http
        .get('/v1/me')
        .set('Authorization', 'Bearer not-a-key')
        .set('X-API-Key', a.key);
      expect(garbage.status).toBe(200);
      expect(garbage.body.key.id).toBe(a.id);
      const both = await t.http.get('/v1/me').set('Authorization', `Bearer ${b.key}`).set('X-API-Key', a.key);
      expect(both.body.key.id).toBe(a.id);
    });

    it('lets Authorization: ApiKey win over X-API-Key', async () => {
      const admin = await t.seed.organization();
      const a = await t.seed.apiKey(admin, { name: 'A' });
      const b = await t.seed.apiKey(admin, { name: 'B' });
      const both = await t.http.get('/v1/me').set('Authorization', `ApiKey ${a.key}`).set('X-API-Key', b.key);
      expect(both.status).toBe(200);
      expect(both.body.key.id).toBe(a.id);
      expectUnauthenticated(
        await t.http.get('/v1/me').set('Authorization', 'ApiKey svc_pk_garbage').set('X-API-Key', b.key),
      );
    });

    it('generates the request id itself, ignoring a client-sent X-Request-Id', async () => {
      const admin = await t.seed.organization();
      const created = await t.seed.apiKey(admin, { scopes: ['properties:read'] });
      const ok = await me(created.key).set('X-Request-Id', 'client-chosen').expect(200);
      expect(ok.headers['x-request-id']).toEqual(expect.any(String));
      expect(ok.headers['x-request-id']).not.toBe('client-chosen');
      const refused = await asKey(t.http.get('/v1/members'), created.key).set(
        'X-Request-Id',
        'client-chosen',
      );
      expectError(refused, 403, 'API_KEY_SCOPE_MISSING', { missing: ['crm:read'] });
      expect(refused.body.requestId).not.toBe('client-chosen');
    });

    it('never reads a key from the query string', async () => {
      const admin = await t.seed.organization();
      const created = await t.seed.apiKey(admin);
      for (const name of ['api_key', 'apiKey', 'key', 'access_token', 'token']) {
        expectUnauthenticated(await t.http.get(`/v1/me?${name}=${created.key}`));
      }
    });

    it('answers 401 with WWW-Authenticate when no credential, or a malformed or unknown key, is sent', async () => {
      const admin = await t.seed.organization();
      const created = await t.seed.apiKey(admin);
      const unknown = `svc_pk_${'A'.repeat(32)}`;
      const wrongLength = `${created.key}x`;
      const badCharacter = `${created.key.slice(0, -1)}!`;
      expectUnauthenticated(await t.http.get('/v1/me'));
      expectUnauthenticated(await t.http.get('/v1/me').set('Authorization', 'Bearer'));
      expectUnauthenticated(await t.http.get('/v1/me').set('Authorization', `Basic ${created.key}`));
      for (const secret of [unknown, wrongLength, badCharacter, 'svc_pk_short', created.key.toUpperCase()]) {
        expectUnauthenticated(await me(secret));
      }
      await me(created.key).expect(200);
    });

    it('answers 401 to a session token on /v1', async () => {
      const admin = await t.seed.organization();
      expectUnauthenticated(await asSession(t.http.get('/v1/me'), admin));
      expectUnauthenticated(await t.http.get('/v1/members').set('X-API-Key', admin.token));
    });

    it('answers 401 to integration keys, MCP keys and OAuth tokens on /v1', async () => {
      await t.seed.organization();
      for (const secret of [
        `svc_int_${'0123456789abcdef'.repeat(2)}`,
        `svc_mcp_${'a'.repeat(32)}`,
        `svc_oat_${'b'.repeat(32)}`,
      ]) {
        expectUnauthenticated(await me(secret));
      }
    });

    it('answers 401 to an API key on dashboard routes', async () => {
      const admin = await t.seed.organization();
      const created = await t.seed.apiKey(admin);
      expectUnauthenticated(await asKey(t.http.get('/organization/members'), created.key));
      expectUnauthenticated(await asKey(t.http.get('/tags'), created.key));
    });
  });

  describe('dead keys', () => {
    it('answers 401 to a revoked key', async () => {
      const admin = await t.seed.organization();
      const created = await t.seed.apiKey(admin);
      await me(created.key).expect(200);
      await asSession(t.http.delete(`/api-keys/${created.id}`), admin).expect(200);
      expectUnauthenticated(await me(created.key));
    });

    it('answers 401 once the expiry has passed, not before', async () => {
      const admin = await t.seed.organization();
      const created = await t.seed.apiKey(admin, { expiresInDays: 1 });
      t.clock.advance(24 * HOUR - 1000);
      await me(created.key).expect(200);
      t.clock.advance(1000);
      expectUnauthenticated(await me(created.key));
    });

    it('answers 401 to a rotated key after its 24-hour grace', async () => {
      const admin = await t.seed.organization();
      const created = await t.seed.apiKey(admin);
      await asSession(t.http.post(`/api-keys/${created.id}/rotate`), admin).expect(201);
      t.clock.advance(24 * HOUR + 1000);
      expectUnauthenticated(await me(created.key));
    });
  });

  describe('rule 1: a key acts as its person, with the role they hold now', () => {
    it('reaches a member’s own leads only, and the whole agency for an admin', async () => {
      const admin = await t.seed.organization();
      const member = await t.seed.member(admin);
      const adminKey = (await t.seed.apiKey(admin, { scopes: CRM })).key;
      const memberKey = (await t.seed.apiKey(member, { scopes: CRM })).key;
      const adminLead = (await t.seed.lead(admin)).id;
      const memberLead = (await t.seed.lead(member)).id;

      expect(await leadIds(memberKey)).toEqual([memberLead]);
      expect(await leadIds(adminKey)).toEqual([adminLead, memberLead].sort((a, b) => a - b));
      expectError(await asKey(t.http.get(`/v1/leads/${adminLead}`), memberKey), 404, 'NOT_FOUND');
      expect((await me(memberKey).expect(200)).body).toMatchObject({
        user: { id: member.userId },
        role: 'member',
      });
    });

    it('answers 403 ORG_ADMIN_REQUIRED to a member’s key on an admin-only route', async () => {
      const admin = await t.seed.organization();
      const member = await t.seed.member(admin);
      const memberKey = (await t.seed.apiKey(member, { scopes: CRM })).key;
      const adminKey = (await t.seed.apiKey(admin, { scopes: CRM })).key;
      const lead = (await t.seed.lead(member)).id;
      expectError(await bulkStatus(memberKey, [lead]), 403, 'ORG_ADMIN_REQUIRED');
      await bulkStatus(adminKey, [lead]).expect(200);
    });

    it('checks the role on every call: a promoted member’s key gains, a demoted admin’s key loses', async () => {
      const admin = await t.seed.organization();
      const person = await t.seed.member(admin);
      const key = (await t.seed.apiKey(person, { scopes: CRM })).key;
      const ownLead = (await t.seed.lead(person)).id;
      const adminLead = (await t.seed.lead(admin)).id;
      expect((await me(key).expect(200)).body.role).toBe('member');
      expectError(await bulkStatus(key, [ownLead]), 403, 'ORG_ADMIN_REQUIRED');

      await changeRole(admin, person, 'admin');
      expect((await me(key).expect(200)).body.role).toBe('admin');
      expect(await leadIds(key)).toEqual([ownLead, adminLead].sort((a, b) => a - b));
      await bulkStatus(key, [ownLead]).expect(200);

      await changeRole(admin, person, 'member');
      expect((await me(key).expect(200)).body.role).toBe('member');
      expect(await leadIds(key)).toEqual([ownLead]);
      expectError(await bulkStatus(key, [ownLead]), 403, 'ORG_ADMIN_REQUIRED');
    });
  });

  describe('rule 2: scopes', () => {
    it('answers 403 API_KEY_SCOPE_MISSING naming the missing scope in details.missing', async () => {
      const admin = await t.seed.organization();
      const reader = (await t.seed.apiKey(admin, { scopes: ['crm:read'] })).key;
      const properties = (await t.seed.apiKey(admin, { scopes: ['properties:read'] })).key;
      expectError(await asKey(t.http.get('/v1/members'), properties), 403, 'API_KEY_SCOPE_MISSING', {
        missing: ['crm:read'],
      });
      expectError(await asKey(t.http.get('/v1/leads'), properties), 403, 'API_KEY_SCOPE_MISSING', {
        missing: ['crm:read'],
      });
      expectError(await bulkStatus(reader), 403, 'API_KEY_SCOPE_MISSING', { missing: ['crm:write'] });
      await asKey(t.http.get('/v1/members'), reader).expect(200);
    });

    it('opens no route with the reserved agents:read alone', async () => {
      const admin = await t.seed.organization();
      const created = await t.seed.apiKey(admin);
      expect(created.scopes).toContain('agents:read');
      expectError(await asKey(t.http.get('/v1/members'), created.key), 403, 'API_KEY_SCOPE_MISSING', {
        missing: ['crm:read'],
      });
    });
  });

  describe('rule 3: only keys made on or after 4 October 2026, without websites', () => {
    it('answers 403 API_KEY_LEGACY to a key made before 4 October 2026', async () => {
      const admin = await t.seed.organization();
      const older = await t.seed.apiKey(admin);
      await makeOlder(t, older.id);
      expectError(await me(older.key), 403, 'API_KEY_LEGACY');
    });

    it('takes a key made on 4 October 2026 at midnight UTC', async () => {
      const admin = await t.seed.organization();
      const created = await t.seed.apiKey(admin);
      await sql(t, `update api_keys set lineage_created_at = '2026-10-04T00:00:00Z' where id = ?`, [
        created.id,
      ]);
      await me(created.key).expect(200);
    });

    it('answers 403 API_KEY_LEGACY to a key flagged legacy', async () => {
      const admin = await t.seed.organization();
      const flagged = await t.seed.apiKey(admin);
      await sql(t, 'update api_keys set legacy = true where id = ?', [flagged.id]);
      expectError(await me(flagged.key), 403, 'API_KEY_LEGACY');
    });

    it('answers 403 API_KEY_HAS_WEBSITES to a key that lists allowed websites', async () => {
      const admin = await t.seed.organization();
      const web = await t.seed.apiKey(admin, {
        scopes: ['properties:read'],
        allowedOrigins: ['https://www.agency.example'],
      });
      expectError(await me(web.key), 403, 'API_KEY_HAS_WEBSITES');
      expectError(await me(web.key).set('Origin', 'https://www.agency.example'), 403, 'API_KEY_HAS_WEBSITES');
    });

    it('takes the key once its owner removes the websites', async () => {
      const admin = await t.seed.organization();
      const web = await t.seed.apiKey(admin, {
        scopes: ['properties:read'],
        allowedOrigins: ['https://www.agency.example'],
      });
      expectError(await me(web.key), 403, 'API_KEY_HAS_WEBSITES');
      await asSession(t.http.patch(`/api-keys/${web.id}`), admin)
        .send({ allowedOrigins: [] })
        .expect(200);
      await me(web.key).expect(200);
    });
  });

  describe('rules 5 and 6: keys need an owner in the agency', () => {
    it('answers 403 API_KEY_HAS_NO_OWNER to a key without an owner', async () => {
      const admin = await t.seed.organization();
      const created = await t.seed.apiKey(admin);
      await sql(t, 'update api_keys set created_by_id = null where id = ?', [created.id]);
      expectError(await me(created.key), 403, 'API_KEY_HAS_NO_OWNER');
    });

    it('stops the keys of a person who leaves: 403 API_KEY_OWNER_NOT_IN_ORGANIZATION', async () => {
      const admin = await t.seed.organization();
      const member = await t.seed.member(admin);
      const created = await t.seed.apiKey(member, { scopes: ['crm:read'] });
      await asKey(t.http.get('/v1/members'), created.key).expect(200); // cached by the door now
      await removeMember(admin, member);
      expectError(await me(created.key), 403, 'API_KEY_OWNER_NOT_IN_ORGANIZATION');
      expectError(
        await asKey(t.http.get('/v1/members'), created.key),
        403,
        'API_KEY_OWNER_NOT_IN_ORGANIZATION',
      );
      expect((await keyRow(t, admin, created.id)).ownerState).toBe('left');
    });
  });

  describe('organization state', () => {
    it('answers 403 ORG_DISABLED while the organization is disabled', async () => {
      const admin = await t.seed.organization();
      const created = await t.seed.apiKey(admin);
      await me(created.key).expect(200);
      await t.seed.disabled(admin.organizationId, true);
      expectError(await me(created.key), 403, 'ORG_DISABLED');
      await t.seed.disabled(admin.organizationId, false);
      await me(created.key).expect(200);
    });

    it('answers 403 SUBSCRIPTION_REQUIRED on plan routes without an active plan; reads still work', async () => {
      const admin = await t.seed.organization();
      const key = (await t.seed.apiKey(admin, { scopes: CRM })).key;
      await createLead(key); // over HTTP: the door caches the key (plan active) before the switch
      await t.seed.plan(admin.organizationId, false);
      expectError(await bulkStatus(key), 403, 'SUBSCRIPTION_REQUIRED');
      expectError(
        await asKey(t.http.post('/v1/leads'), key).send({
          firstName: 'No',
          lastName: 'Plan',
          email: 'no.plan@example.test',
          phoneNumber: '+34600001111',
          crmStatus: 'lead',
        }),
        403,
        'SUBSCRIPTION_REQUIRED',
      );
      expect(await leadIds(key)).toHaveLength(1);
      await asKey(t.http.get('/v1/members'), key).expect(200);
      await t.seed.plan(admin.organizationId, true);
      await bulkStatus(key).expect(200);
    });
  });

  describe('browser use', () => {
    it.each([
      ['a server-scope key', ['crm:read']],
      ['a properties key', ['properties:read', 'sources:read']],
    ])('answers 403 API_KEY_ORIGIN_NOT_ALLOWED to %s sent with an Origin header', async (_label, scopes) => {
      const admin = await t.seed.organization();
      const created = await t.seed.apiKey(admin, { scopes });
      for (const origin of ['https://www.agency.example', 'http://localhost:3000', 'null']) {
        expectError(await me(created.key).set('Origin', origin), 403, 'API_KEY_ORIGIN_NOT_ALLOWED');
      }
      await me(created.key).expect(200); // no Origin: not origin-checked
    });

    it('sends no CORS headers', async () => {
      const admin = await t.seed.organization();
      const created = await t.seed.apiKey(admin);
      const answers = [
        await me(created.key),
        await me(created.key).set('Origin', 'https://www.agency.example'),
        await t.http
          .options('/v1/me')
          .set('Origin', 'https://www.agency.example')
          .set('Access-Control-Request-Method', 'GET')
          .set('Access-Control-Request-Headers', 'authorization'),
      ];
      for (const res of answers) {
        const cors = Object.keys(res.headers).filter((name) => name.startsWith('access-control-'));
        expect(cors).toEqual([]);
      }
    });
  });

  describe('which refusal wins', () => {
    it('401 for a dead key before any 403', async () => {
      const admin = await t.seed.organization();
      const revoked = await t.seed.apiKey(admin);
      const expiring = await t.seed.apiKey(admin, { expiresInDays: 1 });
      for (const id of [revoked.id, expiring.id]) {
        await sql(t, `update api_keys set created_by_id = null, legacy = true where id = ?`, [id]);
      }
      await asSession(t.http.delete(`/api-keys/${revoked.id}`), admin).expect(200);
      t.clock.advance(25 * HOUR);
      expectUnauthenticated(await me(revoked.key));
      expectUnauthenticated(await me(expiring.key));
    });

    it('API_KEY_HAS_NO_OWNER before API_KEY_LEGACY before API_KEY_HAS_WEBSITES', async () => {
      const admin = await t.seed.organization();
      const web = { scopes: ['properties:read'], allowedOrigins: ['https://www.agency.example'] };
      const all = await t.seed.apiKey(admin, web);
      const olderWithWebsites = await t.seed.apiKey(admin, web);
      await makeOlder(t, all.id);
      await makeOlder(t, olderWithWebsites.id);
      await sql(t, 'update api_keys set created_by_id = null where id = ?', [all.id]);
      expectError(await me(all.key), 403, 'API_KEY_HAS_NO_OWNER');
      expectError(await me(olderWithWebsites.key), 403, 'API_KEY_LEGACY');
    });

    it('API_KEY_HAS_WEBSITES before API_KEY_OWNER_NOT_IN_ORGANIZATION before ORG_DISABLED', async () => {
      const admin = await t.seed.organization();
      const member = await t.seed.member(admin);
      const web = await t.seed.apiKey(member, {
        scopes: ['properties:read'],
        allowedOrigins: ['https://www.agency.example'],
      });
      const plain = await t.seed.apiKey(member);
      await removeMember(admin, member);
      await t.seed.disabled(admin.organizationId, true);
      expectError(await me(web.key), 403, 'API_KEY_HAS_WEBSITES');
      expectError(await me(plain.key), 403, 'API_KEY_OWNER_NOT_IN_ORGANIZATION');
    });

    it('ORG_DISABLED before API_KEY_ORIGIN_NOT_ALLOWED before API_KEY_SCOPE_MISSING', async () => {
      const admin = await t.seed.organization();
      const created = await t.seed.apiKey(admin, { scopes: ['properties:read'] });
      const members = () => asKey(t.http.get('/v1/members'), created.key).set('Origin', 'https://x.example');
      await t.seed.disabled(admin.organizationId, true);
      expectError(await members(), 403, 'ORG_DISABLED');
      await t.seed.disabled(admin.organizationId, false);
      expectError(await members(), 403, 'API_KEY_ORIGIN_NOT_ALLOWED');
    });

    it('API_KEY_SCOPE_MISSING before ORG_ADMIN_REQUIRED before SUBSCRIPTION_REQUIRED', async () => {
      const admin = await t.seed.organization();
      const member = await t.seed.member(admin);
      const reader = (await t.seed.apiKey(member, { scopes: ['crm:read'] })).key;
      const writer = (await t.seed.apiKey(member, { scopes: CRM })).key;
      await t.seed.plan(admin.organizationId, false);
      expectError(await bulkStatus(reader), 403, 'API_KEY_SCOPE_MISSING', { missing: ['crm:write'] });
      expectError(await bulkStatus(writer), 403, 'ORG_ADMIN_REQUIRED');
    });
  });

  describe('503 AUTH_UNAVAILABLE', () => {
    it('answers 503 AUTH_UNAVAILABLE when the key owner cannot be checked, and works again after', async () => {
      const admin = await t.seed.organization();
      const created = await t.seed.apiKey(admin);
      // the pool can no longer reach the database while the door looks the key up
      const pool = t.orm.em.getConnection().getKnex().client as { acquireConnection(): Promise<unknown> };
      const lookup = jest
        .spyOn(pool, 'acquireConnection')
        .mockRejectedValue(new Error('connect ECONNREFUSED 127.0.0.1:5432'));
      try {
        const res = await me(created.key);
        expectError(res, 503, 'AUTH_UNAVAILABLE');
        expect(JSON.stringify(res.body)).not.toContain('ECONNREFUSED');
      } finally {
        lookup.mockRestore();
      }
      await me(created.key).expect(200);
    });
  });
});
