import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength, ValidateBy } from 'class-validator';
import { IntegerQuery } from '@app/platform';
import { EVENT_KINDS, parseEventTypes } from '../../application/event-types-filter';
import type { EventsRequest } from '../../application/events.queries';

export const EVENTS_LIMITS = { max: 500, default: 100 } as const;

/** `GET /v1/events` (INTERFACES.md "Webhooks and MCP"). */
export class EventsQueryDto {
  @IntegerQuery({ min: 0, default: 0 })
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    default: 0,
    description:
      'The last `sequence` seen (a previous answer’s `nextAfter`): events after it. 0 (the default) starts at ' +
      'the oldest event kept. An `after` below the last sequence the 30-day retention deleted is 400 ' +
      'EVENT_CURSOR_EXPIRED.',
  })
  after: number = 0;

  @IntegerQuery({ min: 1, max: EVENTS_LIMITS.max, default: EVENTS_LIMITS.default })
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: EVENTS_LIMITS.max,
    default: EVENTS_LIMITS.default,
  })
  limit: number = EVENTS_LIMITS.default;

  @ApiPropertyOptional({
    type: String,
    maxLength: 2000,
    example: 'lead.*,task.completed',
    description:
      `Only these types, comma-separated: a catalogued type or \`<kind>.*\` (kinds: ${EVENT_KINDS.join(', ')}). ` +
      'Anything else is 400 VALIDATION_FAILED.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  @ValidateBy({
    name: 'isEventTypeList',
    validator: {
      validate: (value) => typeof value === 'string' && parseEventTypes(value).issues.length === 0,
      defaultMessage: (args) =>
        `types must list catalogued event types or <kind>.* (not ${
          typeof args?.value === 'string' ? parseEventTypes(args.value).issues.join(', ') : 'a list'
        })`,
    },
  })
  types?: string;

  request(): EventsRequest {
    return {
      after: this.after,
      limit: this.limit,
      types: this.types === undefined ? null : parseEventTypes(this.types).types,
    };
  }
}
