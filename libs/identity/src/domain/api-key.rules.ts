import {
  ADMIN_ONLY_SCOPES,
  assertGrantable,
  DAY,
  DomainError,
  HOUR,
  RESERVED_SCOPE,
  SCOPES_GRANTABLE,
  validationFailed,
  type GrantableScope,
  type Role,
  type Scope,
} from '@app/platform/core';
import { parseAllowedOrigin } from './allowed-origin';
import { stoppedAt } from './key-door.rules';

/**
 * The rules for API keys, in one place: the `ApiKey` entity and the `/v1` door (on its cached
 * rows) both call these, so a key's life and its grants can never be judged two ways.
 */

export type ApiKeyStatus = 'active' | 'revoked' | 'expired' | 'rotated';

/** What the life of a key is decided from; the entity and the door's cached facts both have it. */
export interface KeyLife {
  revokedAt: Date | null;
  expiresAt: Date | null;
  rotatedToId: string | null;
  graceUntil: Date | null;
  legacy: boolean;
  lineageCreatedAt: Date;
}

/** Spec rule 3: `/v1` takes only keys made on or after this day. */
export const V1_KEYS_SINCE = new Date('2026-10-04T00:00:00.000Z');
export const ROTATION_GRACE_MS = 24 * HOUR;
export const MAX_EXPIRY_DAYS = 3650;

/** The grant rule (admin-only scopes) is the platform's, shared with MCP keys. */
export { ADMIN_ONLY_SCOPES, assertGrantable };

/** Server scopes: such a key cannot list websites and is refused when sent with an Origin. */
export const isServerScope = (scope: Scope): boolean =>
  scope.startsWith('crm:') || scope.startsWith('brochures:') || scope.startsWith('documents:');

/** A key created without scopes (spec: Scopes). */
export const defaultScopes = (role: Role): Scope[] =>
  role === 'admin'
    ? ['properties:read', 'sources:read', ...ADMIN_ONLY_SCOPES, RESERVED_SCOPE]
    : ['properties:read', 'sources:read', RESERVED_SCOPE];

/** Every scope a person with `role` may put on a key. */
export const grantableScopes = (role: Role): GrantableScope[] =>
  SCOPES_GRANTABLE.filter((scope) => role === 'admin' || !ADMIN_ONLY_SCOPES.includes(scope));

export function keyStatusAt(key: KeyLife, now: Date): ApiKeyStatus {
  if (key.revokedAt) return 'revoked';
  if (key.rotatedToId) return 'rotated';
  if (key.expiresAt && key.expiresAt <= now) return 'expired';
  return 'active';
}

/** A key's life is judged by the key door's rule, the same for every kind of key. */
export { stoppedAt };

export const acceptsCallsAt = (key: KeyLife, now: Date): boolean => stoppedAt(key, now) === null;

/** Spec rule 3: made before 4 October 2026 (or descended from such a key), or flagged legacy. */
export const isLegacyKey = (key: KeyLife): boolean => key.legacy || key.lineageCreatedAt < V1_KEYS_SINCE;

/**
 * Browser use on the listing families: a request with an `Origin` header must name one of the
 * key's allowed websites exactly as stored (scheme://host[:port]); a key holding a server scope is
 * never used from a browser. Requests without `Origin` are not origin-checked.
 */
export function originAllowed(
  key: { scopes: readonly Scope[]; allowedOrigins: readonly string[] },
  origin: string | undefined,
): boolean {
  if (origin === undefined) return true;
  if (key.scopes.some(isServerScope)) return false;
  return key.allowedOrigins.includes(origin);
}

/**
 * Rule 6 on the listing families: a key whose owner left goes on as an agency key only when it is
 * older (its lineage began before 4 October 2026, or it is flagged legacy); a newer one stops.
 */
export const goesOnAsAgencyKey = (key: KeyLife): boolean => isLegacyKey(key);

export const rotationGraceEndsAt = (now: Date): Date => new Date(now.getTime() + ROTATION_GRACE_MS);

/** The reserved scope stays where it was: it can be neither added nor sent. */
export function assertNotReserved(scopes: Scope[]): void {
  if (scopes.includes(RESERVED_SCOPE)) {
    throw new DomainError('API_KEY_SCOPE_RESERVED', 'agents:read is reserved and cannot be added.');
  }
}

/** A key listing websites is used from browsers, so it cannot hold server scopes. */
export function refuseWebsitesWithServerScopes(scopes: Scope[], origins: string[]): void {
  if (origins.length > 0 && scopes.some(isServerScope)) {
    throw new DomainError(
      'API_KEY_ORIGINS_NOT_ALLOWED_FOR_SERVER_SCOPES',
      'A key with crm, brochures or documents scopes cannot list allowed websites.',
    );
  }
}

/** `allowedOrigins` as sent: each scheme://host[:port], no repeats; 400 naming every bad entry. */
export function parseAllowedOrigins(values: string[]): string[] {
  const issues: { path: string; message: string }[] = [];
  const origins = values.map((value, index) => {
    const origin = parseAllowedOrigin(value);
    if (!origin) {
      issues.push({
        path: `allowedOrigins.${index}`,
        message: 'must be scheme://host[:port] with no path or wildcard; plain http only for localhost',
      });
    }
    return origin ?? '';
  });
  if (issues.length > 0) throw validationFailed(issues);
  if (new Set(origins).size !== origins.length)
    throw validationFailed([{ path: 'allowedOrigins', message: 'must not repeat' }]);
  return origins;
}

/** `expiresAt` as sent: null removes it; otherwise a future date at most 3650 days ahead. */
export function parseExpiry(value: string | null, now: Date): Date | null {
  if (value === null) return null;
  const at = new Date(value);
  if (Number.isNaN(at.getTime()) || at <= now || at.getTime() > now.getTime() + MAX_EXPIRY_DAYS * DAY) {
    throw validationFailed([{ path: 'expiresAt', message: 'must be a future date at most 3650 days ahead' }]);
  }
  return at;
}
