import { Entity, EntityRepositoryType, PrimaryKey, Property } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';
import type { Role } from '@app/platform/core';
import { MembershipRepository } from './membership.repository';

/** A person's place in an agency. One agency per person; removing the row is leaving. */
@Entity({ tableName: 'memberships', repository: () => MembershipRepository })
export class Membership {
  [EntityRepositoryType]?: MembershipRepository;

  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  @Property({ type: 'uuid' })
  organizationId: string;

  @Property({ type: 'uuid' })
  userId: string;

  @Property({ type: 'text' })
  role: Role;

  @Property({ type: 'datetime' })
  createdAt: Date;

  @Property({ type: 'datetime' })
  updatedAt: Date;

  constructor(organizationId: string, userId: string, role: Role, now: Date) {
    this.organizationId = organizationId;
    this.userId = userId;
    this.role = role;
    this.createdAt = now;
    this.updatedAt = now;
  }

  changeRole(role: Role, now: Date): void {
    this.role = role;
    this.updatedAt = now;
  }
}
