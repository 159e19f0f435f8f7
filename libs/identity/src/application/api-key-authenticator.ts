import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import {
  API_KEY_PATTERN,
  ApiKeyAuthenticator,
  ApiKeyPrincipal,
  CallContext,
  Clock,
  DomainError,
  sha256,
  unauthenticated,
  type Role,
  type Scope,
} from '@app/platform';
import { V1_KEYS_SINCE } from '../domain/api-key.entity';
import { ApiKeyCache, KeyFacts } from './api-key-cache';
import { KeyUsageRecorder } from './key-usage.recorder';

interface KeyRow {
  id: string;
  organization_id: string;
  name: string;
  prefix_hint: string | null;
  legacy: boolean;
  system: boolean;
  scopes: Scope[];
  allowed_origins: string[];
  rate_limit_per_minute: number | null;
  created_by_id: string | null;
  lineage_created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
  rotated_to_id: string | null;
  grace_until: Date | null;
  owner_left_at: Date | null;
  owner_role: Role | null;
  plan_active: boolean;
  disabled: boolean;
}

const toFacts = (row: KeyRow): KeyFacts => ({
  id: row.id,
  organizationId: row.organization_id,
  name: row.name,
  prefixHint: row.prefix_hint,
  legacy: row.legacy,
  system: row.system,
  scopes: row.scopes,
  allowedOrigins: row.allowed_origins,
  rateLimitPerMinute: row.rate_limit_per_minute,
  ownerId: row.created_by_id,
  lineageCreatedAt: new Date(row.lineage_created_at),
  expiresAt: row.expires_at && new Date(row.expires_at),
  revokedAt: row.revoked_at && new Date(row.revoked_at),
  rotatedToId: row.rotated_to_id,
  graceUntil: row.grace_until && new Date(row.grace_until),
  // a key whose owner left stays dead even if the person is invited back later
  ownerRole: row.owner_left_at ? null : row.owner_role,
  planActive: row.plan_active,
  organizationDisabled: row.disabled,
});

const refuse = (code: ConstructorParameters<typeof DomainError>[0], message: string) =>
  new DomainError(code, message);

/**
 * The `/v1` door: rules 1-9 of "Rules for API keys", in the order that decides which refusal
 * wins (ARCHITECTURE.md step 4). The key acts as its owner with the owner's current role.
 */
@Injectable()
export class DbApiKeyAuthenticator extends ApiKeyAuthenticator {
  constructor(
    private readonly em: EntityManager,
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
    if (key.revokedAt) throw unauthenticated('This API key was revoked.');
    if (key.expiresAt && key.expiresAt <= now) throw unauthenticated('This API key has expired.');
    if (key.rotatedToId && !(key.graceUntil && key.graceUntil > now)) {
      throw unauthenticated('This API key was rotated and its grace period is over.');
    }
    if (!key.ownerId) throw refuse('API_KEY_HAS_NO_OWNER', 'This API key has no owner.');
    if (key.legacy || key.lineageCreatedAt < V1_KEYS_SINCE) {
      throw refuse('API_KEY_LEGACY', 'Keys made before 4 October 2026 are not accepted on /v1.');
    }
    if (key.allowedOrigins.length > 0) {
      throw refuse('API_KEY_HAS_WEBSITES', 'A key with allowed websites is not accepted on /v1.');
    }
    if (!key.ownerRole) {
      throw refuse('API_KEY_OWNER_NOT_IN_ORGANIZATION', "The key's owner is no longer in the organization.");
    }
    if (key.organizationDisabled) throw refuse('ORG_DISABLED', 'This organization is disabled.');
    // /v1 keys hold no websites, so every browser origin is unlisted (INTERFACES.md)
    if (call.origin !== undefined) {
      throw refuse('API_KEY_ORIGIN_NOT_ALLOWED', 'This key cannot be used from a browser origin.');
    }
    this.usage.record(key.id, now, call.ip, call.userAgent);
    return {
      kind: 'apiKey',
      keyId: key.id,
      keyName: key.name,
      prefixHint: key.prefixHint,
      scopes: key.scopes,
      expiresAt: key.expiresAt,
      rateLimitPerMinute: key.rateLimitPerMinute,
      userId: key.ownerId,
      organizationId: key.organizationId,
      role: key.ownerRole,
      planActive: key.planActive,
    };
  }

  /** Cached for seconds; a database that does not answer is 503 AUTH_UNAVAILABLE, never a 500. */
  private async lookup(secretHash: string): Promise<KeyFacts | null> {
    const cached = this.cache.get(secretHash);
    if (cached) return cached;
    let rows: KeyRow[];
    try {
      rows = await this.em.getConnection().execute<KeyRow[]>(
        `select k.id, k.organization_id, k.name, k.prefix_hint, k.legacy, k.system, k.scopes, k.allowed_origins,
                k.rate_limit_per_minute, k.created_by_id, k.lineage_created_at, k.expires_at, k.revoked_at,
                k.rotated_to_id, k.grace_until, k.owner_left_at, m.role as owner_role, o.plan_active, o.disabled
           from api_keys k
           join organizations o on o.id = k.organization_id
           left join memberships m on m.user_id = k.created_by_id and m.organization_id = k.organization_id
          where k.secret_hash = ?`,
        [secretHash],
      );
    } catch {
      throw new DomainError(
        'AUTH_UNAVAILABLE',
        'The key owner could not be checked; retry shortly.',
        undefined,
        {
          'Retry-After': '1',
        },
      );
    }
    if (rows.length === 0) return null;
    const facts = toFacts(rows[0]);
    this.cache.set(secretHash, facts);
    return facts;
  }
}
