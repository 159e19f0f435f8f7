import { ApiExtraModels, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import type { ListResult } from '@app/platform';
import type { Note } from '../domain/note.entity';
import {
  NEXT_CURSOR_DOC,
  removedEntry,
  RemovedJson,
  RemovedRecordView,
  SYNC_HAS_MORE_DOC,
  SYNC_UPDATED_AT_NOTE,
  SyncPageJson,
} from './sync.view';

/** A note on a lead (spec: Note). */
export interface NoteJson {
  id: string;
  leadId: number;
  authorId: string;
  content: string;
  isPinned: boolean;
  occurredAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export const toNoteJson = (note: Note): NoteJson => ({
  id: note.id,
  leadId: Number(note.leadId),
  authorId: note.authorId,
  content: note.content,
  isPinned: note.isPinned,
  occurredAt: note.occurredAt?.toISOString() ?? null,
  createdAt: note.createdAt.toISOString(),
  updatedAt: note.updatedAt.toISOString(),
});

export type NoteSyncEntryJson = NoteJson | RemovedJson<string>;

/** A row of the note sync statement (sync.sql.ts): a note, or a removal with nulls. */
export interface NoteSyncRow {
  removed: boolean;
  entry_id: string;
  /** Its time to the microsecond, `YYYY-MM-DDTHH:MM:SS.ffffffZ`: the sync position. */
  position: string;
  lead_id: string | number;
  author_id: string;
  content: string;
  is_pinned: boolean;
  occurred_at: Date | null;
  created_at: Date;
}

/** `updatedAt`: the entry's sync position to the millisecond (sync-cursor.ts `toMillis`). */
export function toNoteSyncEntryJson(row: NoteSyncRow, updatedAt: string): NoteSyncEntryJson {
  if (row.removed) return removedEntry(row.entry_id, updatedAt);
  return {
    id: row.entry_id,
    leadId: Number(row.lead_id),
    authorId: row.author_id,
    content: row.content,
    isPinned: row.is_pinned,
    occurredAt: row.occurred_at === null ? null : new Date(row.occurred_at).toISOString(),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt,
  };
}

/** A note on a lead (spec: Note). */
export class NoteView implements NoteJson {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: 'integer' }) leadId: number;
  @ApiProperty({ format: 'uuid', description: 'User id of the author.' }) authorId: string;
  @ApiProperty() content: string;
  @ApiProperty() isPinned: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) occurredAt: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

/** `{data: Note[], hasMore: false}`, newest first. */
export class NoteListView implements ListResult<NoteJson> {
  @ApiProperty({ type: [NoteView] }) data: NoteView[];
  @ApiProperty({ description: 'Whole list: always false.' }) hasMore: boolean;
}

/** The answer of `GET /v1/leads/{leadId}/notes` in sync mode (`updatedSince` or `cursor`). */
@ApiExtraModels(NoteView, RemovedRecordView)
export class NoteSyncPageView implements SyncPageJson<NoteSyncEntryJson> {
  @ApiProperty({
    type: 'array',
    items: { oneOf: [{ $ref: getSchemaPath(NoteView) }, { $ref: getSchemaPath(RemovedRecordView) }] },
    description:
      'The lead’s notes changed since the position, oldest change first (`updatedAt`, then `id`). A deleted ' +
      'note appears once as `{id, updatedAt, removed: true}`.' +
      SYNC_UPDATED_AT_NOTE,
  })
  data: (NoteView | RemovedRecordView)[];

  @ApiProperty(SYNC_HAS_MORE_DOC) hasMore: boolean;
  @ApiProperty(NEXT_CURSOR_DOC) nextCursor: string;
}
