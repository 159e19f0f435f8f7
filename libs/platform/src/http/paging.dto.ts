import { applyDecorators, Type } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/**
 * Query values arrive as strings: only plain decimal integers become numbers; anything else
 * (`abc`, `0x10`, `1e2`, blank, a repeated parameter) stays invalid and fails `@IsInt`.
 */
const toInteger = ({ value }: { value: unknown }): unknown =>
  typeof value === 'number'
    ? value
    : typeof value === 'string' && /^[+-]?\d{1,15}$/.test(value)
      ? Number(value)
      : NaN;

interface LimitRange {
  max: number;
  default: number;
}

export interface PageQuery {
  page: number;
  limit: number;
}

export interface OffsetQuery {
  offset: number;
  limit: number;
}

/** An optional whole-number query parameter within `min`..`max`. */
export const IntegerQuery = (range: { min: number; max?: number; default?: number }) =>
  applyDecorators(
    ApiPropertyOptional({ minimum: range.min, maximum: range.max, default: range.default }),
    IsOptional(),
    Transform(toInteger),
    IsInt(),
    Min(range.min),
    ...(range.max === undefined ? [] : [Max(range.max)]),
  );

/** A required whole-number query parameter within `min`..`max`. */
export const RequiredIntegerQuery = (range: { min: number; max: number; example?: number }) =>
  applyDecorators(
    ApiProperty({ type: 'integer', minimum: range.min, maximum: range.max, example: range.example }),
    Transform(toInteger),
    IsInt(),
    Min(range.min),
    Max(range.max),
  );

/** Query DTO for page-number paging with the route's own limit range (spec Limits table). */
export function PageQueryDto(range: LimitRange): Type<PageQuery> {
  class PageQueryDtoClass implements PageQuery {
    @IntegerQuery({ min: 1, default: 1 })
    page: number = 1;

    @IntegerQuery({ min: 1, max: range.max, default: range.default })
    limit: number = range.default;
  }
  return PageQueryDtoClass;
}

/** Query DTO for offset paging with the route's own limit range. */
export function OffsetQueryDto(range: LimitRange): Type<OffsetQuery> {
  class OffsetQueryDtoClass implements OffsetQuery {
    @IntegerQuery({ min: 0, default: 0 })
    offset: number = 0;

    @IntegerQuery({ min: 1, max: range.max, default: range.default })
    limit: number = range.default;
  }
  return OffsetQueryDtoClass;
}
