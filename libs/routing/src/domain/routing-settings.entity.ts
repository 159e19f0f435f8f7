import { ArrayType, Entity, EntityRepositoryType, PrimaryKey, Property } from '@mikro-orm/core';
import { RoutingSettingsRepository } from './routing-settings.repository';

/**
 * The organization's routing row (spec "Smart routing"): the switch and its team (null lists =
 * never set = every active member). The same row is the organization's routing lock and holds the
 * cross-route counters (`today_*`, `last_assigned`), which only SQL under that lock writes.
 */
@Entity({ tableName: 'routing_settings', repository: () => RoutingSettingsRepository })
export class RoutingSettings {
  [EntityRepositoryType]?: RoutingSettingsRepository;

  @PrimaryKey({ type: 'uuid' })
  organizationId: string;

  @Property({ type: 'boolean' })
  smartEnabled: boolean = false;

  @Property({ type: ArrayType, nullable: true })
  smartUserIds: string[] | null = null;

  @Property({ type: ArrayType, nullable: true })
  smartTeamIds: string[] | null = null;

  @Property({ type: 'datetime' })
  updatedAt: Date;

  constructor(organizationId: string, now: Date) {
    this.organizationId = organizationId;
    this.updatedAt = now;
  }

  /** `PUT …/smart`: sending people (users or teams) replaces the team. */
  setSmart(enabled: boolean, team: { userIds?: string[]; teamIds?: string[] }, now: Date): void {
    this.smartEnabled = enabled;
    if (team.userIds !== undefined || team.teamIds !== undefined) {
      this.smartUserIds = team.userIds ?? [];
      this.smartTeamIds = team.teamIds ?? [];
    }
    this.updatedAt = now;
  }

  /** Never set: Smart routing's team is every active member. */
  get smartTeamNeverSet(): boolean {
    return this.smartUserIds === null && this.smartTeamIds === null;
  }
}
