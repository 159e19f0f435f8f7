import type { OpenAPIObject, OperationObject, ReferenceObject, SchemaObject } from '@nestjs/swagger';
import { TIMELINE_TYPES } from '@app/crm';
import { LEAD_LIST_ITEM_FIELDS, TestApp } from '../fixtures';

/**
 * The served `/v1/openapi.json` is complete: every operation names its scopes, its success answer
 * with a schema, and the errors it can give in the envelope.
 */
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
const PUBLIC = [
  'POST /auth/sign-up',
  'POST /auth/sign-in',
  'POST /auth/accept-invitation',
  'GET /health',
  'GET /health/ready',
  'GET /health/live',
  'GET /d/{token}',
  'GET /b/{slug}',
  'GET /media/{id}.{ext}',
  'GET /media/{id}/{file}',
];

type Schema = SchemaObject | ReferenceObject;

/** The listing families answer errors in the legacy shape (INTERFACES.md "Listings"). */
const LISTING_FAMILY = /^\/(properties|property-sources)(\/|$)/;

interface Operation {
  route: string;
  path: string;
  op: OperationObject & Record<string, unknown>;
}

function operations(document: OpenAPIObject): Operation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    HTTP_METHODS.flatMap((method) => {
      const op = item[method];
      return op ? [{ route: `${method.toUpperCase()} ${path}`, path, op: op as Operation['op'] }] : [];
    }),
  );
}

const jsonSchema = (op: OperationObject, status: string): Schema | undefined => {
  const response = op.responses[status] as { content?: Record<string, { schema?: Schema }> } | undefined;
  return response?.content?.['application/json']?.schema;
};

/**
 * A public page's answer: `text/html` text (INTERFACES.md "Public pages"); or a served file's: its
 * image types as binary strings (`GET /media/{id}.{ext}`).
 */
const htmlPage = (op: OperationObject, status: string): boolean => {
  const response = op.responses[status] as { content?: Record<string, { schema?: Schema }> } | undefined;
  const schema = response?.content?.['text/html']?.schema;
  if (schema) return !('$ref' in schema) && schema.type === 'string';
  const images = Object.entries(response?.content ?? {}).filter(([type]) => type.startsWith('image/'));
  return (
    images.length > 0 &&
    images.every(
      ([, media]) => !!media.schema && !('$ref' in media.schema) && media.schema.format === 'binary',
    )
  );
};

/** Follows `$ref`s into `components.schemas`. */
function resolve(document: OpenAPIObject, schema: Schema | undefined): SchemaObject | undefined {
  if (!schema) return undefined;
  if ('$ref' in schema) {
    const name = schema.$ref.replace('#/components/schemas/', '');
    return resolve(document, document.components?.schemas?.[name]);
  }
  return schema;
}

function property(
  document: OpenAPIObject,
  schema: Schema | undefined,
  name: string,
): SchemaObject | undefined {
  return resolve(document, resolve(document, schema)?.properties?.[name]);
}

describe('OpenAPI document', () => {
  let t: TestApp;
  let document: OpenAPIObject;
  let ops: Operation[];
  const op = (route: string) => {
    const found = ops.find((o) => o.route === route);
    if (!found) throw new Error(`${route} is not documented`);
    return found.op;
  };
  /** The description of one documented answer ('' when the answer is not documented). */
  const said = (route: string, status: string) =>
    (op(route).responses[status] as { description?: string } | undefined)?.description ?? '';

  beforeAll(async () => {
    t = await TestApp.start();
    document = (await t.http.get('/v1/openapi.json').expect(200)).body as OpenAPIObject;
    ops = operations(document);
  });
  afterAll(() => t.stop());

  it('documents the routes', () => {
    expect(ops.length).toBeGreaterThan(40);
    for (const route of PUBLIC) expect(op(route)).toBeDefined();
  });

  it('names x-required-scopes on every operation', () => {
    const missing = ops.filter(({ op }) => !Array.isArray(op['x-required-scopes'])).map((o) => o.route);
    expect(missing).toEqual([]);
  });

  it('gives every operation a 2xx answer, with a JSON schema unless it is 204 or an HTML page', () => {
    const noSuccess = ops.filter(({ op }) => !Object.keys(op.responses).some((s) => /^2\d\d$/.test(s)));
    expect(noSuccess.map((o) => o.route)).toEqual([]);
    const noSchema = ops.flatMap(({ route, op }) =>
      Object.keys(op.responses)
        .filter((status) => /^2\d\d$/.test(status) && status !== '204')
        .filter((status) => {
          const schema = jsonSchema(op, status);
          if (htmlPage(op, status)) return false;
          return !schema || (!('$ref' in schema) && !schema.type && !schema.items && !schema.properties);
        })
        .map((status) => `${route} ${status}`),
    );
    expect(noSchema).toEqual([]);
  });

  it('documents every error answer with the error envelope, the listing families with the legacy shape', () => {
    const bare = ops.flatMap(({ route, path, op }) =>
      Object.keys(op.responses)
        .filter((status) => /^[45]\d\d$/.test(status))
        .filter((status) => {
          const schema = jsonSchema(op, status);
          const view = LISTING_FAMILY.test(path) ? '/LegacyErrorView' : '/ErrorEnvelopeView';
          return !schema || !('$ref' in schema) || !schema.$ref.endsWith(view);
        })
        .map((status) => `${route} ${status}`),
    );
    expect(bare).toEqual([]);
  });

  it('says on every listing-family operation that it takes API keys and answers the legacy shape', () => {
    const listing = ops.filter(({ path }) => LISTING_FAMILY.test(path));
    expect(listing.length).toBeGreaterThan(0);
    for (const { op } of listing) {
      expect(op.description).toContain('`/properties/*`, `/property-sources/*`');
      expect(op.description).toContain('`{statusCode, code, message, missingScopes, requiredScopes}`');
      expect(op.security).toEqual([{ apiKey: [] }, { apiKeyHeader: [] }, { apiKeyScheme: [] }]);
    }
    const legacy = resolve(document, { $ref: '#/components/schemas/LegacyErrorView' });
    expect(legacy?.required?.sort()).toEqual(
      ['code', 'message', 'missingScopes', 'requiredScopes', 'statusCode'].sort(),
    );
  });

  it('documents 400 and 404 on every operation with a path parameter', () => {
    const withParams = ops.filter(({ path }) => /\{\w+\}/.test(path));
    expect(withParams.length).toBeGreaterThan(10);
    // a connector's upsert by its own id creates what it does not find: no 404
    const upsert = (route: string) => /^PUT \/integrations\/v1\/[a-z]+\/\{externalId\}$/.test(route);
    const missing = withParams.flatMap(({ route, op }) =>
      ['400', '404']
        .filter((status) => !op.responses[status] && !(status === '404' && upsert(route)))
        .map((status) => `${route} ${status}`),
    );
    expect(missing).toEqual([]);
  });

  it('documents 401 on every operation that is not public', () => {
    const missing = ops
      .filter(({ route }) => !PUBLIC.includes(route))
      .filter(({ op }) => !op.responses['401'])
      .map((o) => o.route);
    expect(missing).toEqual([]);
  });

  it('names the 404 message of the record', () => {
    expect(said('GET /v1/leads/{leadId}', '404')).toContain('`Lead not found.`');
    expect(said('PATCH /v1/notes/{noteId}', '404')).toContain('`Note not found.`');
    expect(said('PATCH /v1/tasks/{taskId}', '404')).toContain('`Task not found.`');
    expect(said('PATCH /api-keys/{id}', '404')).toContain('`API key not found.`');
  });

  it('names the 409, 403 and 410 codes where they apply', () => {
    expect(said('POST /api-keys', '409')).toContain('API_KEY_LIMIT_REACHED');
    expect(said('PATCH /api-keys/{id}', '409')).toContain('API_KEY_NOT_ACTIVE');
    expect(said('POST /api-keys/{id}/rotate', '409')).toContain('API_KEY_ALREADY_ROTATED');
    expect(said('PATCH /api-keys/{id}', '403')).toContain('API_KEY_NOT_YOURS');
    expect(said('POST /api-keys', '403')).toContain('API_KEY_SCOPE_NOT_GRANTABLE');
    expect(said('POST /v1/leads', '409')).toContain('IDEMPOTENCY_KEY_REUSED');
    expect(said('POST /auth/sign-up', '409')).toContain('CONFLICT');
    expect(said('POST /auth/accept-invitation', '410')).toContain('GONE');
    expect(said('GET /health', '503')).toContain('INTERNAL');
  });

  it('lists every timeline type in the timeline entry schema, with a payload per type', () => {
    const page = jsonSchema(op('GET /v1/leads/{leadId}/timeline'), '200');
    const entry = resolve(document, property(document, page, 'data')?.items);
    const type = resolve(document, entry?.properties?.type);
    expect([...(type?.enum ?? [])].sort()).toEqual([...TIMELINE_TYPES].sort());
    const payloadKey = (value: string) => value.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    for (const value of TIMELINE_TYPES) expect(entry?.properties).toHaveProperty(payloadKey(value));
    expect(entry?.properties).toHaveProperty('_preview');
    for (const field of ['hasMore', 'nextOffset', 'total', 'totalIsExact', 'tasksById', 'dealsById'])
      expect(resolve(document, page)?.properties).toHaveProperty(field);
    const task = property(document, page, 'tasksById')?.additionalProperties as Schema;
    expect(resolve(document, task)?.properties).toHaveProperty('dueDate');
  });

  it('gives the Lead schema every list-item field of the spec', () => {
    const item = resolve(document, property(document, jsonSchema(op('GET /v1/leads'), '200'), 'data')?.items);
    const single = resolve(document, jsonSchema(op('GET /v1/leads/{leadId}'), '200'));
    for (const lead of [item, single]) {
      expect(Object.keys(lead?.properties ?? {})).toEqual(expect.arrayContaining(LEAD_LIST_ITEM_FIELDS));
      expect(lead?.required).toEqual(expect.arrayContaining(LEAD_LIST_ITEM_FIELDS));
    }
    expect(Object.keys(single?.properties ?? {})).toEqual(
      expect.arrayContaining(['source', 'leadType', 'createdAt', 'channels']),
    );
    expect(Object.keys(resolve(document, jsonSchema(op('GET /v1/leads'), '200'))?.properties ?? {})).toEqual(
      expect.arrayContaining(['data', 'hasMore', 'page', 'limit', 'total']),
    );
  });

  it('gives every operation a summary, a tag declared at the top and a description of who may call it', () => {
    const declaredTags = new Set((document.tags ?? []).map((tag) => tag.name));
    const faults = ops.flatMap(({ route, op }) => [
      ...(op.summary?.trim() ? [] : [`${route}: no summary`]),
      ...(op.tags?.length && op.tags.every((tag) => declaredTags.has(tag)) ? [] : [`${route}: tag`]),
      ...(/\*\*(API key|Integration key|MCP key|Session token|Public)\*\*/.test(op.description ?? '')
        ? []
        : [`${route}: access`]),
    ]);
    expect(faults).toEqual([]);
    expect((document.tags ?? []).every((tag) => !!tag.description)).toBe(true);
    expect(document.servers?.length).toBeGreaterThan(0);
  });

  it('names scopes, plan, admin rule and error codes in the description, from the declarations', () => {
    const create = op('POST /v1/leads').description ?? '';
    expect(create).toContain('`crm:write`');
    expect(create).toContain('SUBSCRIPTION_REQUIRED');
    expect(create).toContain('Idempotency-Key');
    expect(create).toMatch(/409 [^;]*`IDEMPOTENCY_KEY_REUSED`/);
    expect(op('GET /v1/me').description).toContain('no scope required');
    expect(op('POST /organization/invitations').description).toContain('**Admin only**');
    expect(op('POST /api-keys').description).toMatch(/409 [^;]*`API_KEY_LIMIT_REACHED`/);
  });

  it('types every field: no nullable field documented as an untyped object', () => {
    const untyped = Object.entries(document.components?.schemas ?? {}).flatMap(([name, schema]) =>
      Object.entries((schema as SchemaObject).properties ?? {})
        .filter(([, p]) => {
          const field = p as SchemaObject;
          return field.type === 'object' && !field.properties && field.additionalProperties === undefined;
        })
        .map(([field]) => `${name}.${field}`),
    );
    expect(untyped).toEqual([]);
    const body = (route: string) =>
      (op(route).requestBody as { content: Record<string, { schema: Schema }> }).content['application/json']
        .schema;
    for (const field of ['companyName', 'language'])
      expect(property(document, body('POST /v1/leads'), field)).toMatchObject({
        type: 'string',
        nullable: true,
      });
    for (const field of ['firstName', 'lastName', 'email', 'phoneNumber', 'companyName'])
      expect(property(document, body('PATCH /v1/leads/{leadId}'), field)).toMatchObject({
        type: 'string',
        nullable: true,
      });
    expect(property(document, body('POST /v1/tasks'), 'description')).toMatchObject({ type: 'string' });
    expect(property(document, body('PATCH /organization/teams/{teamId}'), 'color')).toMatchObject({
      type: 'string',
    });
  });

  it('opens the public routes with `security: []` and declares the three API-key forms', () => {
    for (const route of PUBLIC) expect(op(route).security).toEqual([]);
    const schemes = document.components?.securitySchemes ?? {};
    for (const scheme of Object.values(schemes)) expect(scheme).not.toHaveProperty('bearerFormat');
    expect(schemes.apiKeyHeader).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(schemes.apiKeyScheme).toMatchObject({ type: 'apiKey', in: 'header', name: 'Authorization' });
  });

  it('declares the response headers and the Idempotency-Key request header', () => {
    const headers = (route: string, status: string) =>
      Object.keys((op(route).responses[status] as { headers?: Record<string, unknown> }).headers ?? {});
    const withoutRequestId = ops.flatMap(({ route, op }) =>
      Object.entries(op.responses)
        .filter(([, response]) => !('X-Request-Id' in ((response as { headers?: object }).headers ?? {})))
        .map(([status]) => `${route} ${status}`),
    );
    expect(withoutRequestId).toEqual([]);
    expect(headers('GET /v1/leads', '200')).toEqual(
      expect.arrayContaining(['X-RateLimit-Limit-short', 'X-RateLimit-Remaining-short']),
    );
    expect(headers('GET /v1/leads', '429')).toEqual(
      expect.arrayContaining(['Retry-After', 'X-RateLimit-Reset']),
    );
    expect(headers('GET /v1/leads', '401')).toContain('WWW-Authenticate');
    expect(headers('POST /v1/leads', '201')).toContain('Idempotent-Replayed');
    expect(headers('GET /v1/leads', '200')).not.toContain('Idempotent-Replayed');
    for (const route of ['POST /v1/leads', 'POST /v1/leads/{leadId}/notes', 'POST /v1/tasks'])
      expect(op(route).parameters).toContainEqual({ $ref: '#/components/parameters/IdempotencyKey' });
    expect(document.components?.parameters?.IdempotencyKey).toMatchObject({
      name: 'Idempotency-Key',
      in: 'header',
    });
  });
});
