import { Injectable } from '@nestjs/common';
import { API_KEY_PATTERN, ApiKeyAuthenticator, ApiKeyPrincipal, CallContext } from '@app/platform';
import { ApiKeyRepository, KeyFacts } from '../domain/api-key.repository';
import { goesOnAsAgencyKey, isLegacyKey, originAllowed } from '../domain/api-key.rules';
import { keyRefused } from '../domain/key-door.rules';
import { KeyDoor, PersonKeyKind } from './key-door';
import { KeyUsageRecorder } from './key-usage.recorder';

/**
 * API keys through the key door: rules 1-9 of "Rules for API keys", in the order that decides
 * which refusal wins (ARCHITECTURE.md step 4). The key acts as its owner with the owner's current
 * role. `/v1` refuses older keys and keys with websites; the listing families (`/properties/*`,
 * `/property-sources/*`) take both, check `Origin` against the key's websites, and let an older
 * key of a departed owner go on as an agency key (INTERFACES.md "Listings").
 */
@Injectable()
export class DbApiKeyAuthenticator extends ApiKeyAuthenticator {
  private readonly kind: PersonKeyKind<KeyFacts, CallContext, ApiKeyPrincipal>;

  constructor(
    private readonly door: KeyDoor,
    keys: ApiKeyRepository,
    usage: KeyUsageRecorder,
  ) {
    super();
    this.kind = {
      noun: 'API key',
      pattern: API_KEY_PATTERN,
      actsAs: 'person',
      read: (secretHash) => keys.doorFactsBySecretHash(secretHash),
      // `/v1`: rules 3 and 6 as the spec gives them
      gate: (key, call) => {
        if (call.family !== 'v1') return;
        if (isLegacyKey(key)) throw keyRefused.legacyOnV1();
        if (key.allowedOrigins.length > 0) throw keyRefused.websitesOnV1();
      },
      // an owner gone stops a newer key and turns an older one into an agency key on the listing families
      goesOnWithoutOwner: (key, call) => call.family === 'listings' && goesOnAsAgencyKey(key),
      admit: (key, call, holder) => {
        if (call.family === 'v1') {
          // /v1 keys hold no websites, so every browser origin is unlisted (INTERFACES.md)
          if (call.origin !== undefined) throw keyRefused.originOnV1();
        } else if (!originAllowed(key, call.origin)) {
          throw keyRefused.originNotListed();
        }
        return principalOf(key, holder.userId, holder.role, holder.agencyKey);
      },
      used: (key, call, now) => usage.record(key.id, now, call.ip, call.userAgent),
    };
  }

  authenticate(secret: string, call: CallContext): Promise<ApiKeyPrincipal> {
    return this.door.open(this.kind, secret, call);
  }
}

function principalOf(
  key: KeyFacts,
  userId: string,
  role: ApiKeyPrincipal['role'],
  agencyKey: boolean,
): ApiKeyPrincipal {
  const principal: ApiKeyPrincipal = {
    kind: 'apiKey',
    keyId: key.id,
    keyName: key.name,
    prefixHint: key.prefixHint,
    scopes: key.scopes,
    expiresAt: key.expiresAt,
    rateLimitPerMinute: key.rateLimitPerMinute,
    userId,
    organizationId: key.organizationId,
    role,
    planActive: key.planActive,
    searchRatePerMinute: key.searchRatePerMinute,
  };
  if (agencyKey) principal.agencyKey = true;
  return principal;
}
