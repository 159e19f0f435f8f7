import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength, ValidateBy, ValidateIf } from 'class-validator';
import { IntegerQuery } from '@app/platform';
import { canonicalTimestamp } from '../../application/sync-cursor';
import type { SyncRequest } from '../../application/sync.queries';

/**
 * The sync parameters of a list (INTERFACES.md "Reads and sync"): `updatedSince` starts a sync,
 * `cursor` continues one; with either, only `limit` combines.
 */
export interface SyncQuery {
  updatedSince?: string;
  cursor?: string;
  limit?: number;
}

export const SYNC_DEFAULT_LIMIT = 25;

export const inSyncMode = (query: object): boolean => {
  const { updatedSince, cursor } = query as SyncQuery;
  return updatedSince !== undefined || cursor !== undefined;
};

/** The sync call a query asks for, or null when it asks for the list's ordinary answer. */
export const syncRequestOf = (query: SyncQuery): SyncRequest | null =>
  inSyncMode(query)
    ? { updatedSince: query.updatedSince, cursor: query.cursor, limit: query.limit ?? SYNC_DEFAULT_LIMIT }
    : null;

export const SYNC_MODE_RULES =
  'Sync mode: `updatedSince` starts a sync, `cursor` (a `nextCursor` sent alone) continues it; only `limit` ' +
  '(1-100, default 25) combines with either, any other parameter of the list is 400 VALIDATION_FAILED. The ' +
  'answer is `{data, hasMore, nextCursor}` in (`updatedAt`, `id`) order: page while `hasMore`, keep the last ' +
  '`nextCursor` and call again later to get only what changed since.';

/** A page or filter parameter: 400 VALIDATION_FAILED with `updatedSince` or `cursor`. */
export const NotInSyncMode = () =>
  ValidateBy({
    name: 'notInSyncMode',
    validator: {
      validate: (_value, args) => !inSyncMode(args?.object ?? {}),
      defaultMessage: (args) => `${args?.property} cannot be combined with updatedSince or cursor`,
    },
  });

export const SyncSince = () =>
  applyDecorators(
    ApiPropertyOptional({
      type: String,
      format: 'date-time',
      example: '1970-01-01T00:00:00Z',
      description:
        'Starts a sync: the records changed at or after this moment, an ISO 8601 date-time with `Z` or an ' +
        'offset (URL-encode `+` as `%2B`). Ignored when `cursor` is sent. ' +
        SYNC_MODE_RULES,
    }),
    IsOptional(),
    IsString(),
    ValidateBy({
      name: 'isDateTimeWithZone',
      validator: {
        validate: (value) => typeof value === 'string' && canonicalTimestamp(value) !== null,
        defaultMessage: () =>
          'updatedSince must be an ISO 8601 date-time with Z or an offset, e.g. 2026-11-24T09:30:00Z',
      },
    }),
  );

export const SyncCursor = () =>
  applyDecorators(
    ApiPropertyOptional({
      type: String,
      maxLength: 512,
      description:
        'Continues a sync: the `nextCursor` of the previous answer, sent alone (with `limit` at most). Opaque; ' +
        'one that this list did not give (or gave to another role) is 400 VALIDATION_FAILED.',
    }),
    IsOptional(),
    IsString(),
    MaxLength(512),
  );

/**
 * `limit` of a list that has no page size of its own (tasks, notes): read in sync mode only, so a
 * `limit` sent to the ordinary list is still ignored, as before.
 */
export const SyncLimit = () =>
  applyDecorators(
    ValidateIf((query: object) => inSyncMode(query)),
    IntegerQuery({ min: 1, max: 100, default: SYNC_DEFAULT_LIMIT }),
    ApiPropertyOptional({ description: 'Sync mode only: rows per answer.' }),
  );

export class ListNotesQueryDto implements SyncQuery {
  @SyncSince() updatedSince?: string;
  @SyncCursor() cursor?: string;
  @SyncLimit() limit?: number;
}
