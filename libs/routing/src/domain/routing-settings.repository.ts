import { TenantRepository } from '@app/platform/core';
import type { RoutingSettings } from './routing-settings.entity';

export class RoutingSettingsRepository extends TenantRepository<RoutingSettings> {
  /**
   * Inside a transaction: takes the organization's routing lock (the row, made if missing) and
   * answers the row. Every decision and every route write starts here, so an organization's
   * routing runs one change at a time.
   */
  async lock(organizationId: string, now: Date): Promise<RoutingSettings> {
    await this.getEntityManager().execute(
      `insert into routing_settings (organization_id, updated_at) values (?, ?)
       on conflict (organization_id) do update set organization_id = excluded.organization_id`,
      [organizationId, now],
    );
    return (await this.findInOrg(organizationId, {}, { refresh: true }))!;
  }
}
