import { TenantRepository } from '@app/platform/core';
import type { Queue } from './queue.entity';
import { SYSTEM_QUEUE_DEFINITION, SYSTEM_QUEUE_NAME } from './system-queue';

export class QueueRepository extends TenantRepository<Queue> {
  /** The candidates of a person's sidebar: the system queue, their own queues, the shared ones. */
  listSidebarCandidates(organizationId: string, userId: string): Promise<Queue[]> {
    return this.find({
      organizationId,
      $or: [{ system: true }, { createdBy: userId }, { scope: 'shared' }],
    });
  }

  countOwnedBy(organizationId: string, userId: string): Promise<number> {
    return this.count({ organizationId, createdBy: userId });
  }

  /**
   * The organization's system queue, made if it has none yet (organizations that existed before
   * queues got theirs from the migration; later ones on their first read). One per organization
   * (queues_one_system_per_org): a concurrent first read inserts nothing.
   */
  async ensureSystemQueue(organizationId: string, id: string, now: Date): Promise<void> {
    const { name: _name, icon, scope, ...definition } = SYSTEM_QUEUE_DEFINITION;
    await this.getEntityManager().execute(
      `insert into queues (id, organization_id, created_by, name, icon, scope, system, definition, created_at, updated_at)
         select ?, ?, null, ?, ?, ?, true, ?::jsonb, ?, ?
          where not exists (select 1 from queues where organization_id = ? and system)
         on conflict do nothing`,
      [
        id,
        organizationId,
        SYSTEM_QUEUE_NAME,
        icon,
        scope,
        JSON.stringify(definition),
        now,
        now,
        organizationId,
      ],
    );
  }

  /** Serializes a person's creates, so the per-person limit holds under concurrent requests. */
  async lockCreator(organizationId: string, userId: string): Promise<void> {
    await this.getEntityManager().execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [
      `queues:${organizationId}:${userId}`,
    ]);
  }
}
