import { applyDecorators, createParamDecorator, ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiBearerAuth, ApiExtension, ApiResponse, ApiSecurity } from '@nestjs/swagger';
import { ErrorEnvelopeView, LegacyErrorView } from '../errors/error-envelope.view';
import type { ApiKeyPrincipal, IntegrationPrincipal, Principal, Scope } from './principal';

/** Which credential family a route opens to, and what it needs from it. */
/**
 * The two API-key families: `/v1` (the envelope, rule 3) and the listing families `/properties/*`
 * and `/property-sources/*` (the legacy error shape, rule 6's agency keys, origin checks).
 */
export type ApiKeyFamily = 'v1' | 'listings';

export type AccessDeclaration =
  | { kind: 'apiKey'; scopes: readonly Scope[]; family: ApiKeyFamily }
  | { kind: 'integration' }
  | { kind: 'mcp' }
  | { kind: 'session' }
  | { kind: 'public' };

export const ACCESS = Reflector.createDecorator<AccessDeclaration>();
export const ADMIN_ONLY = Reflector.createDecorator<true>();
export const PLAN_REQUIRED = Reflector.createDecorator<true>();

const errorResponse = (status: number, description: string) =>
  ApiResponse({ status, description, type: ErrorEnvelopeView });

const legacyErrorResponse = (status: number, description: string) =>
  ApiResponse({ status, description, type: LegacyErrorView });

/**
 * A `/v1` API-key route and the scopes it needs. `@RequireScopes()` with none means
 * "declared, nothing required" (`GET /v1/me`).
 */
export const RequireScopes = (...scopes: Scope[]) =>
  applyDecorators(
    ACCESS({ kind: 'apiKey', scopes, family: 'v1' }),
    ApiExtension('x-required-scopes', scopes),
    ApiBearerAuth('apiKey'),
    ApiSecurity('apiKeyHeader'),
    ApiSecurity('apiKeyScheme'),
    errorResponse(401, 'UNAUTHENTICATED: key missing, malformed, unknown, revoked or expired'),
    errorResponse(
      403,
      'API_KEY_SCOPE_MISSING (`details.missing`); the key rules: API_KEY_HAS_NO_OWNER, API_KEY_LEGACY, ' +
        'API_KEY_HAS_WEBSITES, API_KEY_OWNER_NOT_IN_ORGANIZATION, API_KEY_ORIGIN_NOT_ALLOWED, ORG_DISABLED',
    ),
    errorResponse(429, 'RATE_LIMITED: wait `Retry-After` seconds'),
    errorResponse(503, 'AUTH_UNAVAILABLE: the key owner could not be checked; retry shortly'),
  );

const LISTING_FORBIDDEN =
  'API_KEY_SCOPE_MISSING (`missingScopes`); the key rules: API_KEY_HAS_NO_OWNER, ' +
  'API_KEY_OWNER_NOT_IN_ORGANIZATION, API_KEY_ORIGIN_NOT_ALLOWED, ORG_DISABLED';

/** What a listing-family route declares, with `forbidden` as its 403 description. */
const listingRoute = (scopes: Scope[], forbidden: string) =>
  applyDecorators(
    ACCESS({ kind: 'apiKey', scopes, family: 'listings' }),
    ApiExtension('x-required-scopes', scopes),
    ApiBearerAuth('apiKey'),
    ApiSecurity('apiKeyHeader'),
    ApiSecurity('apiKeyScheme'),
    legacyErrorResponse(
      401,
      'UNAUTHENTICATED: not an API key, or the key is missing, malformed, unknown, revoked or expired',
    ),
    legacyErrorResponse(403, forbidden),
    legacyErrorResponse(429, 'RATE_LIMITED: wait `Retry-After` seconds'),
    legacyErrorResponse(503, 'AUTH_UNAVAILABLE: the key owner could not be checked; retry shortly'),
  );

/**
 * A listing-family route (`/properties/*`, `/property-sources/*`, INTERFACES.md "Listings"): API
 * keys only (any other credential is 401), errors in the legacy shape, and the scopes it needs.
 * Keys made before 4 October 2026 and keys with allowed websites are taken; a browser `Origin`
 * must be one of the key's websites; an older key whose owner left goes on as an agency key.
 * Document the route's own errors with `ApiLegacy…` (`api-errors.decorators.ts`).
 */
export const ListingRoute = (...scopes: Scope[]) => listingRoute(scopes, LISTING_FORBIDDEN);

/**
 * A listing-family write (`properties:write`, `media:write`): `ListingRoute` plus admin only
 * (403 ORG_ADMIN_REQUIRED for a member's key). An agency key (`ApiKeyPrincipal.agencyKey`) acts
 * with the admin role, so it passes.
 */
export const ListingWriteRoute = (...scopes: Scope[]) =>
  applyDecorators(
    listingRoute(scopes, `${LISTING_FORBIDDEN}; ORG_ADMIN_REQUIRED: the key's owner is a member`),
    ADMIN_ONLY(true),
    ApiExtension('x-admin-only', true),
  );

/**
 * A connector route (`/integrations/v1/*`) opened only by an integration key (`svc_int_…`); any
 * other credential is 401. The organization's state applies (403 ORG_DISABLED); rate limited per
 * key across every integration route. The handler reads the caller with `@CurrentIntegration()`.
 */
export const IntegrationRoute = () =>
  applyDecorators(
    ACCESS({ kind: 'integration' }),
    ApiExtension('x-required-scopes', []),
    ApiBearerAuth('integrationKey'),
    errorResponse(401, 'UNAUTHENTICATED: integration key missing, malformed, unknown or revoked'),
    errorResponse(403, 'ORG_DISABLED: the organization is disabled'),
    errorResponse(429, 'RATE_LIMITED: wait `Retry-After` seconds'),
    errorResponse(503, 'AUTH_UNAVAILABLE: the key could not be checked; retry shortly'),
  );

/**
 * The MCP endpoint (`POST /mcp`, issue 19) opened only by an MCP key (`svc_mcp_…`); any other
 * credential is 401 (an MCP key is 401 everywhere else). The handler reads the caller with
 * `@CurrentMcpPrincipal()`; the tools check scopes, role and plan per call, so nothing is declared here.
 */
export const McpRoute = () =>
  applyDecorators(
    ACCESS({ kind: 'mcp' }),
    ApiExtension('x-required-scopes', []),
    ApiBearerAuth('mcpKey'),
    errorResponse(401, 'UNAUTHENTICATED: MCP key missing, malformed, unknown, revoked or expired'),
    errorResponse(
      403,
      'FORBIDDEN: an `Origin` not in MCP_ALLOWED_ORIGINS; API_KEY_OWNER_NOT_IN_ORGANIZATION, ORG_DISABLED',
    ),
    errorResponse(503, 'AUTH_UNAVAILABLE: the key owner could not be checked; retry shortly'),
  );

/** A dashboard route opened by a session token (and `/api-keys`). */
export const Session = () =>
  applyDecorators(
    ACCESS({ kind: 'session' }),
    ApiExtension('x-required-scopes', []),
    ApiBearerAuth('session'),
    errorResponse(401, 'UNAUTHENTICATED: session token missing, expired or signed out'),
  );

/** A route anyone may call (sign-up, sign-in, health). */
export const Public = () =>
  applyDecorators(ACCESS({ kind: 'public' }), ApiExtension('x-required-scopes', []));

/** Admin only: a member's credential gets 403 ORG_ADMIN_REQUIRED. */
export const AdminOnly = () =>
  applyDecorators(
    ADMIN_ONLY(true),
    ApiExtension('x-admin-only', true),
    errorResponse(403, 'ORG_ADMIN_REQUIRED'),
  );

/** Needs an active plan: 403 SUBSCRIPTION_REQUIRED otherwise. */
export const RequiresPlan = () =>
  applyDecorators(
    PLAN_REQUIRED(true),
    ApiExtension('x-requires-plan', true),
    errorResponse(403, 'SUBSCRIPTION_REQUIRED'),
  );

export type AuthedRequest = {
  principal?: Principal;
  integration?: IntegrationPrincipal;
  /** The MCP key's person on `@McpRoute()` (not `principal`: the per-route API-key limits do not apply). */
  mcp?: ApiKeyPrincipal;
};

/** The authenticated caller; the access guard has put it on the request. */
export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => {
  const principal = ctx.switchToHttp().getRequest<AuthedRequest>().principal;
  if (!principal) throw new Error('CurrentPrincipal used on a route without a credential');
  return principal;
});

/** The connector calling an `@IntegrationRoute()`; the access guard has put it on the request. */
export const CurrentIntegration = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): IntegrationPrincipal => {
    const integration = ctx.switchToHttp().getRequest<AuthedRequest>().integration;
    if (!integration) throw new Error('CurrentIntegration used on a route without an integration key');
    return integration;
  },
);

/** The MCP key's person calling an `@McpRoute()`; the access guard has put it on the request. */
export const CurrentMcpPrincipal = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): ApiKeyPrincipal => {
    const principal = ctx.switchToHttp().getRequest<AuthedRequest>().mcp;
    if (!principal) throw new Error('CurrentMcpPrincipal used on a route without an MCP key');
    return principal;
  },
);
