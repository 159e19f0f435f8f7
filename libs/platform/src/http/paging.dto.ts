import { Type } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
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

/** Query DTO for page-number paging with the route's own limit range (spec Limits table). */
export function PageQueryDto(range: LimitRange): Type<PageQuery> {
  class PageQueryDtoClass implements PageQuery {
    @ApiPropertyOptional({ minimum: 1, default: 1 })
    @IsOptional()
    @Transform(toInteger)
    @IsInt()
    @Min(1)
    page: number = 1;

    @ApiPropertyOptional({ minimum: 1, maximum: range.max, default: range.default })
    @IsOptional()
    @Transform(toInteger)
    @IsInt()
    @Min(1)
    @Max(range.max)
    limit: number = range.default;
  }
  return PageQueryDtoClass;
}

/** Query DTO for offset paging with the route's own limit range. */
export function OffsetQueryDto(range: LimitRange): Type<OffsetQuery> {
  class OffsetQueryDtoClass implements OffsetQuery {
    @ApiPropertyOptional({ minimum: 0, default: 0 })
    @IsOptional()
    @Transform(toInteger)
    @IsInt()
    @Min(0)
    offset: number = 0;

    @ApiPropertyOptional({ minimum: 1, maximum: range.max, default: range.default })
    @IsOptional()
    @Transform(toInteger)
    @IsInt()
    @Min(1)
    @Max(range.max)
    limit: number = range.default;
  }
  return OffsetQueryDtoClass;
}
