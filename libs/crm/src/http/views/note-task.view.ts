import { ApiProperty } from '@nestjs/swagger';
import type { ListResult } from '@app/platform';
import type { NoteView as NoteModel } from '../../application/notes.service';
import type { TaskView as TaskModel } from '../../application/tasks.service';
import { TASK_STATUSES, type TaskStatus } from '../../domain/task.entity';

/** A note on a lead (spec: Note). */
export class NoteView implements NoteModel {
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
export class NoteListView implements ListResult<NoteModel> {
  @ApiProperty({ type: [NoteView] }) data: NoteView[];
  @ApiProperty({ description: 'Whole list: always false.' }) hasMore: boolean;
}

/** A task on a lead (spec: Task). */
export class TaskView implements TaskModel {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: 'integer' }) leadId: number;
  @ApiProperty({ type: [String], description: 'User ids of the people on it.' }) assigneeIds: string[];
  @ApiProperty({ format: 'uuid', description: 'User id of its creator.' }) createdBy: string;
  @ApiProperty() title: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'A date-only dueDate comes back as midnight UTC of that date.',
  })
  dueDate: string | null;

  @ApiProperty({ enum: TASK_STATUSES }) status: TaskStatus;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Cleared when back to pending.',
  })
  completedAt: string | null;

  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

/** `{data: Task[], hasMore}`: at most 500 tasks, by due date; `hasMore` true means narrow the filters. */
export class TaskListView implements ListResult<TaskModel> {
  @ApiProperty({ type: [TaskView] }) data: TaskView[];
  @ApiProperty() hasMore: boolean;
}
