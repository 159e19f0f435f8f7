import { AddressInfo } from 'node:net';
import { MikroORM } from '@mikro-orm/core';
import { request as httpRequest, Server } from 'node:http';
import { Controller, Get, Post } from '@nestjs/common';
import type { Response } from 'supertest';
import { DependencyUnavailableError, Public } from '@app/platform';
import { TestApp } from '../fixtures';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const FIVE_MB = 5 * 1024 * 1024;
const LEAKED = 'password authentication failed for user "estate" at /srv/app/leads.repository.ts:42';

/** Test-only routes that fail on purpose: the product has none. */
@Controller('test-only/failures')
class FailingController {
  @Get('throw')
  @Public()
  throws(): never {
    throw new Error(LEAKED);
  }

  @Post('reject')
  @Public()
  async rejects(): Promise<never> {
    await Promise.resolve();
    throw Object.assign(new TypeError(LEAKED), { status: 404, response: { data: LEAKED } });
  }

  @Get('dependency')
  @Public()
  dependencyDown(): never {
    throw new DependencyUnavailableError(LEAKED);
  }
}

/** `{ error: { code, message, status }, requestId }` with the header's request id. */
const envelope = (res: Response, code: string, status: number) => ({
  error: { code, message: expect.any(String), status },
  requestId: res.headers['x-request-id'],
});

describe('the HTTP pipeline', () => {
  let p: TestApp;
  let token: string;
  let port: number;

  beforeAll(async () => {
    p = await TestApp.start({ controllers: [FailingController] });
    const server = p.app.getHttpServer() as Server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    token = (await p.seed.organization({ name: 'Probe Agency', firstName: 'Pia', lastName: 'Probe' })).token;
  });
  afterAll(() => p.stop());

  /** A request with exactly these headers and bytes (supertest adds a Content-Type of its own). */
  const raw = (method: string, path: string, headers: Record<string, string>, body?: string) =>
    new Promise<{ status: number; headers: Record<string, unknown>; body: Record<string, unknown> }>(
      (resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: text ? JSON.parse(text) : {},
            }),
          );
        });
        req.on('error', reject);
        req.end(body);
      },
    );

  const asSession = { Authorization: '' };
  beforeAll(() => {
    asSession.Authorization = `Bearer ${token}`;
  });

  describe('request ids', () => {
    /** One request per kind of answer the brief names: success, 404, 401, 400, 413. */
    const answers = (): Promise<Response>[] => [
      p.http.get('/health'),
      p.http.get('/no/such/path'),
      p.http.get('/auth/session'),
      p.http.post('/tags').set(asSession).send({ name: 42 }),
      p.http
        .post('/tags')
        .set(asSession)
        .set('Content-Type', 'application/json')
        .send(`{"name":"${'x'.repeat(FIVE_MB)}"}`),
    ];

    it('puts a uuid X-Request-Id on every answer', async () => {
      const responses = await Promise.all(answers());
      expect(responses.map((res) => res.status)).toEqual([200, 404, 401, 400, 413]);
      for (const res of responses) expect(res.headers['x-request-id']).toMatch(UUID);
    });

    it('repeats the header value as requestId on every error', async () => {
      const errors = (await Promise.all(answers())).slice(1);
      for (const res of errors) {
        expect(res.body.requestId).toMatch(UUID);
        expect(res.body.requestId).toBe(res.headers['x-request-id']);
      }
    });

    it('gives every request its own id', async () => {
      const responses = await Promise.all([1, 2, 3, 4, 5].map(() => p.http.get('/no/such/path')));
      const ids = responses.map((res) => res.headers['x-request-id']);
      expect(new Set(ids).size).toBe(ids.length);
    });

    it('ignores an id the client sends', async () => {
      const sent = '11111111-2222-4333-8444-555555555555';
      const ok = await p.http.get('/health').set('X-Request-Id', sent);
      const failed = await p.http.get('/auth/session').set('X-Request-Id', sent);
      for (const res of [ok, failed]) {
        expect(res.headers['x-request-id']).toMatch(UUID);
        expect(res.headers['x-request-id']).not.toBe(sent);
      }
      expect(failed.body.requestId).toBe(failed.headers['x-request-id']);
    });
  });

  describe('unknown routes', () => {
    it.each([
      ['GET', '/no/such/path'],
      ['POST', '/v1/nothing-here'],
      ['DELETE', '/auth/session'],
      ['PUT', '/health'],
      ['PATCH', '/tags'],
      ['OPTIONS', '/auth/session'],
    ])('%s %s → 404 "No such endpoint."', async (method, path) => {
      const res = await p.http[method.toLowerCase() as 'get'](path).set(asSession);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        error: { code: 'NOT_FOUND', message: 'No such endpoint.', status: 404 },
        requestId: res.headers['x-request-id'],
      });
    });
  });

  describe('bodies', () => {
    it('reads a JSON body (control for the refusals below)', async () => {
      const res = await p.http.post('/tags').set(asSession).send({ name: 'Control' });
      expect(res.status).toBe(201);
    });

    it.each([
      ['text/plain', 'text/plain', '{"name":"Plain"}'],
      ['a form', 'application/x-www-form-urlencoded', 'name=Form'],
      ['a JSON look-alike type', 'application/jsonl', '{"name":"Lines"}'],
    ])('refuses %s body with 400 BAD_REQUEST', async (_label, type, body) => {
      const res = await p.http.post('/tags').set(asSession).set('Content-Type', type).send(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(envelope(res, 'BAD_REQUEST', 400));
    });

    it('refuses a body without any Content-Type with 400 BAD_REQUEST', async () => {
      const body = '{"name":"Untyped"}';
      const res = await raw(
        'POST',
        '/tags',
        { ...asSession, 'Content-Length': String(Buffer.byteLength(body)) },
        body,
      );
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: { code: 'BAD_REQUEST', message: expect.any(String), status: 400 },
        requestId: res.headers['x-request-id'],
      });
    });

    it('refuses a chunked body without a Content-Type', async () => {
      const res = await raw(
        'POST',
        '/tags',
        { ...asSession, 'Transfer-Encoding': 'chunked' },
        '{"name":"Chunky"}',
      );
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: { code: 'BAD_REQUEST' } });
    });

    it('refuses a JSON body in a charset it cannot read with 400, not 415', async () => {
      const res = await p.http
        .post('/tags')
        .set(asSession)
        .set('Content-Type', 'application/json; charset=latin1')
        .send('{"name":"Latin"}');
      expect(res.status).toBe(400);
      expect(res.body).toEqual(envelope(res, 'BAD_REQUEST', 400));
    });

    it.each(['{"name":', '{name: "x"}', '"just a string"', 'null'])(
      'refuses malformed or non-object JSON %p with 400 BAD_REQUEST',
      async (body) => {
        const res = await p.http
          .post('/tags')
          .set(asSession)
          .set('Content-Type', 'application/json')
          .send(body);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(envelope(res, 'BAD_REQUEST', 400));
      },
    );

    it('refuses a body over 5 MB with 413 PAYLOAD_TOO_LARGE', async () => {
      const res = await p.http
        .post('/tags')
        .set(asSession)
        .set('Content-Type', 'application/json')
        .send(`{"name":"${'x'.repeat(FIVE_MB)}"}`);
      expect(res.status).toBe(413);
      expect(res.body).toEqual(envelope(res, 'PAYLOAD_TOO_LARGE', 413));
    });

    it('reads a body just under 5 MB', async () => {
      const body = `{"name":"Large","padding":"${'x'.repeat(FIVE_MB - 100)}"}`;
      expect(Buffer.byteLength(body)).toBeLessThan(FIVE_MB);
      const res = await p.http
        .post('/tags')
        .set(asSession)
        .set('Content-Type', 'application/json')
        .send(body);
      expect(res.status).toBe(201);
    });

    it.each([
      ['{}', '{}'],
      ['an object', '{"reason":"done"}'],
      ['an array', '[]'],
    ])('refuses %s sent to a route that takes no body with 400 BAD_REQUEST', async (_label, body) => {
      const res = await p.http
        .post('/auth/sign-out')
        .set(asSession)
        .set('Content-Type', 'application/json')
        .send(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(envelope(res, 'BAD_REQUEST', 400));
      // refused before the handler ran: the session still works
      await p.http.get('/auth/session').set(asSession).expect(200);
    });

    it('refuses a body on a GET that takes none', async () => {
      const res = await p.http
        .get('/auth/session')
        .set(asSession)
        .set('Content-Type', 'application/json')
        .send('{}');
      expect(res.status).toBe(400);
      expect(res.body).toEqual(envelope(res, 'BAD_REQUEST', 400));
    });

    it('answers a route that takes no body when none is sent', async () => {
      const own = (await p.seed.organization({ name: 'Probe Agency', firstName: 'Pia', lastName: 'Probe' }))
        .token;
      await p.http.post('/auth/sign-out').auth(own, { type: 'bearer' }).expect(204);
    });
  });

  describe('validation', () => {
    it('answers 400 VALIDATION_FAILED with details.issues', async () => {
      const res = await p.http.post('/tags').set(asSession).send({ name: 42, color: 'red' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: {
          code: 'VALIDATION_FAILED',
          message: expect.any(String),
          status: 400,
          details: { issues: expect.any(Array) },
        },
        requestId: res.headers['x-request-id'],
      });
      const issues = res.body.error.details.issues as { path: string; message: string }[];
      issues.forEach((issue) =>
        expect(issue).toEqual({ path: expect.any(String), message: expect.any(String) }),
      );
      expect(issues.map((issue) => issue.path).sort()).toEqual(['color', 'name']);
    });

    it('treats a missing body as an empty object', async () => {
      const res = await p.http.post('/tags').set(asSession);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({
        code: 'VALIDATION_FAILED',
        details: { issues: [{ path: 'name' }] },
      });
    });

    it('ignores unknown body fields', async () => {
      const res = await p.http
        .post('/tags')
        .set(asSession)
        .send({ name: 'Extra', organizationId: '00000000-0000-4000-8000-000000000000', isAdmin: true });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ name: 'Extra' });
      expect(res.body).not.toHaveProperty('isAdmin');
    });

    it('refuses a JSON array sent to an object route with 400 VALIDATION_FAILED', async () => {
      const res = await p.http
        .post('/tags')
        .set(asSession)
        .send([{ name: 'Array' }]);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
      expect(res.body.error.details.issues).toEqual([
        { path: expect.any(String), message: expect.any(String) },
      ]);
    });
  });

  describe('server faults', () => {
    it.each([
      ['a thrown error', 'get', '/test-only/failures/throw', 500],
      [
        'a rejected promise carrying a status and an upstream body',
        'post',
        '/test-only/failures/reject',
        500,
      ],
      ['a dependency that is down', 'get', '/test-only/failures/dependency', 503],
    ])('renders %s without a stack or the upstream message', async (_label, method, path, status) => {
      const res = await p.http[method as 'get'](path);
      expect(res.status).toBe(status);
      expect(res.body).toEqual(envelope(res, 'INTERNAL', status));
      expect(res.text).not.toContain('leads.repository');
      expect(res.text).not.toContain('password');
      expect(res.text).not.toMatch(/\bat \S+ \(|stack/i);
    });

    it('asks for a retry when a dependency is down', async () => {
      const res = await p.http.get('/test-only/failures/dependency');
      expect(res.headers['retry-after']).toMatch(/^\d+$/);
    });
  });

  describe('service routes', () => {
    it('GET /health → 200 {status: "ok"}', async () => {
      const res = await p.http.get('/health');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'ok' });
      expect(res.headers['x-request-id']).toMatch(UUID);
    });

    it('GET /health → 503 in the envelope when the database does not answer', async () => {
      const orm = p.app.get(MikroORM);
      const check = jest.spyOn(orm, 'checkConnection').mockResolvedValue({
        ok: false,
        reason: 'connection refused',
        error: new Error('connection refused'),
      });
      try {
        const res = await p.http.get('/health');
        expect(res.status).toBe(503);
        expect(res.body).toEqual({
          error: { code: 'INTERNAL', message: expect.any(String), status: 503 },
          requestId: res.headers['x-request-id'],
        });
        expect(JSON.stringify(res.body)).not.toContain('connection refused');
      } finally {
        check.mockRestore();
      }
    });

    it('GET /v1/openapi.json names the scopes of every operation', async () => {
      const res = await p.http.get('/v1/openapi.json');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['x-request-id']).toMatch(UUID);
      const paths = res.body.paths as Record<string, Record<string, Record<string, unknown>>>;
      const operations = Object.entries(paths).flatMap(([path, item]) =>
        Object.entries(item).map(([method, op]) => ({ operation: `${method.toUpperCase()} ${path}`, op })),
      );
      expect(operations.length).toBeGreaterThan(10);
      const undeclared = operations
        .filter(({ op }) => !Array.isArray(op['x-required-scopes']))
        .map(({ operation }) => operation);
      expect(undeclared).toEqual([]);
      expect(paths['/v1/me']?.get?.['x-required-scopes']).toEqual([]);
    });

    it('GET /docs → 200 HTML', async () => {
      const res = await p.http.get('/docs').redirects(1);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).toMatch(/<html/i);
    });
  });
});
