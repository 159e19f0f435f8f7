import { Injectable } from '@nestjs/common';
import {
  API_KEY_PATTERN,
  ApiKeyAuthenticator,
  ApiKeyPrincipal,
  CallContext,
  Clock,
  authUnavailable,
  DomainError,
  Role,
  sha256,
  unauthenticated,
} from '@app/platform';
import { ApiKeyRepository, KeyFacts } from '../domain/api-key.repository';
import { goesOnAsAgencyKey, isLegacyKey, originAllowed, stoppedAt } from '../domain/api-key.rules';
import { ApiKeyCache } from './api-key-cache';
import { KeyUsageRecorder } from './key-usage.recorder';

const STOPPED = {
  revoked: 'This API key was revoked.',
  expired: 'This API key has expired.',
  rotated: 'This API key was rotated and its grace period is over.',
} as const;

const refuse = (code: ConstructorParameters<typeof DomainError>[0], message: string) =>
  new DomainError(code, message);

const ownerGone = () =>
  refuse('API_KEY_OWNER_NOT_IN_ORGANIZATION', "The key's owner is no longer in the organization.");

const principalOf = (key: KeyFacts, ownerId: string, role: Role): ApiKeyPrincipal => ({
  kind: 'apiKey',
  keyId: key.id,
  keyName: key.name,
  prefixHint: key.prefixHint,
  scopes: key.scopes,
  expiresAt: key.expiresAt,
  rateLimitPerMinute: key.rateLimitPerMinute,
  userId: ownerId,
  organizationId: key.organizationId,
  role,
  planActive: key.planActive,
  searchRatePerMinute: key.searchRatePerMinute,
});

/**
 * The API-key door of both families: rules 1-9 of "Rules for API keys", in the order that decides
 * which refusal wins (ARCHITECTURE.md step 4). The key acts as its owner with the owner's current
 * role. `/v1` refuses older keys and keys with websites; the listing families (`/properties/*`,
 * `/property-sources/*`) take both, check `Origin` against the key's websites, and let an older
 * key of a departed owner go on as an agency key (INTERFACES.md "Listings").
 */
@Injectable()
export class DbApiKeyAuthenticator extends ApiKeyAuthenticator {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly cache: ApiKeyCache,
    private readonly usage: KeyUsageRecorder,
    private readonly clock: Clock,
  ) {
    super();
  }

  async authenticate(secret: string, call: CallContext): Promise<ApiKeyPrincipal> {
    if (!API_KEY_PATTERN.test(secret)) throw unauthenticated('The API key is malformed.');
    const now = this.clock.now();
    const key = await this.lookup(sha256(secret));
    if (!key) throw unauthenticated('Unknown API key.');
    const stopped = stoppedAt(key, now);
    if (stopped) throw unauthenticated(STOPPED[stopped]);
    if (!key.ownerId) throw refuse('API_KEY_HAS_NO_OWNER', 'This API key has no owner.');
    const principal =
      call.family === 'listings'
        ? this.listingsDoor(key, key.ownerId, call)
        : this.v1Door(key, key.ownerId, call);
    this.usage.record(key.id, now, call.ip, call.userAgent);
    return principal;
  }

  /** `/v1`: rules 3 and 6 as the spec gives them; every browser origin is unlisted. */
  private v1Door(key: KeyFacts, ownerId: string, call: CallContext): ApiKeyPrincipal {
    if (isLegacyKey(key)) {
      throw refuse('API_KEY_LEGACY', 'Keys made before 4 October 2026 are not accepted on /v1.');
    }
    if (key.allowedOrigins.length > 0) {
      throw refuse('API_KEY_HAS_WEBSITES', 'A key with allowed websites is not accepted on /v1.');
    }
    if (!key.ownerRole) throw ownerGone();
    if (key.organizationDisabled) throw refuse('ORG_DISABLED', 'This organization is disabled.');
    // /v1 keys hold no websites, so every browser origin is unlisted (INTERFACES.md)
    if (call.origin !== undefined) {
      throw refuse('API_KEY_ORIGIN_NOT_ALLOWED', 'This key cannot be used from a browser origin.');
    }
    return principalOf(key, ownerId, key.ownerRole);
  }

  /**
   * `/properties/*`, `/property-sources/*`: older keys and keys with websites are taken; an owner
   * gone stops a newer key and turns an older one into an agency key (admin role, no role check);
   * an `Origin` must be one of the key's websites, and a server-scope key takes none.
   */
  private listingsDoor(key: KeyFacts, ownerId: string, call: CallContext): ApiKeyPrincipal {
    const agencyKey = !key.ownerRole;
    if (agencyKey && !goesOnAsAgencyKey(key)) throw ownerGone();
    if (key.organizationDisabled) throw refuse('ORG_DISABLED', 'This organization is disabled.');
    if (!originAllowed(key, call.origin)) {
      throw refuse('API_KEY_ORIGIN_NOT_ALLOWED', "This origin is not one of the key's allowed websites.");
    }
    const principal = principalOf(key, ownerId, key.ownerRole ?? 'admin');
    if (agencyKey) principal.agencyKey = true;
    return principal;
  }

  /** Cached for seconds; a database that does not answer is 503 AUTH_UNAVAILABLE, never a 500. */
  private async lookup(secretHash: string): Promise<KeyFacts | null> {
    const cached = this.cache.get(secretHash);
    if (cached) return cached;
    let facts: KeyFacts | null;
    try {
      facts = await this.keys.doorFactsBySecretHash(secretHash);
    } catch {
      throw authUnavailable('The key owner could not be checked; retry shortly.');
    }
    if (!facts) return null;
    this.cache.set(secretHash, facts);
    return facts;
  }
}
