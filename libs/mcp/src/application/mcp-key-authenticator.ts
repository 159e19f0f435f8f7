import { Injectable } from '@nestjs/common';
import { ApiKeyPrincipal, Clock, MCP_KEY_PATTERN, McpKeyAuthenticator } from '@app/platform';
import { KeyDoor, PersonKeyKind } from '@app/identity';
import { McpKeyFacts, McpKeyRepository } from '../domain/mcp-key.repository';

/**
 * MCP keys through identity's key door (`POST /mcp`): the table is this context's, so it plugs its
 * kind in (its one read); the door holds the cache, the changes and the refusals: its life, its
 * owner and its agency. The principal is the owner's, with the owner's current role, the key's
 * scopes and `via: 'mcp'` (its events' actor is `mcp_key`).
 */
@Injectable()
export class DbMcpKeyAuthenticator extends McpKeyAuthenticator {
  private readonly kind: PersonKeyKind<McpKeyFacts, void, ApiKeyPrincipal>;

  constructor(
    private readonly door: KeyDoor,
    keys: McpKeyRepository,
    clock: Clock,
  ) {
    super();
    this.kind = {
      noun: 'MCP key',
      pattern: MCP_KEY_PATTERN,
      actsAs: 'person',
      read: async (secretHash) => {
        const facts = await keys.doorFactsBySecretHash(secretHash);
        // never awaited: the door does not wait on bookkeeping, and a failure only loses a timestamp
        if (facts) keys.touch(facts.id, clock.now()).catch(() => undefined);
        return facts;
      },
      admit: (key, _none, holder) => ({
        kind: 'apiKey',
        via: 'mcp',
        keyId: key.id,
        keyName: key.name,
        prefixHint: key.prefixHint,
        scopes: key.scopes,
        expiresAt: key.expiresAt,
        rateLimitPerMinute: null,
        userId: holder.userId,
        organizationId: key.organizationId,
        role: holder.role,
        planActive: key.planActive,
      }),
    };
  }

  authenticate(secret: string): Promise<ApiKeyPrincipal> {
    return this.door.open(this.kind, secret, undefined);
  }
}
