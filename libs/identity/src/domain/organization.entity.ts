import { Entity, EntityRepositoryType, PrimaryKey, Property } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';
import { OrganizationRepository } from './organization.repository';

/** An agency. Its plan gates CRM writes and documents; a disabled one is refused on `/v1`. */
@Entity({ tableName: 'organizations', repository: () => OrganizationRepository })
export class Organization {
  [EntityRepositoryType]?: OrganizationRepository;

  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  @Property({ type: 'text' })
  name: string;

  @Property({ type: 'boolean' })
  planActive: boolean = true;

  @Property({ type: 'boolean' })
  disabled: boolean = false;

  @Property({ type: 'text' })
  currency: string = 'EUR';

  /** Operators' figure for the shared `search` limit (per key and per organization); null: 30. */
  @Property({ type: 'integer', nullable: true })
  searchRatePerMinute: number | null = null;

  @Property({ type: 'datetime' })
  createdAt: Date;

  @Property({ type: 'datetime' })
  updatedAt: Date;

  constructor(name: string, now: Date) {
    this.name = name;
    this.createdAt = now;
    this.updatedAt = now;
  }

  setPlan(active: boolean, now: Date): void {
    this.planActive = active;
    this.updatedAt = now;
  }

  setDisabled(disabled: boolean, now: Date): void {
    this.disabled = disabled;
    this.updatedAt = now;
  }

  /** Null goes back to the default. */
  setSearchRate(perMinute: number | null, now: Date): void {
    this.searchRatePerMinute = perMinute;
    this.updatedAt = now;
  }
}
