import { TenantRepository } from '@app/platform/core';
import type { Membership } from './membership.entity';

export class MembershipRepository extends TenantRepository<Membership> {
  /** Ids of the agency's members among `userIds`. */
  async memberIdsAmong(organizationId: string, userIds: string[]): Promise<Set<string>> {
    if (userIds.length === 0) return new Set();
    const memberships = await this.find(this.scoped(organizationId, { userId: { $in: userIds } }), {
      fields: ['userId'],
    });
    return new Set(memberships.map((m) => m.userId));
  }

  countAdminsInOrg(organizationId: string): Promise<number> {
    return this.countInOrg(organizationId, { role: 'admin' });
  }

  /** Across agencies on purpose: a person is in one agency at most, whichever it is. */
  findAnyAgencyOf(userId: string): Promise<Membership | null> {
    return this.findOne({ userId });
  }

  /** Across agencies on purpose: someone in any agency cannot be invited or sign up again. */
  async isInAnyAgency(userId: string): Promise<boolean> {
    return (await this.count({ userId })) > 0;
  }
}
