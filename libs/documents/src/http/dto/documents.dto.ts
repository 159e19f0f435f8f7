import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsOptional, IsString, Matches, MaxLength, ValidateBy } from 'class-validator';
import { IsOmittable, OffsetQueryDto } from '@app/platform';
import type { DocumentListQuery } from '../../application/documents.queries';
import {
  DOCUMENT_SCOPES,
  DOCUMENT_SORTS,
  type DocumentScope,
  type DocumentSort,
} from '../../application/document-list.sql';
import { DOCUMENT_VISIBILITIES, type DocumentVisibility } from '../../domain/document-access';
import { codePoints, DOCUMENT_KINDS, DOCUMENT_LIMITS, type DocumentKind } from '../../domain/document.entity';

/** Spec Limits: `q` up to 128 characters. */
export const DOCUMENT_QUERY_MAX = 128;

const UUID_OR_ROOT = /^(root|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** ISO 8601 date-time with `Z` or an offset (a time without one names no instant). */
const ZONED_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * A string of `min` to `max` Unicode code points (a four-byte character counts once). Counts only
 * when the UTF-16 length leaves the answer open (a 1,000,000-character body is walked once).
 */
const CodePointLength = (min: number, max: number) =>
  applyDecorators(
    IsString(),
    ValidateBy({
      name: 'codePointLength',
      validator: {
        validate: (value: unknown) => {
          if (typeof value !== 'string') return false;
          if (value.length < min || value.length > 2 * max) return false;
          if (value.length <= max && min <= 1) return true;
          const n = codePoints(value);
          return n >= min && n <= max;
        },
        defaultMessage: (args) =>
          `${args?.property ?? 'value'} must be ${min} to ${max.toLocaleString('en')} characters long`,
      },
    }),
  );

const sortMessage = { message: `sort must be one of ${DOCUMENT_SORTS.join(', ')}` };
const scopeMessage = { message: `scope must be one of ${DOCUMENT_SCOPES.join(', ')}` };
const kindMessage = { message: `kind must be one of ${DOCUMENT_KINDS.join(', ')}` };
const visibilityMessage = { message: `visibility must be one of ${DOCUMENT_VISIBILITIES.join(', ')}` };

export class ListDocumentsQueryDto extends OffsetQueryDto({ max: 50, default: 20 }) {
  @ApiPropertyOptional({
    maxLength: DOCUMENT_QUERY_MAX,
    description:
      'Matches the title (case- and accent-insensitive contains) or the body (full-text words; ' +
      '`"a phrase"`, `or`, `-word` as in web search).',
  })
  @IsOptional()
  @IsString()
  @MaxLength(DOCUMENT_QUERY_MAX)
  q?: string;

  @ApiPropertyOptional({ enum: DOCUMENT_KINDS })
  @IsOptional()
  @IsIn(DOCUMENT_KINDS, kindMessage)
  kind?: DocumentKind;

  @ApiPropertyOptional({ enum: DOCUMENT_VISIBILITIES, description: 'Only narrows what the caller sees.' })
  @IsOptional()
  @IsIn(DOCUMENT_VISIBILITIES, visibilityMessage)
  visibility?: DocumentVisibility;

  @ApiPropertyOptional({ description: 'A folder id, or `root` for documents in no folder.', example: 'root' })
  @IsOptional()
  @IsString()
  @Matches(UUID_OR_ROOT, { message: 'folderId must be a UUID or root' })
  folderId?: string;

  @ApiPropertyOptional({
    enum: DOCUMENT_SCOPES,
    description: '`shared`: made by a colleague (and visible to the caller); `pinned`: the caller’s pins.',
  })
  @IsOptional()
  @IsIn(DOCUMENT_SCOPES, scopeMessage)
  scope?: DocumentScope;

  @ApiPropertyOptional({ enum: ['true'], description: 'Only documents the caller made; `true` only.' })
  @IsOptional()
  @IsIn(['true'], { message: 'mine must be true' })
  mine?: 'true';

  @ApiPropertyOptional({
    enum: DOCUMENT_SORTS,
    default: 'updated',
    description:
      '`updated`: most recently changed first; `title`: A to Z, case-insensitive; `size`: largest first. ' +
      'Ties by id.',
  })
  @IsOptional()
  @IsIn(DOCUMENT_SORTS, sortMessage)
  sort?: DocumentSort;

  /** The query, defaults filled in. */
  listQuery(): DocumentListQuery {
    const q = this.q?.trim();
    return {
      offset: this.offset,
      limit: this.limit,
      q: q ? q : undefined,
      kind: this.kind,
      visibility: this.visibility,
      folderId: this.folderId === undefined ? undefined : this.folderId.toLowerCase(),
      scope: this.scope,
      mine: this.mine === 'true',
      sort: this.sort ?? 'updated',
    };
  }
}

export class CreateDocumentDto {
  @ApiProperty({ minLength: 1, maxLength: DOCUMENT_LIMITS.title })
  @CodePointLength(1, DOCUMENT_LIMITS.title)
  title: string;

  @ApiProperty({
    maxLength: DOCUMENT_LIMITS.bodyCodePoints,
    description:
      'GFM Markdown, stored as sent; up to 1,000,000 characters (Unicode code points), empty allowed.',
  })
  @CodePointLength(0, DOCUMENT_LIMITS.bodyCodePoints)
  body: string;
}

export class ChangeDocumentDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: DOCUMENT_LIMITS.title })
  @IsOmittable()
  @CodePointLength(1, DOCUMENT_LIMITS.title)
  title?: string;

  @ApiPropertyOptional({
    maxLength: DOCUMENT_LIMITS.bodyCodePoints,
    description: 'Replaces the whole body. Markdown documents only (else DOCUMENT_KIND_READ_ONLY).',
  })
  @IsOmittable()
  @CodePointLength(0, DOCUMENT_LIMITS.bodyCodePoints)
  body?: string;
}

export class ShareDocumentDto {
  @ApiPropertyOptional({
    format: 'date-time',
    example: '2026-12-31T23:59:59Z',
    description:
      'When the link stops working: a future ISO 8601 time with `Z` or an offset. Sent while shared, it ' +
      'replaces the old one; left out, the old one stays.',
  })
  @IsOmittable()
  @IsString()
  @Matches(ZONED_DATE_TIME, { message: 'expiresAt must be an ISO 8601 time with Z or an offset' })
  @IsISO8601({ strict: true }, { message: 'expiresAt must be a valid ISO 8601 time' })
  expiresAt?: string;
}
