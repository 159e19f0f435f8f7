import { ApiProperty } from '@nestjs/swagger';

/**
 * The sync answer shared by leads, tasks and notes (INTERFACES.md "Reads and sync"):
 * `{data, hasMore, nextCursor}`, rows in (`updatedAt`, `id`) order, each a record or a removal.
 */
export interface SyncPageJson<T> {
  data: T[];
  hasMore: boolean;
  nextCursor: string;
}

/** A record the caller no longer sees (deleted, or they were taken off it): nothing but when. */
export interface RemovedJson<Id extends number | string> {
  id: Id;
  updatedAt: string;
  removed: true;
}

export const removedEntry = <Id extends number | string>(id: Id, updatedAt: string): RemovedJson<Id> => ({
  id,
  updatedAt,
  removed: true,
});

const REMOVED_AT = 'When it left the caller’s view (deleted, or the caller was taken off it).';
const REMOVED = {
  type: 'boolean',
  enum: [true],
  description: 'Always true: the only other fields are `id` and `updatedAt`.',
} as const;

/** A lead the member was taken off: `{id, updatedAt, removed: true}`. */
export class RemovedLeadView implements RemovedJson<number> {
  @ApiProperty({ type: 'integer', example: 1042 }) id: number;
  @ApiProperty({ format: 'date-time', description: REMOVED_AT }) updatedAt: string;
  @ApiProperty(REMOVED) removed: true;
}

/** A task or note deleted, or a task the person was taken off: `{id, updatedAt, removed: true}`. */
export class RemovedRecordView implements RemovedJson<string> {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'date-time', description: REMOVED_AT }) updatedAt: string;
  @ApiProperty(REMOVED) removed: true;
}

export const NEXT_CURSOR_DOC = {
  description:
    'Opaque; always present: the position after the last row, or the position sent when `data` is empty. ' +
    'Send it back as `cursor` (alone) to continue, now or later.',
};
export const SYNC_HAS_MORE_DOC = {
  description:
    'More rows are ready now: call again with `nextCursor`. False when caught up; changes made later come in a later call.',
};

/** Tasks and notes already answer `updatedAt`: what it means in a sync row. */
export const SYNC_UPDATED_AT_NOTE =
  ' In a sync row `updatedAt` is when the database recorded the change (the order’s key); it can be a few ' +
  'milliseconds from the `updatedAt` other answers show, which is the API’s clock at the write.';
