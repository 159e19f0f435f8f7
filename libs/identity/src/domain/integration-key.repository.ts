import { preparedRows, TenantRepository } from '@app/platform/core';
import type { IntegrationKey } from './integration-key.entity';
import { integrationDoorStatement } from './integration-key.sql';

/** What the `/integrations/v1` door needs to know about a key and its agency: one row, one query. */
export interface IntegrationKeyFacts {
  id: string;
  organizationId: string;
  organizationName: string;
  name: string;
  connector: string;
  prefixHint: string;
  revokedAt: Date | null;
  organizationDisabled: boolean;
}

interface DoorRow {
  id: string;
  organization_id: string;
  name: string;
  connector: string;
  prefix_hint: string;
  revoked_at: Date | null;
  organization_name: string;
  disabled: boolean;
}

export class IntegrationKeyRepository extends TenantRepository<IntegrationKey> {
  /** Every key of the agency, revoked ones too, newest first. */
  newestFirstInOrg(organizationId: string): Promise<IntegrationKey[]> {
    return this.listInOrg(organizationId, {}, { orderBy: { createdAt: 'desc', id: 'desc' } });
  }

  countActiveInOrg(organizationId: string): Promise<number> {
    return this.countInOrg(organizationId, { revokedAt: null });
  }

  /** Inside a transaction: issues of one agency run one at a time, so two cannot both pass the limit. */
  async serializeIssuesInOrg(organizationId: string): Promise<void> {
    await this.getEntityManager().execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [
      `integration-keys:${organizationId}`,
    ]);
  }

  /** The door's lookup, any agency. */
  async doorFactsByKeyHash(keyHash: string): Promise<IntegrationKeyFacts | null> {
    const rows = await preparedRows<DoorRow>(this.getEntityManager(), integrationDoorStatement(keyHash));
    if (rows.length === 0) return null;
    const row = rows[0];
    return {
      id: row.id,
      organizationId: row.organization_id,
      organizationName: row.organization_name,
      name: row.name,
      connector: row.connector,
      prefixHint: row.prefix_hint,
      revokedAt: row.revoked_at && new Date(row.revoked_at),
      organizationDisabled: row.disabled,
    };
  }

  /** Last use per key, gathered in memory and written in one statement (never per request). */
  async recordLastUse(usage: { id: string; at: string }[]): Promise<void> {
    await this.getEntityManager()
      .getConnection()
      .execute(
        `update integration_keys k set last_used_at = greatest(k.last_used_at, u.at)
           from json_to_recordset(?::json) as u(id uuid, at timestamptz)
          where k.id = u.id`,
        [JSON.stringify(usage)],
      );
  }
}
