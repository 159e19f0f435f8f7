import { ApiProperty } from '@nestjs/swagger';
import type { ListResult } from '@app/platform';
import type { Note } from '../domain/note.entity';

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
