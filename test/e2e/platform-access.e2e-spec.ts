import { Controller, Get } from '@nestjs/common';
import type { Response } from 'supertest';
import type Test from 'supertest/lib/test';
import { CurrentPrincipal, Principal, RequireScopes, Session } from '@app/platform';
import { TestApp } from '../fixtures';

const WWW_AUTHENTICATE = 'Bearer realm="estate-agency-api"';
const FAKE_API_KEY = `svc_pk_${'Ab3'.repeat(10)}Zz`;
const MCP_KEY = `svc_mcp_${'a1'.repeat(16)}`;
const OAUTH_TOKEN = `svc_oat_${'b2'.repeat(16)}`;
const INTEGRATION_KEY = `svc_int_${'c3'.repeat(16)}`;

/** Test-only routes: one per access declaration, and one with none. */
@Controller('test-only/access')
class AccessProbeController {
  /** Declares no access: must be refused whoever calls. */
  @Get('undeclared')
  undeclared() {
    return { reached: 'undeclared' };
  }

  @Get('scoped')
  @RequireScopes('crm:read')
  scoped(@CurrentPrincipal() actor: Principal) {
    return { reached: 'scoped', kind: actor.kind };
  }

  @Get('session')
  @Session()
  session(@CurrentPrincipal() actor: Principal) {
    return { reached: 'session', kind: actor.kind };
  }
}

/** A controller with no declaration anywhere. */
@Controller('test-only/bare')
class BareController {
  @Get()
  bare() {
    return { reached: 'bare' };
  }
}

describe('access: fail closed, one credential kind per route family', () => {
  let p: TestApp;
  let session: string;
  let crmKey: string;
  let propertiesKey: string;

  beforeAll(async () => {
    p = await TestApp.start({ controllers: [AccessProbeController, BareController] });
    const admin = await p.seed.organization({ name: 'Probe Agency', firstName: 'Pia', lastName: 'Probe' });
    session = admin.token;
    const makeKey = async (scopes: string[]) =>
      (await p.seed.apiKey(admin, { name: `probe ${scopes.join(' ')}`, scopes })).key;
    crmKey = await makeKey(['crm:read']);
    propertiesKey = await makeKey(['properties:read']);
  });
  afterAll(() => p.stop());

  const bearer = (req: Test, secret: string) => req.set('Authorization', `Bearer ${secret}`);

  const expectUnauthenticated = (res: Response) => {
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe(WWW_AUTHENTICATE);
    expect(res.body).toEqual({
      error: { code: 'UNAUTHENTICATED', message: expect.any(String), status: 401 },
      requestId: res.headers['x-request-id'],
    });
  };

  describe('a route that declares no access', () => {
    it.each([
      ['no credential', (req: Test) => req],
      ['a session token', (req: Test) => bearer(req, session)],
      ['an API key with every scope it could need', (req: Test) => bearer(req, crmKey)],
    ])('answers %s with 403 API_OPERATION_NOT_DECLARED', async (_label, send) => {
      for (const path of ['/test-only/access/undeclared', '/test-only/bare']) {
        const res = await send(p.http.get(path));
        expect(res.status).toBe(403);
        expect(res.body).toEqual({
          error: { code: 'API_OPERATION_NOT_DECLARED', message: expect.any(String), status: 403 },
          requestId: res.headers['x-request-id'],
        });
        expect(res.text).not.toContain('reached');
      }
    });
  });

  describe('an API-key route (@RequireScopes)', () => {
    const scoped = () => p.http.get('/test-only/access/scoped');

    it('opens to a key holding the scope (control)', async () => {
      const res = await bearer(scoped(), crmKey);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ reached: 'scoped', kind: 'apiKey' });
    });

    it('reads the key from Authorization: ApiKey and X-API-Key too', async () => {
      await scoped().set('Authorization', `ApiKey ${crmKey}`).expect(200);
      await scoped().set('X-API-Key', crmKey).expect(200);
    });

    it('lets X-API-Key win over a Bearer session token', async () => {
      const res = await bearer(scoped(), session).set('X-API-Key', crmKey);
      expect(res.status).toBe(200);
    });

    it('lets Authorization: ApiKey win over X-API-Key', async () => {
      await scoped().set('Authorization', `ApiKey ${crmKey}`).set('X-API-Key', propertiesKey).expect(200);
      const res = await scoped().set('Authorization', `ApiKey ${propertiesKey}`).set('X-API-Key', crmKey);
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('API_KEY_SCOPE_MISSING');
    });

    it('answers a key without the scope with 403 API_KEY_SCOPE_MISSING', async () => {
      const res = await bearer(scoped(), propertiesKey);
      expect(res.status).toBe(403);
      expect(res.body.error).toEqual({
        code: 'API_KEY_SCOPE_MISSING',
        message: expect.any(String),
        status: 403,
        details: { missing: ['crm:read'] },
      });
    });

    it('answers a session token with 401 and WWW-Authenticate', async () => {
      expectUnauthenticated(await bearer(scoped(), session));
      expectUnauthenticated(await bearer(p.http.get('/v1/me'), session));
    });

    it.each([
      ['an MCP key', MCP_KEY],
      ['an OAuth token', OAUTH_TOKEN],
      ['an integration key', INTEGRATION_KEY],
      ['an unknown secret', 'not-a-key-at-all'],
      ['an API key that does not exist', FAKE_API_KEY],
    ])('answers %s with 401', async (_label, secret) => {
      expectUnauthenticated(await bearer(scoped(), secret));
    });

    it('answers no credential with 401', async () => {
      expectUnauthenticated(await scoped());
      expectUnauthenticated(await p.http.get('/v1/me'));
    });

    it('never reads a key from the query string', async () => {
      for (const name of ['api_key', 'apiKey', 'key', 'access_token', 'token']) {
        expectUnauthenticated(await p.http.get(`/test-only/access/scoped?${name}=${crmKey}`));
      }
    });
  });

  describe('a session route', () => {
    const routes = ['/test-only/access/session', '/auth/session'];

    it('opens to a session token (control)', async () => {
      const res = await bearer(p.http.get('/test-only/access/session'), session);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ reached: 'session', kind: 'session' });
      await bearer(p.http.get('/auth/session'), session).expect(200);
    });

    it.each([
      ['a real API key', () => crmKey],
      ['a well-formed svc_pk_ key', () => FAKE_API_KEY],
      ['an MCP key', () => MCP_KEY],
      ['an OAuth token', () => OAUTH_TOKEN],
      ['an integration key', () => INTEGRATION_KEY],
    ])('answers %s with 401 and WWW-Authenticate', async (_label, secret) => {
      for (const path of routes) {
        expectUnauthenticated(await bearer(p.http.get(path), secret()));
        expectUnauthenticated(await p.http.get(path).set('X-API-Key', secret()));
      }
    });

    it('answers no credential with 401', async () => {
      for (const path of routes) expectUnauthenticated(await p.http.get(path));
    });

    it('never reads a session token from the query string', async () => {
      for (const path of routes) {
        expectUnauthenticated(await p.http.get(`${path}?token=${session}&access_token=${session}`));
      }
    });
  });
});
