import { preparedRows, TenantRepository, type Role, type Scope } from '@app/platform/core';
import { doorFactsStatement } from './api-key.sql';
import type { ApiKey } from './api-key.entity';

/** What the door needs to know about a key, its owner and its agency: one row, one query. */
export interface KeyFacts {
  id: string;
  organizationId: string;
  name: string;
  prefixHint: string | null;
  legacy: boolean;
  system: boolean;
  scopes: Scope[];
  allowedOrigins: string[];
  rateLimitPerMinute: number | null;
  ownerId: string | null;
  lineageCreatedAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  rotatedToId: string | null;
  graceUntil: Date | null;
  /** The owner's current role; null when the owner is not (or no longer) in the agency. */
  ownerRole: Role | null;
  planActive: boolean;
  organizationDisabled: boolean;
  /** The agency's figure for the shared `search` limit, set by operators; null: the default. */
  searchRatePerMinute: number | null;
}

/** Usage gathered in memory for one key, written in one statement with the others. */
export interface KeyUsage {
  id: string;
  count: number;
  at: string;
  ip: string | null;
  agent: string | null;
}

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
  search_rate_per_minute: number | null;
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
  searchRatePerMinute: row.search_rate_per_minute,
});

export class ApiKeyRepository extends TenantRepository<ApiKey> {
  /** Every key of the agency, every status, newest first. */
  newestFirstInOrg(organizationId: string): Promise<ApiKey[]> {
    return this.listInOrg(organizationId, {}, { orderBy: { createdAt: 'desc', id: 'desc' } });
  }

  /** Keys counting towards the 10/50 limits: not system, not revoked, not rotated, not expired. */
  countActiveInOrg(organizationId: string, now: Date, ownerId?: string): Promise<number> {
    return this.countInOrg(organizationId, {
      system: false,
      revokedAt: null,
      rotatedToId: null,
      $or: [{ expiresAt: null }, { expiresAt: { $gt: now } }],
      ...(ownerId !== undefined ? { createdById: ownerId } : {}),
    });
  }

  /** Inside a transaction: creates of one agency run one at a time, so two cannot both pass the limits. */
  async serializeCreatesInOrg(organizationId: string): Promise<void> {
    await this.getEntityManager().execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [
      organizationId,
    ]);
  }

  /** Any agency's key by id: for operators only, who act across agencies. */
  findAcrossAgenciesForOperator(keyId: string): Promise<ApiKey | null> {
    return this.findOne({ id: keyId });
  }

  /** The door's lookup: the key, its owner's current role and its agency's switches, any agency. */
  async doorFactsBySecretHash(secretHash: string): Promise<KeyFacts | null> {
    const rows = await preparedRows<KeyRow>(this.getEntityManager(), doorFactsStatement(secretHash));
    return rows.length === 0 ? null : toFacts(rows[0]);
  }

  /** Marks the keys of an owner who left the agency (in the caller's transaction); their ids. */
  async markOwnerLeft(organizationId: string, ownerId: string, now: Date): Promise<string[]> {
    const rows = await this.getEntityManager().execute<{ id: string }[]>(
      `update api_keys set owner_left_at = ?, updated_at = ?
        where organization_id = ? and created_by_id = ? and owner_left_at is null
        returning id`,
      [now, now, organizationId, ownerId],
    );
    return rows.map((row) => row.id);
  }

  /** Across agencies, for the periodic check: owners of unmarked keys who are no longer in the agency. */
  async departedOwnersAcrossAgencies(): Promise<{ organizationId: string; ownerId: string }[]> {
    const rows = await this.getEntityManager().execute<{ organization_id: string; created_by_id: string }[]>(
      `select distinct k.organization_id, k.created_by_id
         from api_keys k
        where k.owner_left_at is null and k.created_by_id is not null
          and not exists (select 1 from memberships m where m.user_id = k.created_by_id and m.organization_id = k.organization_id)`,
    );
    return rows.map((row) => ({ organizationId: row.organization_id, ownerId: row.created_by_id }));
  }

  /** Adds gathered usage to the keys in one UPDATE, outside any transaction. */
  async addUsage(usage: KeyUsage[]): Promise<void> {
    await this.getEntityManager()
      .getConnection()
      .execute(
        `update api_keys k
            set usage_count = k.usage_count + u.count,
                last_used_at = greatest(k.last_used_at, u.at),
                last_used_ip = coalesce(u.ip, k.last_used_ip),
                last_used_user_agent = coalesce(u.agent, k.last_used_user_agent)
           from json_to_recordset(?::json) as u(id uuid, count int, at timestamptz, ip text, agent text)
          where k.id = u.id`,
        [JSON.stringify(usage)],
      );
  }
}
