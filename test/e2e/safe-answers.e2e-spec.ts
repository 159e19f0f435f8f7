import { gzipSync } from 'node:zlib';
import type { Response } from 'supertest';
import { DocumentRepository } from '../../libs/documents/src/domain/document.repository';
import { expectError, seedDocument, SignedIn, sql, TestApp } from '../fixtures';
import { insertBrochure } from '../fixtures/brochures';

/**
 * Pages and answers served safely (docs/security/headers-and-input.md): helmet's headers on every
 * family of answer, and bad input answered 4xx, never 500.
 */

const PAGE_CSP =
  "default-src 'none';img-src https: data:;style-src 'unsafe-inline';frame-ancestors 'none';" +
  "base-uri 'none';form-action 'none'";
const API_CSP = "default-src 'none';frame-ancestors 'none'";

/** What every answer carries, whatever its kind. */
const expectCommonHeaders = (res: Response) => {
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['referrer-policy']).toBe('no-referrer');
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
  expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
  expect(res.headers['x-powered-by']).toBeUndefined();
};

const expectJsonHeaders = (res: Response) => {
  expectCommonHeaders(res);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.headers['content-security-policy']).toBe(API_CSP);
  expect(res.headers['cache-control']).toBe('no-store');
};

const expectPageHeaders = (res: Response) => {
  expectCommonHeaders(res);
  expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(res.headers['content-security-policy']).toBe(PAGE_CSP);
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers['x-robots-tag']).toBe('noindex');
};

/** No inline script may run: `script-src` (or `default-src` standing for it) never allows it. */
const expectNoInlineScript = (csp: string) => {
  const directives = new Map(
    csp.split(';').map((part) => {
      const [name, ...values] = part.trim().split(/\s+/);
      return [name, values] as const;
    }),
  );
  const scripts = directives.get('script-src') ?? directives.get('default-src') ?? [];
  expect(scripts).not.toContain("'unsafe-inline'");
  expect(scripts).not.toContain("'unsafe-eval'");
  expect(scripts).not.toContain('*');
  expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
};

describe('pages and answers served safely', () => {
  let t: TestApp;
  let admin: SignedIn;
  let key: string;

  beforeAll(async () => {
    t = await TestApp.start();
    admin = await t.seed.organization();
    key = (await t.seed.apiKey(admin, ['crm:read', 'crm:write', 'properties:read'])).key;
  });
  afterAll(() => t.stop());

  describe('headers', () => {
    it('a /v1 answer, its error, a session answer, an unknown route: JSON headers, no-store', async () => {
      const answers = [
        await t.http.get('/v1/me').auth(key, { type: 'bearer' }).expect(200),
        await t.http.get('/v1/leads/999').auth(key, { type: 'bearer' }).expect(404),
        await t.http.get('/v1/me').expect(401),
        await t.http.get('/auth/session').auth(admin.token, { type: 'bearer' }).expect(200),
        await t.http.get('/organization/members').auth(admin.token, { type: 'bearer' }).expect(200),
        await t.http.get('/integrations/v1/me').expect(401),
        await t.http.post('/mcp').send({}).expect(401),
        await t.http.get('/no/such/route').set('Accept', 'text/html').expect(404),
        await t.http.get('/health/live').expect(200),
        await t.http.get('/v1/openapi.json').expect(200),
      ];
      for (const res of answers) expectJsonHeaders(res);
    });

    it('an answer refused before routing (a body over 5 MB, bad JSON) still carries them', async () => {
      const big = await t.http
        .post('/v1/leads')
        .auth(key, { type: 'bearer' })
        .set('Content-Type', 'application/json')
        .send(`{"x":"${'a'.repeat(5 * 1024 * 1024 + 10)}"}`);
      expect(big.status).toBe(413);
      expectJsonHeaders(big);
      const bad = await t.http
        .post('/v1/leads')
        .auth(key, { type: 'bearer' })
        .set('Content-Type', 'application/json')
        .send('{"x":');
      expect(bad.status).toBe(400);
      expectJsonHeaders(bad);
    });

    it('the listing family in its legacy shape too', async () => {
      const res = await t.http.get('/properties/agents').expect(401);
      expectJsonHeaders(res);
      expect(res.body.statusCode).toBe(401);
    });

    it('a brochure page (/b/), its 404 and 410 pages', async () => {
      const live = await insertBrochure(t, admin.organizationId, admin.userId);
      const revoked = await insertBrochure(t, admin.organizationId, admin.userId, { status: 'revoked' });
      const pages = [
        await t.http.get(`/b/${live.slug}`).expect(200),
        await t.http.get('/b/no-such-brochure-aaaaaaaaaa').expect(404),
        await t.http.get(`/b/${revoked.slug}`).expect(410),
      ];
      for (const res of pages) {
        expectPageHeaders(res);
        expectNoInlineScript(res.headers['content-security-policy']);
      }
    });

    it('a document page (/d/) and its 404 page; a JSON error of a page keeps the page policy', async () => {
      const { token } = await seedDocument(t, admin, { share: {} });
      const pages = [
        await t.http.get(`/d/${token}`).expect(200),
        await t.http.get('/d/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA').expect(404),
      ];
      for (const res of pages) {
        expectPageHeaders(res);
        expectNoInlineScript(res.headers['content-security-policy']);
      }
      const json = await t.http
        .get('/d/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')
        .set('Accept', 'application/json')
        .expect(404);
      expect(json.headers['content-security-policy']).toBe(PAGE_CSP);
      expect(json.headers['cache-control']).toBe('no-store');
    });

    it('Swagger UI (/docs): scripts from this origin only, styles inline allowed, never framed', async () => {
      const page = await t.http.get('/docs/').expect(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expectCommonHeaders(page);
      const csp = page.headers['content-security-policy'];
      expectNoInlineScript(csp);
      expect(csp).toContain("script-src 'self';");
      expect(csp).toContain("style-src 'self' 'unsafe-inline';");
      expect(csp).toContain("connect-src 'self';");
      // the page itself holds no inline script: every <script> names a file of this origin
      const scripts = [...page.text.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
      expect(scripts.length).toBeGreaterThan(0);
      for (const [, attributes, body] of scripts) {
        expect(attributes).toMatch(/src=/);
        expect(body.trim()).toBe('');
      }
      const init = await t.http.get('/docs/swagger-ui-init.js').expect(200);
      expect(init.headers['content-security-policy']).toBe(csp);
      expect(init.headers['x-content-type-options']).toBe('nosniff');
    });
  });

  describe('bad input answers 4xx, never 500', () => {
    const issuePaths = (res: Response): string[] =>
      res.body.error.details.issues.map((issue: { path: string }) => issue.path);

    it.each([1e20, 2 ** 53, 9223372036854775808])(
      'POST /v1/lead-routing/preview: leadId %d, past what an id holds → 400 naming leadId',
      async (leadId) => {
        const res = await t.http
          .post('/v1/lead-routing/preview')
          .auth(key, { type: 'bearer' })
          .send({ leadId });
        expectError(res, 400, 'VALIDATION_FAILED');
        expect(issuePaths(res)).toEqual(['leadId']);
      },
    );

    it('POST /network/buyer-requests: leadId past the integers → 400 naming it', async () => {
      const res = await t.http
        .post('/network/buyer-requests')
        .auth(admin.token, { type: 'bearer' })
        .send({ leadId: 1e20 });
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(issuePaths(res)).toContain('leadId');
    });

    it('POST /properties/aggregations: boundingBox as an array → 400 in the legacy shape', async () => {
      for (const boundingBox of [[], [{ lat: 1, lon: 2 }]]) {
        const res = await t.http
          .post('/properties/aggregations')
          .auth(key, { type: 'bearer' })
          .send({ aggregations: ['propertyType'], boundingBox });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          statusCode: 400,
          code: 'VALIDATION_FAILED',
          message: 'boundingBox: boundingBox must be an object',
          missingScopes: [],
          requiredScopes: ['properties:read'],
        });
      }
    });

    it('POST /properties/search: filters or a corner as an array → 400 naming the field', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ filters: [] }, 'filters: filters must be an object'],
        [
          { boundingBox: { northEast: [], southWest: { lat: 0, lon: 0 } } },
          'boundingBox.northEast: northEast must be an object',
        ],
      ];
      for (const [body, message] of cases) {
        const res = await t.http.post('/properties/search').auth(key, { type: 'bearer' }).send(body);
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('VALIDATION_FAILED');
        expect(res.body.message).toBe(message);
      }
    });

    it('a list given as an object where a list of objects goes → 400 naming it', async () => {
      const res = await t.http
        .put('/calendar/working-hours')
        .auth(admin.token, { type: 'bearer' })
        .send({ zone: 'Europe/Madrid', days: { 0: { weekday: 1 } } });
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(issuePaths(res)).toEqual(['days']);
    });

    it('an array as an item of a list of objects (listings: [[]]) → 400 naming the item', async () => {
      const writer = (await t.seed.apiKey(admin, ['brochures:write', 'properties:read'])).key;
      const res = await t.http
        .post('/v1/brochures')
        .auth(writer, { type: 'bearer' })
        .send({ listings: [[]], themeName: 'luxury' });
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(issuePaths(res)).toEqual(['listings.0']);
    });

    it('a NUL in a listing id of a document (PUT /documents/{id}/listings/a%00b) → 400, not 503', async () => {
      const { id } = await seedDocument(t, admin, { visibility: 'organization' });
      const res = await t.http.put(`/documents/${id}/listings/a%00b`).auth(admin.token, { type: 'bearer' });
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(issuePaths(res)).toEqual(['listingId']);
    });

    it('a search word past what the typo pass can compare (300 letters) → 200, not 500', async () => {
      // a stored word the long one resembles, so the typo pass has a candidate to measure
      const lead = await t.seed.lead(admin);
      await t.http
        .post(`/v1/leads/${lead.id}/notes`)
        .auth(key, { type: 'bearer' })
        .send({ content: 'Ask about the xxxxxxxx terrace' })
        .expect(201);
      await t.http
        .post('/v1/search')
        .auth(key, { type: 'bearer' })
        .send({ query: 'x'.repeat(300) })
        .expect(200);
    });

    it('a price in exponent form (1e-7) → 400 naming it, in both shapes', async () => {
      const res = await t.http
        .post('/network/buyer-requests')
        .auth(admin.token, { type: 'bearer' })
        .send({ priceMax: 1e-7 });
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(issuePaths(res)).toContain('priceMax');
      const writer = (await t.seed.apiKey(admin, ['properties:write'])).key;
      const listing = await t.http
        .post('/properties')
        .auth(writer, { type: 'bearer' })
        .send({ price: 5e-324 });
      expect(listing.status).toBe(400);
      expect(listing.body.code).toBe('VALIDATION_FAILED');
    });

    it('attaching a document deleted since it was read (a race) → 404, not 500', async () => {
      const lead = await t.seed.lead(admin);
      const { id } = await seedDocument(t, admin, { visibility: 'organization' });
      const writer = (await t.seed.apiKey(admin, ['documents:read', 'documents:write', 'crm:read'])).key;
      const documents = t.get(DocumentRepository);
      const read = documents.findInOrg.bind(documents);
      // the other request's delete commits right after this one read the document
      jest.spyOn(documents, 'findInOrg').mockImplementationOnce(async (...args) => {
        const found = await read(...args);
        await sql(t, 'delete from documents where id = ?', [id]);
        return found;
      });
      const res = await t.http.put(`/v1/leads/${lead.id}/documents/${id}`).auth(writer, { type: 'bearer' });
      expectError(res, 404, 'NOT_FOUND');
      expect(res.body.error.message).toBe('Document not found.');
    });

    it('a lone surrogate in a string (an email checked by validator) → 400 naming it, not 500', async () => {
      const res = await t.http
        .post('/v1/leads')
        .auth(key, { type: 'bearer' })
        .send({ firstName: 'Ana', lastName: 'Ruiz', email: 'a\ud800@x.es', phoneNumber: '+34600000000' });
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(res.body.error.details.issues).toEqual([
        { path: 'email', message: 'must be well-formed Unicode text (a lone surrogate)' },
      ]);
    });

    it('pinning a document deleted since it was read (its key fails at COMMIT) → 409, not 500', async () => {
      const { id } = await seedDocument(t, admin, { visibility: 'organization' });
      const documents = t.get(DocumentRepository);
      const read = documents.findInOrg.bind(documents);
      jest.spyOn(documents, 'findInOrg').mockImplementationOnce(async (...args) => {
        const found = await read(...args);
        await sql(t, 'delete from documents where id = ?', [id]);
        return found;
      });
      const res = await t.http.put(`/documents/${id}/pin`).auth(admin.token, { type: 'bearer' });
      expectError(res, 409, 'CONFLICT');
      expect(res.body.error.message).toBe(
        'A record this request names changed meanwhile; read it again before retrying.',
      );
      // and a retry finds it gone
      const again = await t.http.put(`/documents/${id}/pin`).auth(admin.token, { type: 'bearer' });
      expectError(again, 404, 'NOT_FOUND');
    });

    it.each([
      ['gzip', gzipSync(Buffer.from('{"firstName":"Ana"}')).subarray(0, 12)],
      ['deflate', Buffer.from('not deflated at all')],
      ['br', Buffer.from('not brotli either')],
    ])('a %s body that does not inflate → 400 BAD_REQUEST', async (encoding, bytes) => {
      const res = await t.http
        .post('/v1/leads')
        .auth(key, { type: 'bearer' })
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', encoding)
        .send(bytes);
      expectError(res, 400, 'BAD_REQUEST');
      expect(res.body.error.message).toBe('The body could not be decompressed.');
    });
  });
});
