import { sha256 } from '@app/platform';
import {
  Agency,
  asKey,
  asSession,
  expectError,
  expectNotFound,
  expectUnauthenticated,
  expectValidation,
  postMcpKey,
  SignedIn,
  sql,
  TestApp,
} from '../fixtures';

const RPC = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
const KEY_FIELDS = [
  'createdAt',
  'expiresAt',
  'id',
  'lastUsedAt',
  'mine',
  'name',
  'ownerId',
  'prefixHint',
  'revokedAt',
  'scopes',
  'status',
];

/** MCP keys on session routes (INTERFACES.md "Webhooks and MCP"): create, list, revoke, the 10-key limit. */
describe('MCP keys (/mcp-keys)', () => {
  let t: TestApp;
  let a: Agency;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.stop());
  beforeEach(async () => {
    await t.resetRows();
    a = await t.seed.agency();
  });

  const create = (who: SignedIn, body: Record<string, unknown>) =>
    asSession(t.http.post('/mcp-keys'), who).send(body);
  const list = (who: SignedIn, query = '') => asSession(t.http.get(`/mcp-keys${query}`), who);
  const revoke = (who: SignedIn, id: string) => asSession(t.http.delete(`/mcp-keys/${id}`), who);
  const mcp = (key: string) =>
    asKey(t.http.post('/mcp'), key).set('Accept', 'application/json, text/event-stream').send(RPC);

  describe('POST /mcp-keys', () => {
    it('answers 201 {id, key, prefixHint, scopes} once; only the hash is stored', async () => {
      const res = await create(a.member, { name: 'Claude Desktop', scopes: ['crm:read', 'documents:read'] });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body).sort()).toEqual(['id', 'key', 'prefixHint', 'scopes']);
      expect(res.body.key).toMatch(/^svc_mcp_[A-Za-z0-9]{32}$/);
      expect(res.body.prefixHint).toBe(res.body.key.slice(0, 12));
      expect(res.body.scopes).toEqual(['crm:read', 'documents:read']);
      const [row] = await sql(t, 'select * from mcp_keys where id = ?', [res.body.id]);
      expect(row).toMatchObject({
        owner_id: a.member.userId,
        organization_id: a.member.organizationId,
        secret_hash: sha256(res.body.key),
        name: 'Claude Desktop',
      });
      expect(JSON.stringify(row)).not.toContain(res.body.key);
      await mcp(res.body.key).expect(200);
    });

    it('validates name 1-255, the ten scopes (required, no repeats) and expiresInDays 1-3650', async () => {
      for (const [body, path] of [
        [{ scopes: ['crm:read'] }, 'name'],
        [{ name: '', scopes: ['crm:read'] }, 'name'],
        [{ name: 'x'.repeat(256), scopes: ['crm:read'] }, 'name'],
        [{ name: 'k' }, 'scopes'],
        [{ name: 'k', scopes: [] }, 'scopes'],
        [{ name: 'k', scopes: ['crm:admin'] }, 'scopes'],
        [{ name: 'k', scopes: ['agents:read'] }, 'scopes'],
        [{ name: 'k', scopes: ['crm:read', 'crm:read'] }, 'scopes'],
        [{ name: 'k', scopes: ['crm:read'], expiresInDays: 0 }, 'expiresInDays'],
        [{ name: 'k', scopes: ['crm:read'], expiresInDays: 3651 }, 'expiresInDays'],
        [{ name: 'k', scopes: ['crm:read'], expiresInDays: 1.5 }, 'expiresInDays'],
      ] as const) {
        expectValidation(await create(a.member, body), path);
      }
      const res = await create(a.member, {
        name: 'x'.repeat(255),
        scopes: ['crm:read'],
        expiresInDays: 3650,
      });
      expect(res.status).toBe(201);
      const [row] = await sql<{ expires_at: string; created_at: string }>(
        t,
        'select expires_at, created_at from mcp_keys where id = ?',
        [res.body.id],
      );
      expect(new Date(row.expires_at).getTime() - new Date(row.created_at).getTime()).toBe(3650 * 86_400_000);
    });

    it('the grant rules of API keys: a member cannot grant properties:write or media:write, an admin can', async () => {
      for (const scope of ['properties:write', 'media:write']) {
        expectError(
          await create(a.member, { name: 'k', scopes: ['crm:read', scope] }),
          403,
          'API_KEY_SCOPE_NOT_GRANTABLE',
        );
        expect((await create(a.admin, { name: 'k', scopes: [scope] })).status).toBe(201);
      }
      expect(await sql(t, 'select 1 from mcp_keys where owner_id = ?', [a.member.userId])).toEqual([]);
    });

    it('10 active keys a person (409 API_KEY_LIMIT_REACHED); revoked and expired ones do not count', async () => {
      const keys = [];
      for (let i = 0; i < 10; i++) keys.push(await postMcpKey(t, a.member, ['crm:read'], `k${i}`));
      expectError(
        await create(a.member, { name: 'k10', scopes: ['crm:read'] }),
        409,
        'API_KEY_LIMIT_REACHED',
      );
      // a colleague has their own ten
      expect((await create(a.colleague, { name: 'c', scopes: ['crm:read'] })).status).toBe(201);
      await revoke(a.member, keys[0].id).expect(200);
      expect((await create(a.member, { name: 'again', scopes: ['crm:read'] })).status).toBe(201);
      expectError(
        await create(a.member, { name: 'k11', scopes: ['crm:read'] }),
        409,
        'API_KEY_LIMIT_REACHED',
      );
      await sql(t, `update mcp_keys set expires_at = now() - interval '1 day' where id = ?`, [keys[1].id]);
      expect((await create(a.member, { name: 'after expiry', scopes: ['crm:read'] })).status).toBe(201);
    });

    it('takes a session token only: an API key, an MCP key or nothing is 401', async () => {
      const { key } = await postMcpKey(t, a.member);
      for (const secret of [a.member.key, key]) {
        expectUnauthenticated(
          await asKey(t.http.post('/mcp-keys'), secret).send({ name: 'k', scopes: ['crm:read'] }),
        );
        expectUnauthenticated(await asKey(t.http.get('/mcp-keys'), secret));
      }
      expectUnauthenticated(await t.http.get('/mcp-keys'));
    });
  });

  describe('GET /mcp-keys', () => {
    it('a member lists their own keys, an admin every key of the organization; never the secret', async () => {
      const other = await t.seed.agency('Other Agency');
      const mine = await postMcpKey(t, a.member, ['crm:read'], 'Mine');
      const colleagues = await postMcpKey(t, a.colleague, ['crm:read'], 'Cole');
      const admins = await postMcpKey(t, a.admin, ['crm:read', 'properties:write'], 'Admin');
      await postMcpKey(t, other.admin, ['crm:read'], 'Foreign');

      const member = await list(a.member).expect(200);
      expect(Object.keys(member.body).sort()).toEqual(['data', 'hasMore']);
      expect(member.body).toEqual({
        data: [
          {
            id: mine.id,
            name: 'Mine',
            status: 'active',
            prefixHint: mine.prefixHint,
            scopes: ['crm:read'],
            ownerId: a.member.userId,
            mine: true,
            createdAt: expect.any(String),
            expiresAt: null,
            revokedAt: null,
            lastUsedAt: null,
          },
        ],
        hasMore: false,
      });
      const admin = await list(a.admin).expect(200);
      expect(admin.body.data.map((k: { id: string }) => k.id).sort()).toEqual(
        [mine.id, colleagues.id, admins.id].sort(),
      );
      for (const row of admin.body.data) expect(Object.keys(row).sort()).toEqual(KEY_FIELDS);
      expect(admin.body.data.find((k: { id: string }) => k.id === admins.id).mine).toBe(true);
      expect(admin.body.data.find((k: { id: string }) => k.id === mine.id).mine).toBe(false);
      expect(JSON.stringify(admin.body)).not.toMatch(/svc_mcp_[A-Za-z0-9]{32}/);
    });

    it('newest first with offset paging; revoked keys are listed with their status', async () => {
      const first = await postMcpKey(t, a.member, ['crm:read'], 'first');
      t.clock.advance(1_000);
      const second = await postMcpKey(t, a.member, ['crm:read'], 'second');
      await revoke(a.member, first.id).expect(200);
      const page = await list(a.member, '?limit=1').expect(200);
      expect(page.body).toMatchObject({ data: [{ id: second.id, status: 'active' }], hasMore: true });
      const next = await list(a.member, '?limit=1&offset=1').expect(200);
      expect(next.body).toMatchObject({
        data: [{ id: first.id, status: 'revoked', revokedAt: expect.any(String) }],
        hasMore: false,
      });
      expectValidation(await list(a.member, '?limit=101'), 'limit');
    });
  });

  describe('DELETE /mcp-keys/{id}', () => {
    it('the owner revokes: 200 {success: true}, the key answers 401 at once', async () => {
      const { id, key } = await postMcpKey(t, a.member);
      await mcp(key).expect(200);
      const res = await revoke(a.member, id).expect(200);
      expect(res.body).toEqual({ success: true });
      expectUnauthenticated(await mcp(key));
      // revoking again is harmless
      await revoke(a.member, id).expect(200);
    });

    it('lastUsedAt is set by a call', async () => {
      const { id, key } = await postMcpKey(t, a.member);
      await mcp(key).expect(200);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const [row] = (await list(a.member).expect(200)).body.data;
      expect(row).toMatchObject({ id, lastUsedAt: t.clock.now().toISOString() });
    });

    it("a member revoking a colleague's key is 403 API_KEY_NOT_YOURS; an admin may", async () => {
      const { id, key } = await postMcpKey(t, a.colleague);
      expectError(await revoke(a.member, id), 403, 'API_KEY_NOT_YOURS');
      await mcp(key).expect(200);
      await revoke(a.admin, id).expect(200);
      expectUnauthenticated(await mcp(key));
    });

    it("another agency's key, an unknown id and a malformed one", async () => {
      const other = await t.seed.agency('Other Agency');
      const foreign = await postMcpKey(t, other.admin);
      expectNotFound(await revoke(a.admin, foreign.id), 'MCP key');
      await mcp(foreign.key).expect(200);
      expectNotFound(await revoke(a.admin, '00000000-0000-7000-8000-000000000000'), 'MCP key');
      expectValidation(await revoke(a.admin, 'nope'), 'id');
    });
  });
});
