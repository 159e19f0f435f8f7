import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsString, Length, Max, Min } from 'class-validator';
import { IsOmittable } from '@app/platform';

/** Spec Limits (Search): query 1-500 characters (after trimming), maxResults 1-30. */
export const SEARCH_LIMITS = { queryChars: 500, maxResults: 30 } as const;

const trimmed = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
const DATE_OR_DATE_TIME =
  'A date YYYY-MM-DD (its whole UTC day) or an ISO 8601 date-time with an offset; `occurredFrom` after `occurredTo` → 400.';

/** What both search routes take besides their subject. */
export class SearchWindowDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: SEARCH_LIMITS.maxResults,
    default: 10,
    description: 'How many leads to answer.',
  })
  @IsOmittable()
  @IsInt()
  @Min(1)
  @Max(SEARCH_LIMITS.maxResults)
  maxResults?: number;

  @ApiPropertyOptional({ example: '2026-01-01', description: `Source activity from. ${DATE_OR_DATE_TIME}` })
  @IsOmittable()
  @IsString()
  occurredFrom?: string;

  @ApiPropertyOptional({ example: '2026-06-30', description: `Source activity up to. ${DATE_OR_DATE_TIME}` })
  @IsOmittable()
  @IsString()
  occurredTo?: string;
}

export class SearchDto extends SearchWindowDto {
  @ApiProperty({
    minLength: 1,
    maxLength: SEARCH_LIMITS.queryChars,
    example: 'garden flat near the beach, budget 300k',
    description:
      'Words in any of English, Spanish, Italian, Portuguese, French or German; case, accents, word forms, ' +
      'thesaurus alternatives and small typos are matched. "Quoted words" stay together. Trimmed first.',
  })
  @Transform(trimmed)
  @IsString()
  @Length(1, SEARCH_LIMITS.queryChars)
  query: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    description: 'Only this lead’s history; 404 `Lead not found.` when out of the caller’s reach.',
  })
  @IsOmittable()
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  leadId?: number;
}
