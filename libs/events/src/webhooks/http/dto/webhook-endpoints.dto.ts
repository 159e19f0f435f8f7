import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  MaxLength,
  MinLength,
} from 'class-validator';
import { ApiNullable, IsOmittable, OffsetQueryDto, EVENT_TYPES } from '@app/platform';
import { EVENT_KINDS, WEBHOOK_LIMITS } from '../../domain/webhook-rules';

/** Every accepted `events` entry: a catalogued type, `<kind>.*` or `*`. */
export const EVENT_PATTERNS = ['*', ...EVENT_KINDS.map((kind) => `${kind}.*`), ...EVENT_TYPES];
const eventsMessage = {
  each: true,
  message: 'each events entry must be a catalogued event type, `<kind>.*` or `*`',
};

const EVENTS_DOC: ApiPropertyOptions = {
  type: [String],
  minItems: 1,
  maxItems: WEBHOOK_LIMITS.events,
  example: ['lead.created', 'deal.*'],
  description:
    'What the endpoint receives: catalogued event types, `<kind>.*` (every type of a kind) or `*`.',
};
const URL_DOC: ApiPropertyOptions = {
  maxLength: WEBHOOK_LIMITS.url,
  format: 'uri',
  example: 'https://example.com/webhooks/estate',
  description:
    '`https://`; a host resolving to a private, loopback, link-local or metadata address is refused ' +
    '(checked again at each delivery).',
};

export class CreateWebhookEndpointDto {
  @ApiProperty(URL_DOC)
  @IsString()
  @MinLength(1)
  @MaxLength(WEBHOOK_LIMITS.url)
  url: string;

  @ApiNullable(String, { maxLength: WEBHOOK_LIMITS.description })
  @IsOptional()
  @IsString()
  @MaxLength(WEBHOOK_LIMITS.description)
  description?: string | null;

  @ApiProperty(EVENTS_DOC)
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(WEBHOOK_LIMITS.events)
  @IsIn(EVENT_PATTERNS, eventsMessage)
  events: string[];

  @ApiPropertyOptional({ default: true, description: 'false: made disabled (`disabledReason` `manual`).' })
  @IsOmittable()
  @IsBoolean()
  enabled?: boolean;
}

export class ChangeWebhookEndpointDto {
  @ApiPropertyOptional(URL_DOC)
  @IsOmittable()
  @IsString()
  @MinLength(1)
  @MaxLength(WEBHOOK_LIMITS.url)
  url?: string;

  @ApiNullable(String, { maxLength: WEBHOOK_LIMITS.description, description: 'null clears it.' })
  @IsOptional()
  @IsString()
  @MaxLength(WEBHOOK_LIMITS.description)
  description?: string | null;

  @ApiPropertyOptional(EVENTS_DOC)
  @IsOmittable()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(WEBHOOK_LIMITS.events)
  @IsIn(EVENT_PATTERNS, eventsMessage)
  events?: string[];

  @ApiPropertyOptional({
    description:
      'true enables it and clears the failure state; false disables it (`disabledReason` `manual`).',
  })
  @IsOmittable()
  @IsBoolean()
  enabled?: boolean;
}

export class WebhookDeliveriesQueryDto extends OffsetQueryDto({
  max: WEBHOOK_LIMITS.deliveriesPageMax,
  default: WEBHOOK_LIMITS.deliveriesPageDefault,
}) {}
