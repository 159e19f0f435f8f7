import { TenantRepository } from '@app/platform/core';
import type { Team } from './team.entity';

export class TeamRepository extends TenantRepository<Team> {
  /** Live teams by name. */
  liveInOrg(organizationId: string): Promise<Team[]> {
    return this.listInOrg(organizationId, { archivedAt: null }, { orderBy: { name: 'asc' } });
  }

  liveAmong(organizationId: string, teamIds: string[]): Promise<Team[]> {
    return this.listInOrg(organizationId, { id: { $in: teamIds }, archivedAt: null });
  }

  findLiveInOrg(organizationId: string, teamId: string): Promise<Team | null> {
    return this.findInOrg(organizationId, { id: teamId, archivedAt: null });
  }

  /** In the caller's transaction: the person leaves every team of the agency, archived ones too. */
  async removeMemberFromAll(organizationId: string, userId: string, now: Date): Promise<void> {
    await this.getEntityManager().execute(
      `update teams set member_ids = array_remove(member_ids, ?), updated_at = ? where organization_id = ? and ? = any(member_ids)`,
      [userId, now, organizationId, userId],
    );
  }
}
