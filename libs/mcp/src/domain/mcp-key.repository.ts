import { preparedRows, TenantRepository, type Role } from '@app/platform/core';
import type { GrantableScope } from '@app/platform/core';
import type { McpKey } from './mcp-key.entity';
import { mcpDoorFactsStatement } from './mcp-key.sql';

/** What the `/mcp` door needs: the key, its owner's current role, its agency's plan and state. */
export interface McpKeyFacts {
  id: string;
  organizationId: string;
  name: string;
  prefixHint: string;
  scopes: GrantableScope[];
  ownerId: string;
  expiresAt: Date | null;
  revokedAt: Date | null;
  /** Null when the owner is not a member, or became one again after the key was made. */
  ownerRole: Role | null;
  planActive: boolean;
  organizationDisabled: boolean;
}

interface FactsRow {
  id: string;
  organization_id: string;
  name: string;
  prefix_hint: string;
  scopes: GrantableScope[];
  owner_id: string;
  expires_at: string | Date | null;
  revoked_at: string | Date | null;
  owner_role: Role | null;
  plan_active: boolean;
  disabled: boolean;
}

const date = (value: string | Date | null): Date | null => (value === null ? null : new Date(value));

export class McpKeyRepository extends TenantRepository<McpKey> {
  /** The agency's keys (or one person's), every status, newest first; `limit + 1` rows. */
  listNewestFirst(organizationId: string, ownerId: string | null, limit: number, offset: number) {
    return this.listInOrg(organizationId, ownerId ? { ownerId } : {}, {
      orderBy: { createdAt: 'desc', id: 'desc' },
      limit: limit + 1,
      offset,
    });
  }

  /** A person's keys that still open `/mcp` (the 10-a-person limit). */
  countActiveOf(organizationId: string, ownerId: string, now: Date): Promise<number> {
    return this.countInOrg(organizationId, {
      ownerId,
      revokedAt: null,
      $or: [{ expiresAt: null }, { expiresAt: { $gt: now } }],
    });
  }

  /** Inside a transaction: one person's creates run one at a time, so two cannot both pass the limit. */
  async serializeCreatesOf(ownerId: string): Promise<void> {
    await this.getEntityManager().execute('select pg_advisory_xact_lock(hashtextextended(?, 1))', [
      `mcp_keys:${ownerId}`,
    ]);
  }

  /**
   * When the key was last used, to the minute: outside any transaction, one small UPDATE at most per
   * door-cache miss (every few seconds of use), skipped when written in the last minute.
   */
  async touch(keyId: string, now: Date): Promise<void> {
    await this.getEntityManager()
      .getConnection()
      .execute(
        'update mcp_keys set last_used_at = ? where id = ? and (last_used_at is null or last_used_at < ?)',
        [now, keyId, new Date(now.getTime() - 60_000)],
      );
  }

  /** The door's one read, any agency. */
  async doorFactsBySecretHash(secretHash: string): Promise<McpKeyFacts | null> {
    const [row] = await preparedRows<FactsRow>(this.getEntityManager(), mcpDoorFactsStatement(secretHash));
    if (!row) return null;
    return {
      id: row.id,
      organizationId: row.organization_id,
      name: row.name,
      prefixHint: row.prefix_hint,
      scopes: row.scopes,
      ownerId: row.owner_id,
      expiresAt: date(row.expires_at),
      revokedAt: date(row.revoked_at),
      ownerRole: row.owner_role,
      planActive: row.plan_active,
      organizationDisabled: row.disabled,
    };
  }
}
