import { ApiProperty } from '@nestjs/swagger';
import type { ListResult } from '@app/platform';
import { STRATEGIES, type RouteStrategy } from '../domain/route-definition';
import {
  ROUTING_TRIGGERS,
  type RoutingDecisionRecord,
  type RoutingTrigger,
} from '../domain/routing-decision.entity';
import type { RoutingStep } from '../domain/routing-engine';
import { RoutingStepView } from './routing-step.view';

/** A decision log entry (INTERFACES.md "Lead routing"). */
export interface RoutingDecisionJson {
  id: string;
  leadId: number;
  at: string;
  trigger: RoutingTrigger;
  ruleId: string | null;
  routeName: string | null;
  strategy: RouteStrategy | null;
  smartRouting: boolean;
  userId: string;
  previousUserIds: string[];
  why: string;
  steps: RoutingStep[];
  reassignDueAt: string | null;
}

export const toRoutingDecisionJson = (row: RoutingDecisionRecord): RoutingDecisionJson => ({
  id: row.id,
  leadId: Number(row.leadId),
  at: row.at.toISOString(),
  trigger: row.trigger,
  ruleId: row.ruleId,
  routeName: row.routeName,
  strategy: row.strategy,
  smartRouting: row.smartRouting,
  userId: row.userId,
  previousUserIds: row.previousUserIds,
  why: row.why,
  steps: row.steps,
  reassignDueAt: row.reassignDueAt?.toISOString() ?? null,
});

export class RoutingDecisionView implements RoutingDecisionJson {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: 'integer', format: 'int64' }) leadId: number;
  @ApiProperty({ format: 'date-time' }) at: string;
  @ApiProperty({
    enum: ROUTING_TRIGGERS,
    description:
      '`intake` (a connector brought the lead), `route_unassigned`, `reassign` (nobody acted in time).',
  })
  trigger: RoutingTrigger;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'Null when Smart routing assigned.',
  })
  ruleId: string | null;
  @ApiProperty({ type: String, nullable: true, maxLength: 80 }) routeName: string | null;
  @ApiProperty({ enum: STRATEGIES, nullable: true }) strategy: RouteStrategy | null;
  @ApiProperty() smartRouting: boolean;
  @ApiProperty({ format: 'uuid', description: 'Who got the lead.' }) userId: string;
  @ApiProperty({ type: [String], format: 'uuid', description: 'The owners before.' })
  previousUserIds: string[];
  @ApiProperty({
    example:
      'Route "Spain" assigned Ana Ruiz: the lead matched its conditions and Ana Ruiz was next in round robin.',
  })
  why: string;
  @ApiProperty({ type: [RoutingStepView] }) steps: RoutingStep[];
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the lead goes to the next person of the route if its owner has not acted on it.',
  })
  reassignDueAt: string | null;
}

export class RoutingDecisionListView implements ListResult<RoutingDecisionJson> {
  @ApiProperty({ type: [RoutingDecisionView], description: 'Newest first, at most 50.' })
  data: RoutingDecisionJson[];
  @ApiProperty({ description: 'Older decisions exist.' }) hasMore: boolean;
}
