import { ApiExtraModels, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { ROUTE_LIMITS, STRATEGIES, type RouteSchedule, type RouteStrategy } from '../domain/route-definition';
import type { PoolMember } from '../domain/route-pool';
import { describeRoute } from '../domain/route-summary';
import { FACT_OPERATORS, ROUTING_FACTS, type FactGroup } from '../domain/routing-facts';

/** A lead route as every route answers it (spec "Lead route"). */

export interface RouteMemberJson {
  userId: string;
  /** The team that brought them; null when named directly. */
  teamId: string | null;
  name: string;
  /** Their percent on a `weighted` route; null otherwise. */
  weight: number | null;
}

export interface RouteJson {
  id: string;
  name: string | null;
  summary: string;
  conditions: FactGroup | null;
  strategy: RouteStrategy;
  position: number;
  paused: boolean;
  /** The pool as stored (what PATCH replaces). */
  userIds: string[];
  teamIds: string[];
  weights: Record<string, number> | null;
  /** The pool's people in the organization now, pool order. */
  members: RouteMemberJson[];
  schedule: RouteSchedule | null;
  dailyCap: number | null;
  reassignAfterMinutes: number | null;
  /** This route's assignments within the `days` window (30 unless asked). */
  leadsLast30Days: number;
}

/** A stored route (the loader's row) and its people now (`LoadedRoute` of the snapshot loader). */
export interface RouteSource {
  row: {
    id: string;
    name: string | null;
    conditions: unknown;
    strategy: RouteStrategy;
    paused: boolean;
    userIds: string[];
    teamIds: string[];
    weights: Record<string, number> | null;
    schedule: RouteSchedule | null;
    dailyCap: number | null;
    reassignAfterMinutes: number | null;
    position: number;
  };
  members: PoolMember[];
}

export function toRouteJson(route: RouteSource, leadsLast30Days: number): RouteJson {
  const { row } = route;
  const conditions = (row.conditions ?? null) as FactGroup | null;
  return {
    id: row.id,
    name: row.name,
    summary: describeRoute({
      conditions,
      strategy: row.strategy,
      paused: row.paused,
      members: route.members,
      weights: row.weights,
      schedule: row.schedule,
      dailyCap: row.dailyCap,
      reassignAfterMinutes: row.reassignAfterMinutes,
    }),
    conditions,
    strategy: row.strategy,
    position: row.position,
    paused: row.paused,
    userIds: row.userIds,
    teamIds: row.teamIds,
    weights: row.weights,
    members: route.members.map((member) => ({
      userId: member.userId,
      teamId: member.teamId,
      name: member.name,
      weight: row.weights?.[member.userId] ?? null,
    })),
    schedule: row.schedule,
    dailyCap: row.dailyCap,
    reassignAfterMinutes: row.reassignAfterMinutes,
    leadsLast30Days,
  };
}

// ---- OpenAPI classes ----

export class RouteFactValueView {
  @ApiProperty({
    enum: ['strings', 'empty', 'date'],
    description:
      '`strings` for has_any_of / has_all_of / has_none_of, `date` for is_before / is_after, `empty` otherwise.',
  })
  kind: string;

  @ApiProperty({
    type: [String],
    required: false,
    maxItems: 100,
    description: '`strings`: 1-100 values of 1-200 characters (uuids for tagIds and growthAreaId; no `$me`).',
  })
  values?: string[];

  @ApiProperty({ required: false, description: '`date`: an ISO date or date-time.', example: '2026-01-01' })
  value?: string;
}

export class RouteConditionView {
  @ApiProperty({ enum: ['condition'] }) type: 'condition';
  @ApiProperty({ enum: ROUTING_FACTS, description: 'A routing fact.' }) field: string;
  @ApiProperty({ enum: FACT_OPERATORS }) operator: string;
  @ApiProperty({ type: RouteFactValueView }) value: RouteFactValueView;
}

/** A group inside the conditions: conditions only. */
export class RouteInnerGroupView {
  @ApiProperty({ enum: ['group'] }) type: 'group';
  @ApiProperty({ enum: ['and', 'or'] }) combinator: 'and' | 'or';
  @ApiProperty({ type: [RouteConditionView], maxItems: 25 }) children: RouteConditionView[];
}

const CHILDREN = {
  type: 'array' as const,
  maxItems: 25,
  items: {
    oneOf: [{ $ref: getSchemaPath(RouteConditionView) }, { $ref: getSchemaPath(RouteInnerGroupView) }],
  },
};

/**
 * OpenAPI 3.0: a `$ref` takes no `nullable` beside it, so the objects that may be null are
 * written out in place.
 */
export const NULLABLE_CONDITIONS = {
  type: 'object' as const,
  nullable: true,
  required: ['type', 'combinator', 'children'],
  description:
    'An AND/OR group over routing facts (one level of nested groups); null or an empty group takes every lead.',
  properties: {
    type: { type: 'string' as const, enum: ['group'] },
    combinator: { type: 'string' as const, enum: ['and', 'or'] },
    children: CHILDREN,
  },
};

export const NULLABLE_SCHEDULE = {
  type: 'object' as const,
  nullable: true,
  required: ['zone', 'days'],
  description: 'When the route takes leads; null = always. `days: []` never opens.',
  properties: {
    zone: { type: 'string' as const, example: 'Europe/Madrid', description: 'An IANA time zone.' },
    days: {
      type: 'array' as const,
      maxItems: ROUTE_LIMITS.scheduleEntries,
      items: {
        type: 'object' as const,
        required: ['day', 'from', 'to'],
        properties: {
          day: { type: 'integer' as const, minimum: 1, maximum: 7, description: '1 Monday … 7 Sunday.' },
          from: { type: 'string' as const, pattern: '^\\d{2}:\\d{2}$', example: '09:00' },
          to: { type: 'string' as const, pattern: '^\\d{2}:\\d{2}$', example: '18:00' },
        },
      },
    },
  },
};

export const NULLABLE_WEIGHTS = {
  type: 'object' as const,
  nullable: true,
  additionalProperties: { type: 'integer' as const, minimum: 1, maximum: 100 },
  description: '`weighted` only: an integer percent for exactly each user id of the pool, totalling 100.',
  example: { '0190a0a0-0000-7000-8000-000000000001': 60, '0190a0a0-0000-7000-8000-000000000002': 40 },
};

export class RouteMemberView {
  @ApiProperty({ format: 'uuid' }) userId: string;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The team that brought them; null when named directly.',
  })
  teamId: string | null;
  @ApiProperty() name: string;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Their percent on a `weighted` route.' })
  weight: number | null;
}

@ApiExtraModels(RouteConditionView, RouteInnerGroupView)
export class RouteView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: String, nullable: true, maxLength: ROUTE_LIMITS.name, example: 'Spanish buyers' })
  name: string | null;
  @ApiProperty({
    description: 'What the route does, in one plain sentence (words may change; read the fields).',
    example:
      'Leads from idealista in Spanish go to Ana and Luis in turn, Monday-Friday 09:00-18:00 (Europe/Madrid), at most 20 a day each.',
  })
  summary: string;
  @ApiProperty(NULLABLE_CONDITIONS) conditions: FactGroup | null;
  @ApiProperty({ enum: STRATEGIES }) strategy: string;
  @ApiProperty({ type: 'integer', minimum: 0, description: '0 is checked first.' }) position: number;
  @ApiProperty() paused: boolean;
  @ApiProperty({ type: [String], format: 'uuid', description: 'The people named directly, as stored.' })
  userIds: string[];
  @ApiProperty({ type: [String], format: 'uuid', description: 'The teams of the pool, as stored.' })
  teamIds: string[];
  @ApiProperty(NULLABLE_WEIGHTS) weights: Record<string, number> | null;
  @ApiProperty({
    type: [RouteMemberView],
    description:
      'The pool now: the users named (in order), then the members of its teams by name, without repeats; ' +
      'people who left are not listed.',
  })
  members: RouteMemberView[];
  @ApiProperty(NULLABLE_SCHEDULE) schedule: RouteSchedule | null;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    minimum: ROUTE_LIMITS.dailyCap.min,
    maximum: ROUTE_LIMITS.dailyCap.max,
    description: 'Most leads one person gets from this route a day (in the schedule zone, else UTC).',
  })
  dailyCap: number | null;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    minimum: ROUTE_LIMITS.reassignAfterMinutes.min,
    maximum: ROUTE_LIMITS.reassignAfterMinutes.max,
  })
  reassignAfterMinutes: number | null;
  @ApiProperty({
    type: 'integer',
    description: 'Leads this route assigned within the `days` window of the overview (30 by default).',
  })
  leadsLast30Days: number;
}
