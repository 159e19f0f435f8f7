import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { IntegerQuery, OffsetQueryDto, ApiNullable } from '@app/platform';
import type { LeadListQuery } from '../../application/leads.queries';
import { CRM_STATUSES, type CrmStatus } from '../../domain/lead.entity';
import { NotInSyncMode, SyncCursor, SyncQuery, SyncSince } from './sync.dto';

/** `a`, `["a","b"]` or `a,b` (query strings: comma-separated or repeated) → string[]. */
const toList = ({ value }: { value: unknown }): unknown => {
  if (value === undefined || value === null) return value;
  const items = Array.isArray(value) ? value : [value];
  return items.flatMap((item) =>
    typeof item === 'string'
      ? item
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : [item],
  );
};

/** A lead id in a body: a positive whole number that fits the database's bigint. */
export const LeadIdField = (options: { each?: boolean } = {}) =>
  applyDecorators(IsInt(options), Min(1, options), Max(Number.MAX_SAFE_INTEGER, options));

/** A list of uuids, sent as a JSON array, a single value, or comma-separated/repeated in a query. */
export const UuidList = (max: number) =>
  applyDecorators(Transform(toList), IsArray(), ArrayMaxSize(max), IsUUID('all', { each: true }));

const BCP47 = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;
const statusMessage = { message: `crmStatus must be one of ${CRM_STATUSES.join(', ')}` };

/**
 * Page mode (`page`, `limit`, filters), or sync mode (`updatedSince` or `cursor`, with `limit`
 * only). `page` has no default here, so sync mode can tell a `page` that was sent.
 */
export class ListLeadsQueryDto implements SyncQuery {
  @IntegerQuery({ min: 1, default: 1 })
  @NotInSyncMode()
  page?: number;

  @IntegerQuery({ min: 1, max: 100, default: 25 })
  limit?: number;

  @ApiPropertyOptional({ maxLength: 200, description: 'First name, last name, full name, email or phone' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  @NotInSyncMode()
  search?: string;

  @ApiPropertyOptional({ enum: CRM_STATUSES })
  @IsOptional()
  @IsIn(CRM_STATUSES, statusMessage)
  @NotInSyncMode()
  crmStatus?: CrmStatus;

  @ApiPropertyOptional({ type: [String], description: 'Admin only; comma-separated or repeated' })
  @IsOptional()
  @UuidList(100)
  @NotInSyncMode()
  assigneeIds?: string[];

  @SyncSince() updatedSince?: string;
  @SyncCursor() cursor?: string;

  /** The page-mode query, defaults filled in. */
  pageQuery(): LeadListQuery {
    const { search, crmStatus, assigneeIds } = this;
    return { page: this.page ?? 1, limit: this.limit ?? 25, search, crmStatus, assigneeIds };
  }
}

export class LeadCountsQueryDto {
  @ApiPropertyOptional({ type: [String], description: 'Admin only; comma-separated or repeated' })
  @IsOptional()
  @UuidList(100)
  assigneeIds?: string[];
}

export class CreateLeadDto {
  @ApiProperty({ maxLength: 255 }) @IsString() @MaxLength(255) firstName: string;
  @ApiProperty({ maxLength: 255 }) @IsString() @MaxLength(255) lastName: string;
  @ApiProperty({ maxLength: 320 }) @IsString() @MaxLength(320) email: string;
  @ApiProperty({ maxLength: 50 }) @IsString() @MaxLength(50) phoneNumber: string;

  @ApiProperty({ enum: CRM_STATUSES })
  @IsIn(CRM_STATUSES, statusMessage)
  crmStatus: CrmStatus;

  @ApiNullable(String, { maxLength: 255 })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(255)
  companyName?: string | null;

  @ApiNullable(String, { example: 'en-GB', description: 'BCP 47' })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @Matches(BCP47, { message: 'language must be a BCP 47 tag like en-GB' })
  language?: string | null;

  @ApiPropertyOptional({
    oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
    description: 'Admin only (a member may name only themselves)',
  })
  @IsOptional()
  @UuidList(50)
  assigneeIds?: string[];

  @ApiPropertyOptional({
    oneOf: [
      { type: 'string', format: 'uuid' },
      { type: 'array', items: { type: 'string', format: 'uuid' } },
    ],
    description: 'Admin only',
  })
  @IsOptional()
  @UuidList(50)
  teamIds?: string[];

  @ApiPropertyOptional({ description: 'Admin only' })
  @IsOptional()
  @IsBoolean()
  unassigned?: boolean;
}

const clearable = (max: number) => [
  IsOptional(),
  ValidateIf((_: unknown, v: unknown) => v !== null),
  IsString(),
  MaxLength(max),
];
const apply =
  (decorators: PropertyDecorator[]): PropertyDecorator =>
  (target, key) =>
    decorators.forEach((d) => d(target, key));

/** Any of the five; null or "" clears. */
export class UpdateLeadDto {
  @ApiNullable(String, { maxLength: 255 }) @apply(clearable(255)) firstName?: string | null;
  @ApiNullable(String, { maxLength: 255 }) @apply(clearable(255)) lastName?: string | null;
  @ApiNullable(String, { maxLength: 320 }) @apply(clearable(320)) email?: string | null;
  @ApiNullable(String, { maxLength: 50 }) @apply(clearable(50)) phoneNumber?: string | null;
  @ApiNullable(String, { maxLength: 255 }) @apply(clearable(255)) companyName?: string | null;
}

export class LeadStatusDto {
  @ApiProperty({ enum: CRM_STATUSES })
  @IsIn(CRM_STATUSES, statusMessage)
  crmStatus: CrmStatus;
}

export class BulkLeadStatusDto extends LeadStatusDto {
  @ApiProperty({ type: [Number], maxItems: 500 })
  @IsArray()
  @ArrayMaxSize(500)
  @LeadIdField({ each: true })
  leadIds: number[];
}

export class LeadTagsDto {
  @ApiProperty({ type: [String], description: 'The full new set; [] clears' })
  @IsArray()
  @ArrayMaxSize(100)
  @IsUUID('all', { each: true })
  tagIds: string[];
}

export class LeadAssigneesDto {
  @ApiProperty({ type: [String], description: '[] leaves the lead unassigned (replace)' })
  @UuidList(50)
  userIds: string[];

  @ApiPropertyOptional({
    oneOf: [
      { type: 'string', format: 'uuid' },
      { type: 'array', items: { type: 'string', format: 'uuid' } },
    ],
  })
  @IsOptional()
  @UuidList(50)
  teamIds?: string[];
}

export class TimelineQueryDto extends OffsetQueryDto({ max: 100, default: 20 }) {}
