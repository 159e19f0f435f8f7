import { EntityRepository, LockMode } from '@mikro-orm/postgresql';
import type { Organization } from './organization.entity';

export class OrganizationRepository extends EntityRepository<Organization> {
  /** An agency known to exist (the caller's own, or the one a row belongs to). */
  getById(organizationId: string): Promise<Organization> {
    return this.findOneOrFail(organizationId);
  }

  /** Any agency by id, or null: for operators, who act across agencies. */
  findForOperator(organizationId: string): Promise<Organization | null> {
    return this.findOne(organizationId);
  }

  /** Inside a transaction: locks the agency's row until commit, so its changes run one at a time. */
  lockById(organizationId: string): Promise<Organization> {
    return this.findOneOrFail(organizationId, { lockMode: LockMode.PESSIMISTIC_WRITE });
  }
}
