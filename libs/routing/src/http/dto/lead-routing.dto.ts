import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { IntegerQuery, IsIntegerId, IsOmittable } from '@app/platform';
import { ROUTE_LIMITS, STRATEGIES } from '../../domain/route-definition';
import { NULLABLE_CONDITIONS, NULLABLE_SCHEDULE, NULLABLE_WEIGHTS } from '../../views/route.view';

/** An ISO date-time with a zone (`Z` or an offset). */
export const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;
/** `until`: that, or a date (= 00:00 UTC of that day). */
export const ISO_DATE_OR_DATE_TIME =
  /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;

const IDS = {
  oneOf: [
    { type: 'string' as const, format: 'uuid' },
    { type: 'array' as const, items: { type: 'string' as const, format: 'uuid' } },
  ],
};

/**
 * A route's fields as sent. The DTO only keeps them (`@Allow`); the one check is the domain's
 * `validateRouteDefinition`, which names each issue by its path (`weights.<userId>`,
 * `schedule.days[0].to`, `conditions.children[1].value.values[0]`).
 */
export class RouteFieldsDto {
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: ROUTE_LIMITS.name,
    example: 'Spanish buyers',
  })
  @Allow()
  name?: unknown;

  @ApiPropertyOptional(NULLABLE_CONDITIONS)
  @Allow()
  conditions?: unknown;

  @ApiPropertyOptional({ enum: STRATEGIES, default: 'round_robin' })
  @Allow()
  strategy?: unknown;

  @ApiPropertyOptional({ type: Boolean, default: false })
  @Allow()
  paused?: unknown;

  @ApiPropertyOptional({
    ...IDS,
    description: `Members named directly, in pool order (one id or up to ${ROUTE_LIMITS.poolPeople}). On PATCH, sending \`userIds\` or \`teamIds\` replaces the pool (the list not sent becomes empty).`,
  })
  @Allow()
  userIds?: unknown;

  @ApiPropertyOptional({
    ...IDS,
    description: `Teams whose members join the pool, by name (one id or up to ${ROUTE_LIMITS.poolTeams}); not on a \`weighted\` route.`,
  })
  @Allow()
  teamIds?: unknown;

  @ApiPropertyOptional(NULLABLE_WEIGHTS)
  @Allow()
  weights?: unknown;

  @ApiPropertyOptional(NULLABLE_SCHEDULE)
  @Allow()
  schedule?: unknown;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: ROUTE_LIMITS.dailyCap.min,
    maximum: ROUTE_LIMITS.dailyCap.max,
  })
  @Allow()
  dailyCap?: unknown;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: ROUTE_LIMITS.reassignAfterMinutes.min,
    maximum: ROUTE_LIMITS.reassignAfterMinutes.max,
  })
  @Allow()
  reassignAfterMinutes?: unknown;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    description:
      'Where the route goes (0 is checked first); default and anything past the end: last, just above Smart routing. The routes from there move down one.',
  })
  @IsOmittable()
  @IsInt()
  @Min(0)
  position?: number;
}

export class CreateRouteDto extends RouteFieldsDto {}

export class ChangeRouteDto extends RouteFieldsDto {}

export class RouteOrderDto {
  @ApiProperty({
    type: [String],
    format: 'uuid',
    description:
      'Every route id of the organization exactly once, in the new order (Smart routing is not listed).',
  })
  @IsArray()
  @ArrayMaxSize(1000)
  @IsUUID('all', { each: true })
  ruleIds: string[];
}

export class RoutingOverviewQueryDto {
  /** The window of each route's `leadsLast30Days`, in days. */
  @IntegerQuery({ min: 1, max: 90, default: 30 })
  days: number = 30;
}

export class SmartRoutingDto {
  @ApiProperty({ description: 'Smart routing on or off.' })
  @IsBoolean()
  enabled: boolean;

  @ApiPropertyOptional({
    type: [String],
    format: 'uuid',
    maxItems: ROUTE_LIMITS.poolPeople,
    description: 'Sending `userIds` or `teamIds` replaces the team (the list not sent becomes empty).',
  })
  @IsOmittable()
  @IsArray()
  @ArrayMaxSize(ROUTE_LIMITS.poolPeople)
  @IsUUID('all', { each: true })
  userIds?: string[];

  @ApiPropertyOptional({ type: [String], format: 'uuid', maxItems: ROUTE_LIMITS.poolTeams })
  @IsOmittable()
  @IsArray()
  @ArrayMaxSize(ROUTE_LIMITS.poolTeams)
  @IsUUID('all', { each: true })
  teamIds?: string[];
}

export class AwayDto {
  @ApiProperty({
    type: String,
    nullable: true,
    example: '2026-12-01T09:00:00Z',
    description:
      'Required. An ISO date-time with `Z` or an offset, or a date `YYYY-MM-DD` (00:00 UTC of that day); null or a past time = back now.',
  })
  @ValidateIf((_, value) => value !== null)
  @IsString({ message: 'until must be an ISO date-time, a date YYYY-MM-DD or null' })
  @Matches(ISO_DATE_OR_DATE_TIME, { message: 'until must be an ISO date-time, a date YYYY-MM-DD or null' })
  until: string | null;

  @ApiPropertyOptional({
    format: 'uuid',
    description: "Whose away time; default the key's person. Only an admin may name someone else.",
  })
  @IsOmittable()
  @IsUUID('all')
  userId?: string;
}

/** A lead's routing facts as a preview overrides them, field by field. */
export class RoutingFactsDto {
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200, example: 'idealista' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  source?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200, example: 'portal:idealista' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  origin?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200 })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  leadType?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200, example: 'es' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  language?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200, example: 'ES' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  country?: string | null;

  @ApiPropertyOptional({ type: [String], format: 'uuid', maxItems: 100 })
  @IsOmittable()
  @IsArray()
  @ArrayMaxSize(100)
  @IsUUID('all', { each: true })
  tagIds?: string[];

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200 })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  growthAreaId?: string | null;

  @ApiPropertyOptional({ type: Boolean })
  @IsOmittable()
  @IsBoolean()
  hasPhone?: boolean;

  @ApiPropertyOptional({ type: Boolean })
  @IsOmittable()
  @IsBoolean()
  hasEmail?: boolean;

  @ApiPropertyOptional({ format: 'date-time', description: 'When the lead arrived (its createdAt).' })
  @IsOmittable()
  @IsString()
  @Matches(ISO_DATE_TIME, { message: 'arrivedAt must be an ISO date-time with Z or an offset' })
  arrivedAt?: string;
}

export class RoutingPreviewDto {
  @ApiProperty({
    type: 'integer',
    minimum: 1,
    maximum: Number.MAX_SAFE_INTEGER,
    description: 'A lead of the organization.',
  })
  @IsIntegerId()
  leadId: number;

  @ApiPropertyOptional({
    type: RoutingFactsDto,
    description: "Facts that replace the lead's own, field by field (what if it came from elsewhere).",
  })
  @IsOmittable()
  @IsObject()
  @ValidateNested()
  @Type(() => RoutingFactsDto)
  facts?: RoutingFactsDto;
}
