import type { INestApplication, Type } from '@nestjs/common';
import { ModulesContainer, Reflector } from '@nestjs/core';
import {
  DocumentBuilder,
  OpenAPIObject,
  SwaggerModule,
  type HeaderObject,
  type OperationObject,
  type ParameterObject,
  type ReferenceObject,
  type ResponseObject,
  type SchemaObject,
} from '@nestjs/swagger';
import { ACCESS, AccessDeclaration, ADMIN_ONLY, PLAN_REQUIRED } from '../auth/access.decorators';
import { STATUS_OF } from '../errors/error-codes';
import { IDEMPOTENT } from './idempotency/idempotency.interceptor';
import { INTEGRATION_RATE_WINDOWS, RATE_WINDOWS } from './rate-limit/rate-limit.module';
import { REQUEST_ID_HEADER } from './request-id.middleware';

const TAG_DESCRIPTIONS: Record<string, string> = {
  health: 'Whether the API and its database answer. No credential.',
  'dashboard: sign-in':
    'Sign up, sign in and out, accept an invitation: the session token for the dashboard.',
  'dashboard: organization': 'Members, invitations and teams of the signed-in agency (session token).',
  'dashboard: tags': 'The agency’s lead tags (session token).',
  'API keys': 'Create, list, change, rotate and revoke the agency’s API keys (session token).',
  properties:
    'Listings: search, read, write, media, publications (API key; errors in the legacy shape `{statusCode, code, ' +
    'message, missingScopes, requiredScopes}`).',
  'property-sources':
    'Connected property sources: feeds and portals (API key, `sources:read`; errors in the legacy shape).',
  'v1: identity and people': 'The calling key, and the agency’s members, teams and tags (API key).',
  'v1: leads': 'Leads: create, list, read, change, statuses, tags, assignees, timeline (API key).',
  'v1: notes': 'Notes on a lead (API key).',
  'v1: tasks': 'Tasks on leads (API key).',
  'v1: calendar': 'Tasks by due date (API key).',
  'v1: calls, conversation, email':
    'What connectors stored on a lead: calls with transcripts and analyses, chat messages, emails (API key, read only).',
  'integration keys': 'Create, list and revoke the agency’s integration keys for connectors (admin session).',
  'integrations: connector':
    'Connectors push records with an integration key (`Authorization: Bearer svc_int_…`): 600 calls a ' +
    'minute, 3,000 per 10 minutes, 15,000 an hour per key across every `/integrations/v1` route.',
};

const header = (description: string, schema: SchemaObject = { type: 'string' }): HeaderObject => ({
  description,
  schema,
});
const integer: SchemaObject = { type: 'integer', minimum: 0 };
const ref = (kind: 'headers' | 'parameters', name: string): ReferenceObject => ({
  $ref: `#/components/${kind}/${name}`,
});

/** Response headers, declared once in `components.headers` and referenced from every answer that sends them. */
const RATE_HEADERS = RATE_WINDOWS.flatMap(({ name, limit, ttl }, i) => [
  [
    `X-RateLimit-Limit-${name}`,
    header(
      `Calls this key may make to this route per ${ttl / 1000} s (${limit} unless the key's limit is raised; ` +
        `an integration key: ${INTEGRATION_RATE_WINDOWS[i].limit} across every /integrations/v1 route).`,
      integer,
    ),
  ],
  [
    `X-RateLimit-Remaining-${name}`,
    header(`Calls left to this key on this route in the current ${ttl / 1000} s window.`, integer),
  ],
]) as [string, HeaderObject][];

const HEADERS: Record<string, HeaderObject> = {
  [REQUEST_ID_HEADER]: header(
    'The request id, also in error bodies and the logs; send it when reporting a problem.',
  ),
  ...Object.fromEntries(RATE_HEADERS),
  'Retry-After': header('Seconds to wait before retrying.', integer),
  'X-RateLimit-Reset': header('When the window that frees last ends (Unix time, seconds).', integer),
  'Idempotent-Replayed': header(
    '`true` when this answer is the stored answer of an earlier request with the same `Idempotency-Key`.',
    {
      type: 'string',
      enum: ['true'],
    },
  ),
  'WWW-Authenticate': header('The authentication scheme (`Bearer realm="…"`).'),
};

const IDEMPOTENCY_KEY: ParameterObject = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: '1-255 visible ASCII characters; a retry with the same key and body replays the first answer.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
};

/** What the guards read of one route, found by its operation id. */
interface RouteMetadata {
  access?: AccessDeclaration;
  adminOnly: boolean;
  requiresPlan: boolean;
  idempotent: boolean;
}

const operationId = (controller: string, method: string) =>
  `${controller.replace(/Controller$/, '')}_${method}`;

/** The declarations of every controller method, read with the same keys the guards read. */
function routeMetadata(app: INestApplication): Map<string, RouteMetadata> {
  const reflector = new Reflector();
  const routes = new Map<string, RouteMetadata>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type | null;
      if (!controller) continue;
      let proto: object | null = controller.prototype as object;
      while (proto && proto !== Object.prototype) {
        for (const method of Object.getOwnPropertyNames(proto)) {
          const handler = (proto as Record<string, unknown>)[method];
          if (method === 'constructor' || typeof handler !== 'function') continue;
          const id = operationId(controller.name, method);
          if (routes.has(id)) continue;
          const targets = [handler, controller];
          routes.set(id, {
            access: reflector.getAllAndOverride(ACCESS, targets),
            adminOnly: reflector.getAllAndOverride(ADMIN_ONLY, targets) === true,
            requiresPlan: reflector.getAllAndOverride(PLAN_REQUIRED, targets) === true,
            idempotent: reflector.get(IDEMPOTENT, handler) !== undefined,
          });
        }
        proto = Object.getPrototypeOf(proto) as object | null;
      }
    }
  }
  return routes;
}

/** Words of a declared answer's description that are codes of the spec's table. */
const errorCodes = (text: string): string[] => [
  ...new Set((text.match(/\b[A-Z][A-Z0-9_]+\b/g) ?? []).filter((word) => word in STATUS_OF)),
];

/** What every listing-family operation says of its credential and its error shape. */
const LISTING_FAMILY =
  'Listing family (`/properties/*`, `/property-sources/*`): API keys only (a session token or an integration ' +
  'key is 401); keys made before 4 October 2026 and keys with allowed websites are taken; a request with an ' +
  "`Origin` header must name one of the key's allowed websites (a key with a server scope takes none); an " +
  'older key whose owner left the agency goes on as an agency key until revoked. Errors answer in the legacy ' +
  'shape `{statusCode, code, message, missingScopes, requiredScopes}` (`LegacyErrorView`), not the envelope.';

const ERROR_ENVELOPE_REF = '#/components/schemas/ErrorEnvelopeView';
const LEGACY_ERROR_REF = '#/components/schemas/LegacyErrorView';

/**
 * A listing-family operation answers every error in the legacy shape: an error answer documented
 * with the envelope by a shared decorator (`@Idempotent`, `@MultipartUpload`) is given the legacy
 * schema instead.
 */
function legacyErrorAnswers(op: OperationObject): void {
  for (const [status, response] of Object.entries(op.responses)) {
    if (!/^[45]\d\d$/.test(status)) continue;
    for (const media of Object.values((response as ResponseObject).content ?? {})) {
      const schema = media.schema as ReferenceObject | undefined;
      if (schema?.$ref === ERROR_ENVELOPE_REF) media.schema = { $ref: LEGACY_ERROR_REF };
    }
  }
}

/** "Who may call it" and the error codes, generated from the declarations and the declared answers. */
function describe(op: OperationObject, route: RouteMetadata): string {
  const lines: string[] = [];
  const access = route.access;
  if (access?.kind === 'apiKey') {
    lines.push(
      access.scopes.length
        ? `**API key** with scope${access.scopes.length > 1 ? 's' : ''} ${access.scopes.map((s) => `\`${s}\``).join(', ')}.`
        : '**API key**, no scope required.',
    );
    if (access.family === 'listings') lines.push(LISTING_FAMILY);
  } else if (access?.kind === 'integration')
    lines.push('**Integration key** (`Authorization: Bearer svc_int_…`); no other credential opens it.');
  else if (access?.kind === 'mcp')
    lines.push('**MCP key** (`Authorization: Bearer svc_mcp_…`); no other credential opens it.');
  else if (access?.kind === 'session') lines.push('**Session token** (dashboard).');
  else if (access?.kind === 'public') lines.push('**Public**: no credential.');
  if (route.adminOnly)
    lines.push(
      access?.kind === 'apiKey' && access.family === 'listings'
        ? "**Admin only**: a member's key gets 403 `ORG_ADMIN_REQUIRED` (an agency key passes)."
        : '**Admin only**: a member gets 403 `ORG_ADMIN_REQUIRED`.',
    );
  if (route.requiresPlan) lines.push('**Active plan required**: 403 `SUBSCRIPTION_REQUIRED` otherwise.');
  if (route.idempotent) lines.push('**Idempotent**: send `Idempotency-Key` to retry safely.');
  const errors = Object.entries(op.responses)
    .filter(([status]) => /^[45]\d\d$/.test(status))
    .map(([status, response]) => {
      const text = (response as ResponseObject).description ?? '';
      const codes = errorCodes(text);
      return `${status}${codes.length ? ` ${codes.map((c) => `\`${c}\``).join(', ')}` : ''}`;
    });
  if (errors.length) lines.push(`Errors: ${errors.join('; ')}.`);
  return [op.description, lines.join('\n\n')].filter(Boolean).join('\n\n');
}

const responseHeaders = (status: string, route: RouteMetadata): Record<string, ReferenceObject> => {
  const names = [REQUEST_ID_HEADER];
  const limited = route.access?.kind === 'apiKey' || route.access?.kind === 'integration';
  if (limited && status !== '401' && status !== '503') names.push(...RATE_HEADERS.map(([name]) => name));
  if (status === '429') names.push('Retry-After', 'X-RateLimit-Reset');
  if (status === '503') names.push('Retry-After');
  if (status === '401') names.push('WWW-Authenticate');
  if (route.idempotent && /^2\d\d$/.test(status)) names.push('Idempotent-Replayed');
  return Object.fromEntries(names.map((name) => [name, ref('headers', name)]));
};

/** Untyped fields (a `string | null` property reflects as Object) make generated clients refuse real values. */
function assertTyped(document: OpenAPIObject): void {
  const untyped = Object.entries(document.components?.schemas ?? {}).flatMap(([name, schema]) =>
    Object.entries((schema as SchemaObject).properties ?? {})
      .filter(([, property]) => {
        const p = property as SchemaObject;
        return p.type === 'object' && !p.properties && p.additionalProperties === undefined;
      })
      .map(([property]) => `${name}.${property}`),
  );
  if (untyped.length)
    throw new Error(`OpenAPI: untyped properties (give @ApiProperty a \`type\`): ${untyped.join(', ')}`);
}

/**
 * The document's finishing pass: descriptions, security, headers and tags from the route
 * declarations (one source with the guards), so a new route needs only `@ApiOperation({ summary })`.
 */
function finish(document: OpenAPIObject, routes: Map<string, RouteMetadata>): OpenAPIObject {
  assertTyped(document);
  const components = (document.components ??= {});
  components.headers = { ...components.headers, ...HEADERS };
  components.parameters = { ...components.parameters, IdempotencyKey: IDEMPOTENCY_KEY };
  const usedTags = new Set<string>();
  for (const item of Object.values(document.paths)) {
    for (const method of ['get', 'put', 'post', 'delete', 'patch'] as const) {
      const op = item[method];
      if (!op) continue;
      const route = routes.get(op.operationId ?? '') ?? {
        adminOnly: false,
        requiresPlan: false,
        idempotent: false,
      };
      if (!op.tags?.length) op.tags = [(op.operationId ?? 'api').split('_')[0]];
      op.tags.forEach((tag) => usedTags.add(tag));
      op.description = describe(op, route);
      if (route.access?.kind === 'public') op.security = [];
      if (route.access?.kind === 'apiKey' && route.access.family === 'listings') legacyErrorAnswers(op);
      if (route.idempotent)
        op.parameters = [
          ...(op.parameters ?? []).filter((p) => !('name' in p && p.name === IDEMPOTENCY_KEY.name)),
          ref('parameters', 'IdempotencyKey'),
        ];
      for (const [status, response] of Object.entries(op.responses)) {
        const answer = response as ResponseObject;
        answer.headers = { ...answer.headers, ...responseHeaders(status, route) };
      }
    }
  }
  document.tags = [...usedTags].sort().map((name) => ({
    name,
    description: TAG_DESCRIPTIONS[name] ?? `The ${name} routes.`,
  }));
  return document;
}

/** The OpenAPI document, generated from the controllers and DTOs. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Real-estate agency API')
    .setDescription(
      'CRM, listings, brochures, documents and network for real-estate agencies. `/v1` routes take an API key ' +
        '(`Authorization: Bearer svc_pk_…`, `Authorization: ApiKey …` or `X-API-Key`); so do the listing ' +
        'families `/properties/*` and `/property-sources/*`, which answer errors in the legacy shape ' +
        '`{statusCode, code, message, missingScopes, requiredScopes}` instead of the envelope; dashboard routes and ' +
        '`/api-keys` take a session token; `/integrations/v1` routes take an integration key ' +
        '(`Authorization: Bearer svc_int_…`); `POST /mcp` (the MCP server) takes an MCP key (`svc_mcp_…`). Every operation names its scopes in `x-required-scopes` and in its ' +
        'description. Every answer carries `X-Request-Id`.',
    )
    .setVersion('1')
    .addServer(
      '{scheme}://{host}',
      'The API: set `host` (and `https`) to your deployment; the defaults are a local run',
      {
        scheme: { enum: ['http', 'https'], default: 'http' },
        host: { default: 'localhost:3000', description: 'Host and port of the API' },
      },
    )
    // addSecurity, not addBearerAuth: that one adds `bearerFormat: JWT`, and both tokens are opaque
    .addSecurity('apiKey', {
      type: 'http',
      scheme: 'bearer',
      description: 'API key as a bearer token: `Authorization: Bearer svc_pk_…` (opaque)',
    })
    .addApiKey(
      { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'API key in `X-API-Key: svc_pk_…`' },
      'apiKeyHeader',
    )
    .addApiKey(
      {
        type: 'apiKey',
        in: 'header',
        name: 'Authorization',
        description: 'API key with the ApiKey scheme: `Authorization: ApiKey svc_pk_…`',
      },
      'apiKeyScheme',
    )
    .addSecurity('integrationKey', {
      type: 'http',
      scheme: 'bearer',
      description:
        'Integration key of a connector: `Authorization: Bearer svc_int_…` (opaque); `/integrations/v1` only',
    })
    .addSecurity('mcpKey', {
      type: 'http',
      scheme: 'bearer',
      description: 'MCP key: `Authorization: Bearer svc_mcp_…` (opaque); `POST /mcp` only',
    })
    .addSecurity('session', {
      type: 'http',
      scheme: 'bearer',
      description: 'Session token from `POST /auth/sign-in` (opaque)',
    })
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controller, method) => operationId(controller, method),
  });
  document.info.license = { name: 'Proprietary' };
  // The three forms of an API key, as the default; every operation names its own credential (the
  // route-access snapshot), so this only declares that `X-API-Key` and `ApiKey` are accepted too.
  document.security = [{ apiKey: [] }, { apiKeyHeader: [] }, { apiKeyScheme: [] }];
  return finish(document, routeMetadata(app));
}

/** `/v1/openapi.json` and Swagger UI at `/docs`. */
export function serveOpenApi(app: INestApplication): void {
  const document = buildOpenApiDocument(app);
  const http = app.getHttpAdapter();
  http.get('/v1/openapi.json', (_req: unknown, res: { json(body: unknown): void }) => res.json(document));
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: '/v1/openapi.json', raw: false });
}
