import type { IncomingHttpHeaders } from 'node:http';

export type CredentialKind = 'apiKey' | 'integration' | 'mcp' | 'session' | 'unknown';

export interface Credential {
  kind: CredentialKind;
  secret: string;
}

export const API_KEY_PATTERN = /^svc_pk_[A-Za-z0-9]{32}$/;
export const INTEGRATION_KEY_PATTERN = /^svc_int_[0-9a-f]{32}$/;
export const SESSION_TOKEN_PREFIX = 'svc_ses_';
export const MCP_KEY_PATTERN = /^svc_mcp_[A-Za-z0-9]{32}$/;

/** What a secret is, told by its prefix alone (spec: Authentication). */
export function kindOf(secret: string): CredentialKind {
  if (secret.startsWith('svc_pk_')) return 'apiKey';
  if (secret.startsWith('svc_int_')) return 'integration';
  if (secret.startsWith('svc_mcp_') || secret.startsWith('svc_oat_')) return 'mcp';
  if (secret.startsWith(SESSION_TOKEN_PREFIX)) return 'session';
  return 'unknown';
}

const scheme = (authorization: string, name: string): string | null => {
  const match = /^(\S+)\s+(\S+)\s*$/.exec(authorization);
  return match && match[1].toLowerCase() === name ? match[2] : null;
};

/**
 * The credential of a request. Precedence (INTERFACES.md): `Authorization: ApiKey`, then
 * `X-API-Key`, then `Authorization: Bearer`. Never read from the query string.
 */
export function extractCredential(headers: IncomingHttpHeaders): Credential | null {
  const authorization = typeof headers.authorization === 'string' ? headers.authorization : '';
  const xApiKey = typeof headers['x-api-key'] === 'string' ? headers['x-api-key'].trim() : '';
  const secret = scheme(authorization, 'apikey') ?? (xApiKey || null) ?? scheme(authorization, 'bearer');
  return secret ? { kind: kindOf(secret), secret } : null;
}
