import { Entity, EntityRepositoryType, PrimaryKey, Property } from '@mikro-orm/core';
import { AwayPeriodRepository } from './away-period.repository';

/** A person away from routing until `until` (INTERFACES.md "Lead routing", Away). */
@Entity({ tableName: 'routing_away', repository: () => AwayPeriodRepository })
export class AwayPeriod {
  [EntityRepositoryType]?: AwayPeriodRepository;

  @PrimaryKey({ type: 'uuid' })
  organizationId: string;

  @PrimaryKey({ type: 'uuid' })
  userId: string;

  @Property({ type: 'datetime' })
  until: Date;

  constructor(organizationId: string, userId: string, until: Date) {
    this.organizationId = organizationId;
    this.userId = userId;
    this.until = until;
  }

  /** Away until a new time (a past time is handled by the caller: the row goes). */
  extendTo(until: Date): void {
    this.until = until;
  }
}
