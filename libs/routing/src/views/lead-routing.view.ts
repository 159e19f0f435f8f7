import { ApiProperty } from '@nestjs/swagger';
import { PROBLEM_CODES, type RouteProblem } from '../domain/route-problems';
import type { RoutingStep } from '../domain/routing-engine';
import { RouteView, type RouteJson } from './route.view';
import { RoutingStepView } from './routing-step.view';

/** The answers of the lead routing admin routes besides the Route (spec "Lead routing" table). */

export interface SmartRoutingJson {
  enabled: boolean;
  team: { userId: string; name: string }[];
}

export interface AwayJson {
  userId: string;
  /** ISO date-time; null = back (not away). */
  until: string | null;
}

export interface RoutingOverviewJson {
  routes: RouteJson[];
  smartRouting: SmartRoutingJson;
  problems: RouteProblem[];
  away: { userId: string; until: string }[];
}

export interface RouteListJson {
  routes: RouteJson[];
}

export interface DeletedRouteJson {
  deleted: true;
  ruleId: string;
}

// ---- OpenAPI classes ----

export class RoutingPersonView {
  @ApiProperty({ format: 'uuid' }) userId: string;
  @ApiProperty({ example: 'Ana Admin' }) name: string;
}

export class SmartRoutingView {
  @ApiProperty({ description: 'On: leads no route takes go to the team (the `smart` strategy).' })
  enabled: boolean;
  @ApiProperty({
    type: [RoutingPersonView],
    description:
      'The team now: the users named, then the members of its teams by name, without repeats; never set = every active member.',
  })
  team: RoutingPersonView[];
}

export class RouteProblemView {
  @ApiProperty({ format: 'uuid' }) ruleId: string;
  @ApiProperty({ enum: PROBLEM_CODES }) code: string;
  @ApiProperty({
    example: 'Route "Spanish buyers" has nobody active in its pool, so its leads fall through.',
  })
  sentence: string;
}

export class AwayPeriodView {
  @ApiProperty({ format: 'uuid' }) userId: string;
  @ApiProperty({ format: 'date-time' }) until: string;
}

export class AwayView {
  @ApiProperty({ format: 'uuid' }) userId: string;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Away until then; null = back now.',
  })
  until: string | null;
}

export class RoutingOverviewView {
  @ApiProperty({ type: [RouteView], description: 'By position, 0 (checked first) first.' })
  routes: RouteView[];
  @ApiProperty({ type: SmartRoutingView }) smartRouting: SmartRoutingView;
  @ApiProperty({ type: [RouteProblemView], description: 'Computed now, routes in order.' })
  problems: RouteProblemView[];
  @ApiProperty({
    type: [AwayPeriodView],
    description: 'People away now (`until` in the future), soonest back first.',
  })
  away: AwayPeriodView[];
}

export class RouteListView {
  @ApiProperty({ type: [RouteView], description: 'By the new position.' }) routes: RouteView[];
}

export class DeletedRouteView {
  @ApiProperty({ enum: [true] }) deleted: true;
  @ApiProperty({ format: 'uuid' }) ruleId: string;
}

export class RoutingPreviewView {
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The route that assigns.' })
  ruleId: string | null;
  @ApiProperty({ type: String, nullable: true }) routeName: string | null;
  @ApiProperty({ description: 'Smart routing assigns (no route took the lead).' }) smartRouting: boolean;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'Null when left unassigned.' })
  userId: string | null;
  @ApiProperty({ type: String, nullable: true }) userName: string | null;
  @ApiProperty({ description: 'One sentence naming the route and the reason.' }) why: string;
  @ApiProperty({ type: [RoutingStepView], description: 'Exactly what a real assignment would log.' })
  steps: RoutingStep[];
}

export class RouteUnassignedView {
  @ApiProperty({ type: 'integer', description: 'Unassigned leads looked at (up to 500, oldest first).' })
  considered: number;
  @ApiProperty({ type: 'integer' }) assigned: number;
  @ApiProperty({ type: 'integer', description: 'Still unassigned (no route nor Smart routing took them).' })
  leftWaiting: number;
}
