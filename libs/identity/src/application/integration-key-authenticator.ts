import { Injectable } from '@nestjs/common';
import {
  Clock,
  authUnavailable,
  DomainError,
  INTEGRATION_KEY_PATTERN,
  integrationActor,
  IntegrationKeyAuthenticator,
  IntegrationPrincipal,
  sha256,
  unauthenticated,
} from '@app/platform';
import { IntegrationKeyFacts, IntegrationKeyRepository } from '../domain/integration-key.repository';
import { ApiKeyCache } from './api-key-cache';
import { KeyUsageRecorder } from './key-usage.recorder';

/**
 * The `/integrations/v1` door: malformed, unknown or revoked → 401; a disabled organization → 403
 * ORG_DISABLED. Looked up by hash (prepared statement) behind the key cache, which a revoke or an
 * organization switch clears at once; `lastUsedAt` is gathered and written in batches.
 */
@Injectable()
export class DbIntegrationKeyAuthenticator extends IntegrationKeyAuthenticator {
  constructor(
    private readonly keys: IntegrationKeyRepository,
    private readonly cache: ApiKeyCache,
    private readonly usage: KeyUsageRecorder,
    private readonly clock: Clock,
  ) {
    super();
  }

  async authenticate(secret: string): Promise<IntegrationPrincipal> {
    if (!INTEGRATION_KEY_PATTERN.test(secret)) throw unauthenticated('The integration key is malformed.');
    const key = await this.lookup(sha256(secret));
    if (!key) throw unauthenticated('Unknown integration key.');
    if (key.revokedAt) throw unauthenticated('This integration key was revoked.');
    if (key.organizationDisabled) throw new DomainError('ORG_DISABLED', 'This organization is disabled.');
    this.usage.recordIntegration(key.id, this.clock.now());
    return {
      kind: 'integration',
      organizationId: key.organizationId,
      organizationName: key.organizationName,
      keyId: key.id,
      keyName: key.name,
      connector: key.connector,
      prefixHint: key.prefixHint,
      actor: integrationActor(key.id),
    };
  }

  /** Cached for seconds; a database that does not answer is 503 AUTH_UNAVAILABLE, never a 500. */
  private async lookup(keyHash: string): Promise<IntegrationKeyFacts | null> {
    const cached = this.cache.getIntegration(keyHash);
    if (cached) return cached;
    let facts: IntegrationKeyFacts | null;
    try {
      facts = await this.keys.doorFactsByKeyHash(keyHash);
    } catch {
      throw authUnavailable('The key could not be checked; retry shortly.');
    }
    if (!facts) return null;
    this.cache.set(keyHash, facts);
    return facts;
  }
}
