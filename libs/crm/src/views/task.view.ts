import { ApiExtraModels, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import type { ListResult } from '@app/platform';
import { TASK_STATUSES, type Task, type TaskStatus } from '../domain/task.entity';
import {
  NEXT_CURSOR_DOC,
  removedEntry,
  RemovedJson,
  RemovedRecordView,
  SYNC_HAS_MORE_DOC,
  SYNC_UPDATED_AT_NOTE,
  SyncPageJson,
} from './sync.view';

/** A task on a lead (spec: Task). */
export interface TaskJson {
  id: string;
  leadId: number;
  assigneeIds: string[];
  createdBy: string;
  title: string;
  description: string | null;
  dueDate: string | null;
  status: TaskStatus;
  completedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export const toTaskJson = (task: Task): TaskJson => ({
  id: task.id,
  leadId: Number(task.leadId),
  assigneeIds: task.assigneeIds,
  createdBy: task.createdBy,
  title: task.title,
  description: task.description,
  dueDate: task.dueDate?.toISOString() ?? null,
  status: task.status,
  completedAt: task.completedAt?.toISOString() ?? null,
  createdAt: task.createdAt.toISOString(),
  updatedAt: task.updatedAt.toISOString(),
});

export type TaskSyncEntryJson = TaskJson | RemovedJson<string>;

/** A row of the task sync statement (sync.sql.ts): a task, or a removal with nulls. */
export interface TaskSyncRow {
  removed: boolean;
  entry_id: string;
  /** Its time to the microsecond, `YYYY-MM-DDTHH:MM:SS.ffffffZ`: the sync position. */
  position: string;
  lead_id: string | number;
  assignee_ids: string[];
  created_by: string;
  title: string;
  description: string | null;
  due_date: Date | null;
  status: TaskStatus;
  completed_at: Date | null;
  created_at: Date;
}

const iso = (value: Date | null) => (value === null ? null : new Date(value).toISOString());

/** `updatedAt`: the entry's sync position to the millisecond (sync-cursor.ts `toMillis`). */
export function toTaskSyncEntryJson(row: TaskSyncRow, updatedAt: string): TaskSyncEntryJson {
  if (row.removed) return removedEntry(row.entry_id, updatedAt);
  return {
    id: row.entry_id,
    leadId: Number(row.lead_id),
    assigneeIds: row.assignee_ids,
    createdBy: row.created_by,
    title: row.title,
    description: row.description,
    dueDate: iso(row.due_date),
    status: row.status,
    completedAt: iso(row.completed_at),
    createdAt: iso(row.created_at)!,
    updatedAt,
  };
}

/** A task on a lead (spec: Task). */
export class TaskView implements TaskJson {
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
export class TaskListView implements ListResult<TaskJson> {
  @ApiProperty({ type: [TaskView] }) data: TaskView[];
  @ApiProperty() hasMore: boolean;
}

/** The answer of `GET /v1/tasks` in sync mode (`updatedSince` or `cursor`). */
@ApiExtraModels(TaskView, RemovedRecordView)
export class TaskSyncPageView implements SyncPageJson<TaskSyncEntryJson> {
  @ApiProperty({
    type: 'array',
    items: { oneOf: [{ $ref: getSchemaPath(TaskView) }, { $ref: getSchemaPath(RemovedRecordView) }] },
    description:
      'Tasks the key’s person created or is on, changed since the position, oldest change first (`updatedAt`, ' +
      'then `id`). A task deleted, or one they were taken off, appears once as `{id, updatedAt, removed: true}`.' +
      SYNC_UPDATED_AT_NOTE,
  })
  data: (TaskView | RemovedRecordView)[];

  @ApiProperty(SYNC_HAS_MORE_DOC) hasMore: boolean;
  @ApiProperty(NEXT_CURSOR_DOC) nextCursor: string;
}
