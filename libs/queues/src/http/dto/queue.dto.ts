import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, ArrayMaxSize, IsArray, IsObject, IsOptional, IsUUID } from 'class-validator';
import { IsOmittable } from '@app/platform';
import {
  QueueCallingView,
  QueueGroupView,
  QueueLaneView,
  QueueRuleView,
  NULLABLE_SORT,
} from '../../views/queue.view';

/**
 * A queue's fields as sent. The DTO only keeps them (`@Allow`); the one check is the domain's
 * `validateQueueDefinition`, which names each issue by its path (`lanes[1].when.children[0].value`).
 */
export class QueueFieldsDto {
  @ApiPropertyOptional({ type: String, maxLength: 40, minLength: 1, description: 'Required on create.' })
  @Allow()
  name?: unknown;

  @ApiPropertyOptional({
    type: String,
    pattern: '^[a-z0-9-]{1,40}$',
    default: 'phone',
    description: 'A sidebar icon name.',
  })
  @Allow()
  icon?: unknown;

  @ApiPropertyOptional({ enum: ['private', 'shared'], default: 'private' })
  @Allow()
  scope?: unknown;

  @ApiPropertyOptional({
    type: QueueGroupView,
    description: 'Which leads the queue holds; empty: every lead reached.',
  })
  @Allow()
  root?: unknown;

  @ApiPropertyOptional({
    type: [QueueLaneView],
    maxItems: 8,
    description: 'Lane `id` is optional (made from the name). Replaces the whole list on PATCH.',
  })
  @Allow()
  lanes?: unknown;

  @ApiPropertyOptional({ enum: ['hide', 'last'], default: 'last' })
  @Allow()
  rest?: unknown;

  @ApiPropertyOptional(NULLABLE_SORT)
  @Allow()
  sort?: unknown;

  @ApiPropertyOptional({
    type: QueueCallingView,
    description: '`pool` `team` needs an admin and `scope` `shared`.',
  })
  @Allow()
  calling?: unknown;

  @ApiPropertyOptional({
    type: [QueueRuleView],
    maxItems: 10,
    description: 'Rule `id` is optional (`rule-1`, …). Replaces the whole list on PATCH.',
  })
  @Allow()
  rules?: unknown;
}

export class CreateQueueDto extends QueueFieldsDto {}

export class ChangeQueueDto extends QueueFieldsDto {}

export class QueueAudienceDto {
  @ApiPropertyOptional({ type: [String], format: 'uuid', maxItems: 100, default: [] })
  @IsOmittable()
  @IsArray()
  @ArrayMaxSize(100)
  @IsUUID('all', { each: true })
  userIds?: string[];

  @ApiPropertyOptional({ type: [String], format: 'uuid', maxItems: 100, default: [] })
  @IsOmittable()
  @IsArray()
  @ArrayMaxSize(100)
  @IsUUID('all', { each: true })
  teamIds?: string[];
}

export class PreviewQueueDto {
  @ApiPropertyOptional({
    format: 'uuid',
    description: 'A stored queue the caller opens; or send `definition`.',
  })
  @IsOptional()
  @IsUUID('all')
  queueId?: string;

  @ApiPropertyOptional({
    type: QueueFieldsDto,
    description: 'An unsaved definition (any of root, lanes, rest, sort, calling, rules); or send `queueId`.',
  })
  @IsOptional()
  @IsObject()
  @Allow()
  definition?: Record<string, unknown>;
}

/** Not a DTO field: documents the answer of a preview that names neither or both. */
export const PREVIEW_ONE_OF = 'Exactly one of `queueId` and `definition`, else VALIDATION_FAILED.';
