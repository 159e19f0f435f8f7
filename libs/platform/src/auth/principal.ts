export const ROLES = ['admin', 'member'] as const;
export type Role = (typeof ROLES)[number];

/** The ten grantable scopes of the spec. */
export const SCOPES_GRANTABLE = [
  'crm:read',
  'crm:write',
  'properties:read',
  'properties:write',
  'media:write',
  'sources:read',
  'brochures:read',
  'brochures:write',
  'documents:read',
  'documents:write',
] as const;
/** Reserved: opens no route, cannot be added, still listed on older and scope-less keys. */
export const RESERVED_SCOPE = 'agents:read';
export type GrantableScope = (typeof SCOPES_GRANTABLE)[number];
export type Scope = GrantableScope | typeof RESERVED_SCOPE;

interface PrincipalBase {
  userId: string;
  organizationId: string;
  /** The person's current role, read on every call. */
  role: Role;
  planActive: boolean;
}

export interface ApiKeyPrincipal extends PrincipalBase {
  kind: 'apiKey';
  keyId: string;
  keyName: string;
  prefixHint: string | null;
  scopes: Scope[];
  expiresAt: Date | null;
  /** Raised per key by operators; scales all three rate windows. */
  rateLimitPerMinute: number | null;
  /**
   * The organization's per-minute figure for the shared `search` limit, raised by operators
   * (`npm run ops -- search-rate`); null or absent: the default.
   */
  searchRatePerMinute?: number | null;
  /**
   * Rule 6 on the listing families only: the owner has left the agency and the key is older
   * (its lineage began before 4 October 2026), so it goes on as an agency key: its scopes, no
   * role check (`role` is `admin`), `userId` the departed owner. Absent on every other key.
   */
  agencyKey?: true;
  /**
   * An MCP key (`svc_mcp_…`, issue 19): the same person-bound principal, for the tools of `POST /mcp`
   * (its events' actor is `mcp_key`). Absent on API keys.
   */
  via?: 'mcp';
}

export interface SessionPrincipal extends PrincipalBase {
  kind: 'session';
  sessionId: string;
  expiresAt: Date;
}

/** Who is calling: the person behind an API key or a dashboard session. */
export type Principal = ApiKeyPrincipal | SessionPrincipal;

/**
 * A connector pushing records on `/integrations/v1` with an integration key: it belongs to the
 * organization, has no person, scopes or plan. `actor` (`integration:<keyId>`) is what the
 * records and history rows it writes carry.
 */
export interface IntegrationPrincipal {
  kind: 'integration';
  organizationId: string;
  organizationName: string;
  keyId: string;
  keyName: string;
  connector: string;
  prefixHint: string;
  actor: `integration:${string}`;
}

export const integrationActor = (keyId: string): `integration:${string}` => `integration:${keyId}`;

export const isAdmin = (principal: Principal): boolean => principal.role === 'admin';
