import { ArrayType, BigIntType, Entity, EntityRepositoryType, PrimaryKey, Property } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';
import type { RouteStrategy } from './route-definition';
import type { RoutingDecision as Decided, RoutingStep } from './routing-engine';
import { RoutingDecisionRepository } from './routing-decision.repository';

export const ROUTING_TRIGGERS = ['intake', 'route_unassigned', 'reassign'] as const;
export type RoutingTrigger = (typeof ROUTING_TRIGGERS)[number];
export type ReassignState = 'pending' | 'done' | 'dropped';

/**
 * One real assignment by routing (the decision log, INTERFACES.md "Lead routing"): written in the
 * assignment's transaction. A route's `reassignAfterMinutes` makes it `pending` until
 * `reassignDueAt`; `chainUserIds` are everyone this lead went to in this chain, this one included.
 */
@Entity({ tableName: 'routing_decisions', repository: () => RoutingDecisionRepository })
export class RoutingDecisionRecord {
  [EntityRepositoryType]?: RoutingDecisionRepository;

  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  @Property({ type: 'uuid' })
  organizationId: string;

  @Property({ type: new BigIntType('number') })
  leadId: number;

  @Property({ type: 'datetime' })
  at: Date;

  @Property({ type: 'text' })
  trigger: RoutingTrigger;

  @Property({ type: 'uuid', nullable: true })
  ruleId: string | null;

  @Property({ type: 'text', nullable: true })
  routeName: string | null;

  @Property({ type: 'text', nullable: true })
  strategy: RouteStrategy | null;

  @Property({ type: 'boolean' })
  smartRouting: boolean;

  @Property({ type: 'uuid' })
  userId: string;

  @Property({ type: ArrayType })
  previousUserIds: string[];

  @Property({ type: 'text' })
  why: string;

  @Property({ type: 'json' })
  steps: RoutingStep[];

  @Property({ type: 'datetime', nullable: true })
  reassignDueAt: Date | null = null;

  @Property({ type: 'text', nullable: true })
  reassignState: ReassignState | null = null;

  @Property({ type: ArrayType })
  chainUserIds: string[];

  constructor(props: {
    organizationId: string;
    leadId: number;
    trigger: RoutingTrigger;
    decided: Decided & { userId: string };
    previousUserIds: string[];
    earlierInChain: string[];
    reassignAfterMinutes: number | null;
    at: Date;
  }) {
    const { decided } = props;
    this.organizationId = props.organizationId;
    this.leadId = props.leadId;
    this.at = props.at;
    this.trigger = props.trigger;
    this.ruleId = decided.ruleId;
    this.routeName = decided.routeName;
    this.strategy = decided.strategy;
    this.smartRouting = decided.smartRouting;
    this.userId = decided.userId;
    this.previousUserIds = props.previousUserIds;
    this.why = decided.why;
    this.steps = decided.steps;
    this.chainUserIds = [...props.earlierInChain, decided.userId];
    if (props.reassignAfterMinutes !== null) {
      this.reassignDueAt = new Date(props.at.getTime() + props.reassignAfterMinutes * 60_000);
      this.reassignState = 'pending';
    }
  }

  /** The history `actor` of this assignment. */
  get actor(): string {
    return `routing:${this.ruleId ?? 'smart'}`;
  }
}
