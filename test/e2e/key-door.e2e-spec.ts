import { Writable } from 'node:stream';
import Redis from 'ioredis';
import { runOps } from '../../apps/ops/src/ops-cli';
import {
  asKey,
  asSession,
  expectError,
  expectNotFound,
  expectUnauthenticated,
  LeadJson,
  postMcpKey,
  SignedIn,
  sql,
  TestApp,
} from '../fixtures';

const REDIS_URL = 'redis://127.0.0.1:6379';
const MCP_ACCEPT = 'application/json, text/event-stream';
const CRM = ['crm:read', 'crm:write'];

interface Staff {
  admin: SignedIn;
  /** The second admin: the one demoted, removed or whose keys are revoked. */
  boss: SignedIn;
  /** A lead assigned to a colleague: an admin reads it, a member does not. */
  lead: LeadJson;
  apiKey: { id: string; key: string };
  mcpKey: { id: string; key: string };
}

/**
 * The key door (docs/security/key-door.md): API keys, MCP keys and integration keys behind one
 * cache and one invalidation path. Two API processes share Redis; a change made on one reaches
 * every kind of key on the other at its next request, with no wait for the cache's lifetime.
 */
describe('one door for the three kinds of key', () => {
  let one: TestApp;
  let two: TestApp;
  beforeAll(async () => {
    one = await TestApp.start({ env: { REDIS_URL } });
    two = await TestApp.start({ env: { REDIS_URL } });
  });
  afterAll(async () => {
    await one.stop();
    await two.stop();
  });
  beforeEach(async () => {
    await one.resetRows();
    two.clock.set(one.clock.now());
  });

  async function staff(): Promise<Staff> {
    const admin = await one.seed.organization();
    const boss = await one.seed.member(admin, 'admin', 'Bea');
    const colleague = await one.seed.member(admin, 'member', 'Cole');
    const lead = await one.seed.lead(admin, { assigneeIds: [colleague.userId] });
    const apiKey = await one.seed.apiKey(boss, CRM);
    const mcpKey = await postMcpKey(one, boss, CRM);
    return { admin, boss, lead, apiKey, mcpKey };
  }

  const tool = (t: TestApp, key: string, name: string, args: Record<string, unknown> = {}) =>
    asKey(t.http.post('/mcp'), key)
      .set('Accept', MCP_ACCEPT)
      .send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });
  /** The tool's answer, or the `/v1` code it refused with. */
  const toolAnswer = async (t: TestApp, key: string, name: string, args: Record<string, unknown> = {}) => {
    const res = await tool(t, key, name, args);
    expect(res.status).toBe(200);
    const result = res.body.result as { isError?: boolean; structuredContent: Record<string, unknown> };
    return result.isError
      ? { refused: (result.structuredContent.error as { code: string }).code }
      : result.structuredContent;
  };
  /** Bulk lead status: admin only, needs the plan. */
  const bulkStatus = (t: TestApp, key: string) =>
    asKey(t.http.post('/v1/leads/status'), key).send({ leadIds: [], crmStatus: 'potential' });
  const setRole = (s: Staff, role: 'admin' | 'member') =>
    asSession(one.http.patch(`/organization/members/${s.boss.userId}`), s.admin)
      .send({ role })
      .expect(200);

  async function expectAdminReach(t: TestApp, s: Staff): Promise<void> {
    await asKey(t.http.get(`/v1/leads/${s.lead.id}`), s.apiKey.key).expect(200);
    await bulkStatus(t, s.apiKey.key).expect(200);
    expect(await toolAnswer(t, s.mcpKey.key, 'get_lead', { leadId: s.lead.id })).toMatchObject({
      id: s.lead.id,
    });
    expect(await toolAnswer(t, s.mcpKey.key, 'get_me')).toMatchObject({ role: 'admin' });
  }

  async function expectMemberReach(t: TestApp, s: Staff): Promise<void> {
    expectNotFound(await asKey(t.http.get(`/v1/leads/${s.lead.id}`), s.apiKey.key), 'Lead');
    expectError(await bulkStatus(t, s.apiKey.key), 403, 'ORG_ADMIN_REQUIRED');
    expect(await toolAnswer(t, s.mcpKey.key, 'get_lead', { leadId: s.lead.id })).toEqual({
      refused: 'NOT_FOUND',
    });
    expect(await toolAnswer(t, s.mcpKey.key, 'get_me')).toMatchObject({ role: 'member' });
  }

  /** `npm run ops -- <args>` in this process: its own application context, as an operator runs it. */
  async function ops(args: string[]): Promise<void> {
    let errors = '';
    const sink = (collect: (text: string) => void) =>
      new Writable({
        write(chunk, _encoding, done) {
          collect(String(chunk));
          done();
        },
      });
    const status = await runOps(
      [...args, '--json'],
      { DATABASE_URL: process.env.DATABASE_URL, REDIS_URL, LOG_LEVEL: 'silent' },
      sink(() => undefined),
      sink((text) => (errors += text)),
    );
    expect({ status, errors }).toEqual({ status: 0, errors: '' });
  }

  describe('in one process', () => {
    it('an admin demoted to member: their API key and MCP key lose admin reach on the next call', async () => {
      const s = await staff();
      await expectAdminReach(one, s); // both keys cached by the door now
      await setRole(s, 'member');
      await expectMemberReach(one, s);
    });
  });

  describe('across two API processes (Redis)', () => {
    it('a demotion on one process reaches both keys on the other at their next call, and so does the promotion back', async () => {
      const s = await staff();
      await expectAdminReach(two, s);
      await setRole(s, 'member');
      await expectMemberReach(two, s);
      await setRole(s, 'admin');
      await expectAdminReach(two, s);
    });

    it("a member's removal stops their API key and MCP key on the other process: 403 API_KEY_OWNER_NOT_IN_ORGANIZATION", async () => {
      const s = await staff();
      await expectAdminReach(two, s);
      await asSession(one.http.delete(`/organization/members/${s.boss.userId}`), s.admin).expect(204);
      expectError(
        await asKey(two.http.get('/v1/me'), s.apiKey.key),
        403,
        'API_KEY_OWNER_NOT_IN_ORGANIZATION',
      );
      expectError(await tool(two, s.mcpKey.key, 'get_me'), 403, 'API_KEY_OWNER_NOT_IN_ORGANIZATION');
    });

    it('a revoke on one process is 401 on the other at the next call, for every kind of key', async () => {
      const s = await staff();
      const integration = await one.seed.integrationKey(s.admin, 'aircall');
      const integrationMe = () => asKey(two.http.get('/integrations/v1/me'), integration.key);
      await asKey(two.http.get('/v1/me'), s.apiKey.key).expect(200);
      expect(await toolAnswer(two, s.mcpKey.key, 'get_me')).toMatchObject({ role: 'admin' });
      await integrationMe().expect(200);

      await asSession(one.http.delete(`/api-keys/${s.apiKey.id}`), s.boss).expect(200);
      await asSession(one.http.delete(`/mcp-keys/${s.mcpKey.id}`), s.boss).expect(200);
      await asSession(one.http.delete(`/integration-keys/${integration.id}`), s.admin).expect(200);

      expectUnauthenticated(await asKey(two.http.get('/v1/me'), s.apiKey.key));
      expectUnauthenticated(await tool(two, s.mcpKey.key, 'get_me'));
      expectUnauthenticated(await integrationMe());
    });

    it("an operator's org --disable and plan --inactive reach every kind of key on every process at once", async () => {
      const s = await staff();
      const integration = await one.seed.integrationKey(s.admin, 'aircall');
      const integrationMe = (t: TestApp) => asKey(t.http.get('/integrations/v1/me'), integration.key);
      for (const t of [one, two]) {
        await expectAdminReach(t, s);
        await integrationMe(t).expect(200);
      }

      await ops(['plan', '--org', s.admin.organizationId, '--inactive']);
      for (const t of [one, two]) {
        expectError(await bulkStatus(t, s.apiKey.key), 403, 'SUBSCRIPTION_REQUIRED');
        expect(
          await toolAnswer(t, s.mcpKey.key, 'create_note', { leadId: s.lead.id, content: 'Call back' }),
        ).toEqual({ refused: 'SUBSCRIPTION_REQUIRED' });
      }

      await ops(['org', '--org', s.admin.organizationId, '--disable']);
      for (const t of [one, two]) {
        expectError(await asKey(t.http.get('/v1/me'), s.apiKey.key), 403, 'ORG_DISABLED');
        expectError(await tool(t, s.mcpKey.key, 'get_me'), 403, 'ORG_DISABLED');
        expectError(await integrationMe(t), 403, 'ORG_DISABLED');
      }
    });

    it('a message on the channel that cannot be read empties the cache (it may stand for any change)', async () => {
      const s = await staff();
      await asKey(two.http.get('/v1/me'), s.apiKey.key).expect(200);
      await sql(one, 'update api_keys set revoked_at = now() where id = ?', [s.apiKey.id]);
      const redis = new Redis(REDIS_URL);
      try {
        for (const message of ['not json', '{"kind":"everything","id":1}']) {
          await redis.publish('api-key-cache:invalidate', message);
        }
        await redis.ping(); // a round trip after the publishes: process two has read them by now
      } finally {
        redis.disconnect();
      }
      expectUnauthenticated(await asKey(two.http.get('/v1/me'), s.apiKey.key));
    });

    it("a rotated key's grace end and an MCP key's expiry are read from the cached entry: refused the moment they pass", async () => {
      const s = await staff();
      const rotated = await asSession(one.http.post(`/api-keys/${s.apiKey.id}/rotate`), s.boss).expect(201);
      const soon = new Date(one.clock.now().getTime() + 1_000);
      await sql(one, 'update api_keys set grace_until = ? where id = ?', [soon, s.apiKey.id]);
      await sql(one, 'update mcp_keys set expires_at = ? where id = ?', [soon, s.mcpKey.id]);
      await asKey(two.http.get('/v1/me'), s.apiKey.key).expect(200); // cached on two, grace end with it
      expect(await toolAnswer(two, s.mcpKey.key, 'get_me')).toMatchObject({ role: 'admin' });

      two.clock.advance(1_000); // far inside the cache's lifetime
      const old = await asKey(two.http.get('/v1/me'), s.apiKey.key);
      expectUnauthenticated(old);
      expect(old.body.error.message).toBe('This API key was rotated and its grace period is over.');
      const expired = await tool(two, s.mcpKey.key, 'get_me');
      expectUnauthenticated(expired);
      expect(expired.body.error.message).toBe('This MCP key has expired.');
      await asKey(two.http.get('/v1/me'), rotated.body.key).expect(200);
    });
  });
});
