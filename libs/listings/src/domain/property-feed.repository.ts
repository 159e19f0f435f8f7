import { TenantRepository } from '@app/platform/core';
import type { PropertyFeed } from './property-feed.entity';

/** The agency's connected feeds. */
export class PropertyFeedRepository extends TenantRepository<PropertyFeed> {
  /** Every feed of the agency, oldest connection first (at most one per source). */
  byCreated(organizationId: string): Promise<PropertyFeed[]> {
    return this.listInOrg(organizationId, {}, { orderBy: { createdAt: 'asc', id: 'asc' } });
  }

  /**
   * The agency's feed row, locked for a write in the caller's transaction (a change, a removal, an
   * import); null when it is not the agency's. While an import holds the lock this fails at once
   * with `lock_not_available` (55P03) instead of waiting.
   */
  async lockInOrg(organizationId: string, id: string): Promise<PropertyFeed | null> {
    const em = this.getEntityManager();
    const [row] = await em.execute<{ id: string }[]>(
      'select id from property_feeds where id = ? and organization_id = ? for update nowait',
      [id, organizationId],
    );
    return row ? this.findInOrg(organizationId, { id }) : null;
  }
}
