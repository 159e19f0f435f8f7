import { Injectable } from '@nestjs/common';
import {
  ApiKeyPrincipal,
  Clock,
  authUnavailable,
  DomainError,
  MCP_KEY_PATTERN,
  McpKeyAuthenticator,
  sha256,
  unauthenticated,
} from '@app/platform';
import { McpKeyFacts, McpKeyRepository } from '../domain/mcp-key.repository';
import { McpKeyCache } from './mcp-key-cache';

/**
 * The `POST /mcp` door: the key by its hash (cached for seconds), then its life, its owner and its
 * agency. The principal is the owner's, with the owner's current role, the key's scopes and
 * `via: 'mcp'` (its events' actor is `mcp_key`).
 */
@Injectable()
export class DbMcpKeyAuthenticator extends McpKeyAuthenticator {
  constructor(
    private readonly keys: McpKeyRepository,
    private readonly cache: McpKeyCache,
    private readonly clock: Clock,
  ) {
    super();
  }

  async authenticate(secret: string): Promise<ApiKeyPrincipal> {
    if (!MCP_KEY_PATTERN.test(secret)) throw unauthenticated('The MCP key is malformed.');
    const key = await this.lookup(sha256(secret));
    if (!key) throw unauthenticated('Unknown MCP key.');
    const now = this.clock.now();
    if (key.revokedAt) throw unauthenticated('This MCP key was revoked.');
    if (key.expiresAt && key.expiresAt <= now) throw unauthenticated('This MCP key has expired.');
    if (!key.ownerRole) {
      throw new DomainError(
        'API_KEY_OWNER_NOT_IN_ORGANIZATION',
        "The key's owner is no longer in the organization.",
      );
    }
    if (key.organizationDisabled) throw new DomainError('ORG_DISABLED', 'This organization is disabled.');
    return {
      kind: 'apiKey',
      via: 'mcp',
      keyId: key.id,
      keyName: key.name,
      prefixHint: key.prefixHint,
      scopes: key.scopes,
      expiresAt: key.expiresAt,
      rateLimitPerMinute: null,
      userId: key.ownerId,
      organizationId: key.organizationId,
      role: key.ownerRole,
      planActive: key.planActive,
    };
  }

  /** A database that does not answer is 503 AUTH_UNAVAILABLE, never a 500. */
  private async lookup(secretHash: string): Promise<McpKeyFacts | null> {
    const cached = this.cache.get(secretHash);
    if (cached) return cached;
    let facts: McpKeyFacts | null;
    try {
      facts = await this.keys.doorFactsBySecretHash(secretHash);
    } catch {
      throw authUnavailable('The key owner could not be checked; retry shortly.');
    }
    if (facts) {
      this.cache.set(secretHash, facts);
      // never awaited: the door does not wait on bookkeeping, and a failure only loses a timestamp
      this.keys.touch(facts.id, this.clock.now()).catch(() => undefined);
    }
    return facts;
  }
}
