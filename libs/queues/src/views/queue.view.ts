import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import type { Queue } from '../domain/queue.entity';
import {
  OFFER_KINDS,
  OFFER_TRIGGERS,
  type OfferRule,
  type QueueCalling,
  type QueueDefinition,
  type QueueLane,
  type QueueOffer,
  type QueuePeople,
  type QueueRest,
  type QueueScope,
} from '../domain/queue-definition';
import { describeQueue, type QueueDescription } from '../domain/queue-description';
import { ROWS_PER_LANE } from '../domain/queue-preview.sql';
import {
  CRM_STATUSES,
  FIELDS,
  OPERATORS,
  SORT_KEYS,
  type FilterGroup,
  type QueueSort,
} from '../domain/queue-grammar';

/** A queue as every route answers it (spec "Queue"), and the preview's answer. */

export interface QueueJson {
  id: string;
  name: string;
  icon: string;
  scope: QueueScope;
  /** The caller created it. */
  mine: boolean;
  system: boolean;
  summary: string;
  description: QueueDescription;
  root: FilterGroup;
  lanes: QueueLane[];
  rest: QueueRest;
  sort: QueueSort | null;
  calling: QueueCalling;
  rules: OfferRule[];
  /** Who sees a shared queue besides its creator; empty lists = the whole agency (INTERFACES.md). */
  audience: QueuePeople;
  updatedAt: string;
}

export function toQueueJson(queue: Queue, viewerId: string): QueueJson {
  const definition = queue.fullDefinition;
  const { summary, description } = describeQueue(definition);
  return {
    id: queue.id,
    name: definition.name,
    icon: definition.icon,
    scope: definition.scope,
    mine: queue.isOwnedBy(viewerId),
    system: queue.system,
    summary,
    description,
    root: definition.root,
    lanes: definition.lanes,
    rest: definition.rest,
    sort: definition.sort,
    calling: definition.calling,
    rules: definition.rules,
    audience: { userIds: queue.audienceUserIds, teamIds: queue.audienceTeamIds },
    updatedAt: queue.updatedAt.toISOString(),
  };
}

export interface QueuePreviewLaneJson {
  id: string;
  name: string;
  count: number;
}

export interface QueuePreviewOfferJson {
  ruleId: string;
  when: OfferRule['when'];
  offer: QueueOffer;
  count: number;
}

export interface QueuePreviewRowJson {
  /** The lead's id. */
  id: number;
  firstName: string;
  lastName: string;
  laneId: string | null;
  laneName: string | null;
  reason: string;
}

export interface QueuePreviewJson {
  summary: string;
  description: QueueDescription;
  lanes: QueuePreviewLaneJson[];
  restCount: number;
  coolingDownCount: number;
  offers: QueuePreviewOfferJson[];
  rows: QueuePreviewRowJson[];
  rowsPerLane: number;
}

export type { QueueDefinition };

// ---- OpenAPI classes ----

export class QueueConditionValueView {
  @ApiProperty({
    enum: ['strings', 'integer', 'integerRange', 'boolean', 'string', 'empty', 'date', 'dateRange'],
  })
  kind: string;

  @ApiPropertyOptional({
    type: [String],
    maxItems: 100,
    description: '`strings`: up to 100 values of up to 200 characters (ids, `$me`, set values).',
  })
  values?: string[];

  @ApiPropertyOptional({
    oneOf: [{ type: 'integer' }, { type: 'boolean' }, { type: 'string' }],
    description:
      '`integer` (0-100,000; days 0-3,650; hours 0-8,760), `boolean`, `string` (1-200) or `date` (YYYY-MM-DD).',
  })
  value?: number | boolean | string;

  @ApiPropertyOptional({ type: 'integer', description: '`integerRange`: min ≤ max.' })
  min?: number;

  @ApiPropertyOptional({ type: 'integer' })
  max?: number;

  @ApiPropertyOptional({ format: 'date', description: '`dateRange`: from ≤ to (YYYY-MM-DD).' })
  from?: string;

  @ApiPropertyOptional({ format: 'date' })
  to?: string;
}

export class QueueConditionView {
  @ApiProperty({ enum: ['condition'] }) type: 'condition';
  @ApiProperty({ enum: FIELDS }) field: string;
  @ApiProperty({ enum: OPERATORS }) operator: string;
  @ApiProperty({ type: QueueConditionValueView }) value: QueueConditionValueView;
}

/** A group inside a group: conditions only. */
export class QueueInnerGroupView {
  @ApiProperty({ enum: ['group'] }) type: 'group';
  @ApiProperty({ enum: ['and', 'or'] }) combinator: 'and' | 'or';
  @ApiProperty({ type: [QueueConditionView], maxItems: 25 }) children: QueueConditionView[];
}

@ApiExtraModels(QueueConditionView, QueueInnerGroupView)
export class QueueGroupView {
  @ApiProperty({ enum: ['group'] }) type: 'group';
  @ApiProperty({ enum: ['and', 'or'] }) combinator: 'and' | 'or';

  @ApiProperty({
    type: 'array',
    maxItems: 25,
    description: 'Conditions, or groups of conditions (two levels at most).',
    items: {
      oneOf: [{ $ref: getSchemaPath(QueueConditionView) }, { $ref: getSchemaPath(QueueInnerGroupView) }],
    },
  })
  children: (QueueConditionView | QueueInnerGroupView)[];
}

/**
 * OpenAPI 3.0: an object or `null`. `nullable` needs a `type` beside it and a `$ref` takes no
 * siblings, so the small objects that may be null are written out in place.
 */
export const NULLABLE_SORT = {
  type: 'object' as const,
  nullable: true,
  required: ['key', 'dir'],
  properties: {
    key: { type: 'string' as const, enum: [...SORT_KEYS] },
    dir: { type: 'string' as const, enum: ['asc', 'desc'] },
  },
};
const NULLABLE_PEOPLE = {
  type: 'object' as const,
  nullable: true,
  required: ['userIds', 'teamIds'],
  properties: {
    userIds: { type: 'array' as const, items: { type: 'string' as const, format: 'uuid' } },
    teamIds: { type: 'array' as const, items: { type: 'string' as const, format: 'uuid' } },
  },
};

export class QueueSortView {
  @ApiProperty({ enum: SORT_KEYS }) key: string;
  @ApiProperty({ enum: ['asc', 'desc'] }) dir: 'asc' | 'desc';
}

export class QueueLaneView {
  @ApiProperty({ example: 'overdue', pattern: '^[a-z0-9][a-z0-9_-]{0,39}$' }) id: string;
  @ApiProperty({ example: 'Overdue', maxLength: 40 }) name: string;
  @ApiProperty({ type: QueueGroupView, description: 'An empty group takes every lead no earlier lane took.' })
  when: QueueGroupView;
  @ApiProperty(NULLABLE_SORT) sort: QueueSortView | null;
}

export class QueuePeopleView {
  @ApiProperty({ type: [String], format: 'uuid' }) userIds: string[];
  @ApiProperty({ type: [String], format: 'uuid' }) teamIds: string[];
}

export class QueueCallingView {
  @ApiProperty({ enum: ['owners', 'team'] }) pool: 'owners' | 'team';
  @ApiProperty({ type: 'integer', minimum: 0, maximum: 1440, example: 120 }) coolDownMinutes: number;
  @ApiProperty({ ...NULLABLE_PEOPLE, description: 'The team of a `team` pool; null otherwise.' })
  people: QueuePeopleView | null;
}

export class QueueOfferView {
  @ApiProperty({ enum: OFFER_KINDS }) kind: string;
  @ApiPropertyOptional({ enum: CRM_STATUSES, description: '`set_status`' }) status?: string;
  @ApiPropertyOptional({ format: 'uuid', description: '`add_tag`, `remove_tag`' }) tagId?: string;
  @ApiPropertyOptional({ format: 'uuid', description: '`assign`: a member' }) userId?: string;
  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 365, description: '`follow_up`' })
  inDays?: number;
}

export class QueueRuleView {
  @ApiProperty({ example: 'rule-1' }) id: string;
  @ApiProperty({ enum: OFFER_TRIGGERS }) when: string;
  @ApiProperty({ type: QueueGroupView, description: 'An empty group offers to every lead of the queue.' })
  if: QueueGroupView;
  @ApiProperty({ type: QueueOfferView }) offer: QueueOfferView;
}

export class QueueDescriptionLaneView {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
  @ApiProperty() text: string;
}

export class QueueDescriptionRuleView {
  @ApiProperty() id: string;
  @ApiProperty() text: string;
}

/** Words built from the structure; they may change (branch on the structure, not the words). */
export class QueueDescriptionView {
  @ApiProperty() who: string;
  @ApiProperty({ type: [QueueDescriptionLaneView] }) lanes: QueueDescriptionLaneView[];
  @ApiProperty() rest: string;
  @ApiProperty() order: string;
  @ApiProperty() calling: string;
  @ApiProperty({ type: [QueueDescriptionRuleView] }) rules: QueueDescriptionRuleView[];
}

export class QueueView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ maxLength: 40, example: 'Hot buyers' }) name: string;
  @ApiProperty({ example: 'phone' }) icon: string;
  @ApiProperty({ enum: ['private', 'shared'] }) scope: string;
  @ApiProperty({ description: 'The caller created this queue.' }) mine: boolean;
  @ApiProperty({ description: 'The organization\'s system queue ("My calls").' }) system: boolean;
  @ApiProperty() summary: string;
  @ApiProperty({ type: QueueDescriptionView }) description: QueueDescriptionView;
  @ApiProperty({ type: QueueGroupView }) root: QueueGroupView;
  @ApiProperty({ type: [QueueLaneView], maxItems: 8 }) lanes: QueueLaneView[];
  @ApiProperty({ enum: ['hide', 'last'] }) rest: string;
  @ApiProperty(NULLABLE_SORT) sort: QueueSortView | null;
  @ApiProperty({ type: QueueCallingView }) calling: QueueCallingView;
  @ApiProperty({ type: [QueueRuleView], maxItems: 10 }) rules: QueueRuleView[];
  @ApiProperty({
    type: QueuePeopleView,
    description: 'Who sees a shared queue besides its creator (empty lists: the whole agency).',
  })
  audience: QueuePeopleView;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class QueueListView {
  @ApiProperty({ type: [QueueView] }) queues: QueueView[];
}

export class QueuePreviewLaneView {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: 'integer' }) count: number;
}

export class QueuePreviewOfferView {
  @ApiProperty() ruleId: string;
  @ApiProperty({ enum: OFFER_TRIGGERS }) when: string;
  @ApiProperty({ type: QueueOfferView }) offer: QueueOfferView;
  @ApiProperty({ type: 'integer', description: 'Leads of the queue the rule’s `if` matches now.' })
  count: number;
}

export class QueuePreviewRowView {
  @ApiProperty({ type: 'integer', description: 'The lead id.' }) id: number;
  @ApiProperty() firstName: string;
  @ApiProperty() lastName: string;
  @ApiProperty({ type: String, nullable: true, description: 'Null for a rest row.' }) laneId: string | null;
  @ApiProperty({ type: String, nullable: true }) laneName: string | null;
  @ApiProperty({ description: 'Why the lead is here and where: the lane and the value it is ordered by.' })
  reason: string;
}

export class QueuePreviewView {
  @ApiProperty() summary: string;
  @ApiProperty({ type: QueueDescriptionView }) description: QueueDescriptionView;
  @ApiProperty({ type: [QueuePreviewLaneView] }) lanes: QueuePreviewLaneView[];
  @ApiProperty({
    type: 'integer',
    description: 'Leads no lane takes (cooling ones left out), whatever `rest` is.',
  })
  restCount: number;
  @ApiProperty({
    type: 'integer',
    description: 'Leads left out because they were called within `coolDownMinutes`.',
  })
  coolingDownCount: number;
  @ApiProperty({ type: [QueuePreviewOfferView] }) offers: QueuePreviewOfferView[];
  @ApiProperty({ type: [QueuePreviewRowView] }) rows: QueuePreviewRowView[];
  @ApiProperty({ type: 'integer', example: ROWS_PER_LANE }) rowsPerLane: number;
}
