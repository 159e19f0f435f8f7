import { ArrayType, Entity, EntityRepositoryType, PrimaryKey, Property } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';
import type { RouteDefinition, RouteSchedule, RouteStrategy } from './route-definition';
import type { FactGroup } from './routing-facts';
import { LeadRouteRepository } from './lead-route.repository';

/**
 * A lead route (spec "Lead route"): who it takes (conditions over routing facts), who gets the
 * leads (the pool and the strategy), when (schedule) and how many (daily cap). Its fairness state
 * lives in `route_state` (written under the organization's routing lock, not through this entity).
 */
@Entity({ tableName: 'lead_routes', repository: () => LeadRouteRepository })
export class LeadRoute {
  [EntityRepositoryType]?: LeadRouteRepository;

  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  @Property({ type: 'uuid' })
  organizationId: string;

  @Property({ type: 'text', nullable: true })
  name: string | null = null;

  @Property({ type: 'json', nullable: true })
  conditions: FactGroup | null = null;

  @Property({ type: 'text' })
  strategy: RouteStrategy = 'round_robin';

  @Property({ type: 'boolean' })
  paused: boolean = false;

  @Property({ type: ArrayType })
  userIds: string[] = [];

  @Property({ type: ArrayType })
  teamIds: string[] = [];

  @Property({ type: 'json', nullable: true })
  weights: Record<string, number> | null = null;

  @Property({ type: 'json', nullable: true })
  schedule: RouteSchedule | null = null;

  @Property({ type: 'integer', nullable: true })
  dailyCap: number | null = null;

  @Property({ type: 'integer', nullable: true })
  reassignAfterMinutes: number | null = null;

  /** 0 is checked first. */
  @Property({ type: 'integer' })
  position: number;

  @Property({ type: 'datetime' })
  createdAt: Date;

  @Property({ type: 'datetime' })
  updatedAt: Date;

  constructor(organizationId: string, definition: RouteDefinition, position: number, now: Date) {
    this.organizationId = organizationId;
    this.position = position;
    this.createdAt = now;
    this.apply(definition, now);
  }

  get definition(): RouteDefinition {
    return {
      name: this.name,
      conditions: this.conditions,
      strategy: this.strategy,
      paused: this.paused,
      userIds: this.userIds,
      teamIds: this.teamIds,
      weights: this.weights,
      schedule: this.schedule,
      dailyCap: this.dailyCap,
      reassignAfterMinutes: this.reassignAfterMinutes,
    };
  }

  /**
   * A (validated) definition replaces the old one. Answers whether the pool changed: the weighted
   * counters then start again (INTERFACES.md: counted since the pool last changed).
   */
  apply(definition: RouteDefinition, now: Date): { poolChanged: boolean } {
    const poolChanged =
      !sameList(this.userIds ?? [], definition.userIds) ||
      !sameList(this.teamIds ?? [], definition.teamIds) ||
      JSON.stringify(this.weights ?? null) !== JSON.stringify(definition.weights);
    this.name = definition.name;
    this.conditions = definition.conditions;
    this.strategy = definition.strategy;
    this.paused = definition.paused;
    this.userIds = definition.userIds;
    this.teamIds = definition.teamIds;
    this.weights = definition.weights;
    this.schedule = definition.schedule;
    this.dailyCap = definition.dailyCap;
    this.reassignAfterMinutes = definition.reassignAfterMinutes;
    this.updatedAt = now;
    return { poolChanged };
  }

  /** Its place in the routing order (the organization's routes are renumbered together). */
  placeAt(position: number): void {
    this.position = position;
  }
}

/** Routes take positions 0..n-1 in the given order (inserting, moving, closing up, reordering). */
export function renumber(routes: readonly LeadRoute[]): void {
  routes.forEach((route, index) => route.placeAt(index));
}

const sameList = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((value, index) => value === b[index]);
