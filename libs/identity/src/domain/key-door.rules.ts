import { authUnavailable, DomainError, unauthenticated, type Role } from '@app/platform/core';

/**
 * The key door's rules for every kind of key (API keys, MCP keys, integration keys): what stops a
 * key, and each refusal with its message, in one place (docs/security/key-door.md).
 */

export type KeyNoun = 'API key' | 'MCP key' | 'integration key';

/**
 * What the door reads of any key, whatever its kind: each kind's one row has at least this. A
 * key that acts as a person carries `ownerId` and the owner's current `ownerRole` (null: gone).
 */
export interface DoorFacts {
  id: string;
  organizationId: string;
  ownerId?: string | null;
  ownerRole?: Role | null;
  revokedAt: Date | null;
  expiresAt?: Date | null;
  rotatedToId?: string | null;
  graceUntil?: Date | null;
  organizationDisabled: boolean;
}

/** What the life of a key is judged from; kinds without expiry or rotation leave those out. */
export type KeyStops = Pick<DoorFacts, 'revokedAt' | 'expiresAt' | 'rotatedToId' | 'graceUntil'>;

/**
 * Why the secret opens nothing any more, in the order that decides which refusal wins, or null
 * while it works (active, or rotated and inside its grace). Judged at every call against the
 * clock, so a grace end or an expiry needs no cache to run out.
 */
export function stoppedAt(key: KeyStops, now: Date): 'revoked' | 'expired' | 'rotated' | null {
  if (key.revokedAt) return 'revoked';
  if (key.expiresAt && key.expiresAt <= now) return 'expired';
  if (key.rotatedToId && !(key.graceUntil && key.graceUntil > now)) return 'rotated';
  return null;
}

/** Every refusal of the door and its message; the kind's noun names the key in the 401s. */
export const keyRefused = {
  malformed: (noun: KeyNoun) => unauthenticated(`The ${noun} is malformed.`),
  unknown: (noun: KeyNoun) => unauthenticated(`Unknown ${noun}.`),
  revoked: (noun: KeyNoun) => unauthenticated(`This ${noun} was revoked.`),
  expired: (noun: KeyNoun) => unauthenticated(`This ${noun} has expired.`),
  rotated: (noun: KeyNoun) => unauthenticated(`This ${noun} was rotated and its grace period is over.`),
  noOwner: (noun: KeyNoun) => new DomainError('API_KEY_HAS_NO_OWNER', `This ${noun} has no owner.`),
  ownerGone: () =>
    new DomainError('API_KEY_OWNER_NOT_IN_ORGANIZATION', "The key's owner is no longer in the organization."),
  organizationDisabled: () => new DomainError('ORG_DISABLED', 'This organization is disabled.'),
  legacyOnV1: () =>
    new DomainError('API_KEY_LEGACY', 'Keys made before 4 October 2026 are not accepted on /v1.'),
  websitesOnV1: () =>
    new DomainError('API_KEY_HAS_WEBSITES', 'A key with allowed websites is not accepted on /v1.'),
  originOnV1: () =>
    new DomainError('API_KEY_ORIGIN_NOT_ALLOWED', 'This key cannot be used from a browser origin.'),
  originNotListed: () =>
    new DomainError('API_KEY_ORIGIN_NOT_ALLOWED', "This origin is not one of the key's allowed websites."),
  /** The database did not answer: 503, never a 500 (a person's key names its owner). */
  unavailable: (actsAs: 'person' | 'organization') =>
    authUnavailable(
      actsAs === 'person'
        ? 'The key owner could not be checked; retry shortly.'
        : 'The key could not be checked; retry shortly.',
    ),
};
