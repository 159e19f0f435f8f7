import { TenantRepository } from '@app/platform/core';
import type { Tag } from './tag.entity';

export class TagRepository extends TenantRepository<Tag> {
  /** Tags by name; archived ones only when asked. */
  byNameInOrg(organizationId: string, includeArchived: boolean): Promise<Tag[]> {
    return this.listInOrg(organizationId, includeArchived ? {} : { archivedAt: null }, {
      orderBy: { name: 'asc' },
    });
  }

  findLiveInOrg(organizationId: string, tagId: string): Promise<Tag | null> {
    return this.findInOrg(organizationId, { id: tagId, archivedAt: null });
  }

  /** Which of `tagIds` are live tags of the agency. */
  async liveIdsAmong(organizationId: string, tagIds: string[]): Promise<Set<string>> {
    if (tagIds.length === 0) return new Set();
    const tags = await this.find(this.scoped(organizationId, { id: { $in: tagIds }, archivedAt: null }), {
      fields: ['id'],
    });
    return new Set(tags.map((tag) => tag.id));
  }

  /** Leads per tag over the whole agency: the CRM's trigger-kept counters (read-only here). */
  async leadCounts(organizationId: string, tagIds: string[]): Promise<Map<string, number>> {
    if (tagIds.length === 0) return new Map();
    const rows = await this.getEntityManager().execute<{ tag_id: string; n: string }[]>(
      'select tag_id, sum(n) as n from tag_lead_counts where organization_id = ? and tag_id = any(?::uuid[]) group by tag_id',
      [organizationId, `{${tagIds.join(',')}}`],
    );
    return new Map(rows.map((row) => [row.tag_id, Number(row.n)]));
  }
}
