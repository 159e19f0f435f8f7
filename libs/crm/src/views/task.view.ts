import { ApiProperty } from '@nestjs/swagger';
import type { ListResult } from '@app/platform';
import { TASK_STATUSES, type Task, type TaskStatus } from '../domain/task.entity';

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
