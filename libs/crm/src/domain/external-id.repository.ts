import { TenantRepository } from '@app/platform/core';
import type { ExternalId, ExternalKind } from './external-id.entity';

export interface ExternalRef {
  connector: string;
  kind: ExternalKind;
  externalId: string;
}

export class ExternalIdRepository extends TenantRepository<ExternalId> {
  /** Our record's id for the connector's id, or null. */
  async recordIdOf(organizationId: string, ref: ExternalRef): Promise<string | null> {
    const rows = await this.getEntityManager().execute<{ record_id: string }[]>(
      `select record_id from integration_external_ids
        where organization_id = ? and connector = ? and kind = ? and external_id = ?`,
      [organizationId, ref.connector, ref.kind, ref.externalId],
    );
    return rows[0]?.record_id ?? null;
  }

  /**
   * Records the connector's id for `recordId` unless it is already taken (INSERT … ON CONFLICT DO
   * NOTHING); the record id it points at afterwards.
   */
  async remember(
    organizationId: string,
    ref: ExternalRef,
    recordId: string,
    leadId: number | null,
    now: Date,
  ): Promise<string> {
    const rows = await this.getEntityManager().execute<{ record_id: string }[]>(
      `with inserted as (
         insert into integration_external_ids (organization_id, connector, kind, external_id, record_id, lead_id, created_at)
         values (?, ?, ?, ?, ?, ?, ?)
         on conflict do nothing
         returning record_id)
       select record_id from inserted
       union all
       select record_id from integration_external_ids
        where organization_id = ? and connector = ? and kind = ? and external_id = ?
          and not exists (select 1 from inserted)`,
      [
        organizationId,
        ref.connector,
        ref.kind,
        ref.externalId,
        recordId,
        leadId,
        now,
        organizationId,
        ref.connector,
        ref.kind,
        ref.externalId,
      ],
    );
    return rows[0].record_id;
  }
}
