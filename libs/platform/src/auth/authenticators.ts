import type { ApiKeyFamily } from './access.decorators';
import { ApiKeyPrincipal, IntegrationPrincipal, SessionPrincipal } from './principal';

/** What the key rules look at besides the secret. */
export interface CallContext {
  /**
   * The route's family: `v1` (rules 3 and 6 as on `/v1`) or `listings` (`/properties/*`,
   * `/property-sources/*`: no API_KEY_LEGACY or API_KEY_HAS_WEBSITES, the key's websites checked
   * against `Origin`, an older key of a departed owner goes on as an agency key).
   */
  family: ApiKeyFamily;
  origin: string | undefined;
  ip: string | undefined;
  userAgent: string | undefined;
}

/**
 * Ports the platform's access guard calls; the identity context provides them (the three kinds of
 * key through its one key door, docs/security/key-door.md). Each throws a DomainError (401
 * UNAUTHENTICATED, 403 for the key rules, 503 AUTH_UNAVAILABLE) when it refuses.
 */
export abstract class SessionAuthenticator {
  abstract authenticate(token: string): Promise<SessionPrincipal>;
}

export abstract class ApiKeyAuthenticator {
  abstract authenticate(secret: string, call: CallContext): Promise<ApiKeyPrincipal>;
}

/**
 * The `POST /mcp` door: an MCP key (`svc_mcp_…`) acting as its person, role read on every call
 * (401 when unknown, revoked or expired; 403 when the owner left or the agency is disabled).
 */
export abstract class McpKeyAuthenticator {
  abstract authenticate(secret: string): Promise<ApiKeyPrincipal>;
}

/** The `/integrations/v1` door: an integration key (401 when unknown or revoked, 403 ORG_DISABLED). */
export abstract class IntegrationKeyAuthenticator {
  abstract authenticate(secret: string): Promise<IntegrationPrincipal>;
}
