import { EntityRepositoryType, ArrayType, BigIntType, Entity, PrimaryKey, Property } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';
import { TaskRepository } from './task.repository';

export const TASK_STATUSES = ['pending', 'completed'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

const DAY_MS = 86_400_000;

@Entity({ tableName: 'tasks', repository: () => TaskRepository })
export class Task {
  [EntityRepositoryType]?: TaskRepository;

  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  @Property({ type: 'uuid' })
  organizationId: string;

  @Property({ type: new BigIntType('number') })
  leadId: number;

  @Property({ type: ArrayType })
  assigneeIds: string[] = [];

  @Property({ type: 'uuid' })
  createdBy: string;

  @Property({ type: 'text' })
  title: string;

  @Property({ type: 'text', nullable: true })
  description: string | null = null;

  @Property({ type: 'datetime', nullable: true })
  dueDate: Date | null = null;

  @Property({ type: 'text' })
  status: TaskStatus = 'pending';

  @Property({ type: 'datetime', nullable: true })
  completedAt: Date | null = null;

  /**
   * 1 on create, +1 per change (an event's `recordVersion`, issue 19): raised in SQL by the CRM's
   * events (`version = version + 1`), so this copy is the value as loaded.
   */
  @Property({ type: 'integer' })
  version: number = 1;

  @Property({ type: 'datetime' })
  createdAt: Date;

  @Property({ type: 'datetime' })
  updatedAt: Date;

  constructor(
    props: {
      organizationId: string;
      leadId: number;
      createdBy: string;
      title: string;
      description?: string | null;
      dueDate?: Date | null;
      assigneeIds: string[];
    },
    now: Date,
  ) {
    this.organizationId = props.organizationId;
    this.leadId = props.leadId;
    this.createdBy = props.createdBy;
    this.title = props.title;
    this.description = props.description ?? null;
    this.dueDate = props.dueDate ?? null;
    this.assigneeIds = [...new Set(props.assigneeIds)];
    this.createdAt = now;
    this.updatedAt = now;
  }

  /** Its creator, anyone on it ("owner, teammate on it"), or an admin (INTERFACES.md). */
  isManageableBy(userId: string, admin: boolean): boolean {
    return admin || this.createdBy === userId || this.assigneeIds.includes(userId);
  }

  /** A due date given as YYYY-MM-DD is stored as midnight UTC (due-date.ts): such a task is all-day. */
  isDueAllDay(): boolean {
    return this.dueDate !== null && this.dueDate.getTime() % DAY_MS === 0;
  }

  edit(changes: { title?: string; description?: string | null; dueDate?: Date | null }, now: Date): void {
    if (changes.title !== undefined) this.title = changes.title;
    if (changes.description !== undefined) this.description = changes.description;
    if (changes.dueDate !== undefined) this.dueDate = changes.dueDate;
    this.updatedAt = now;
  }

  /** Returns whether the status changed; back to pending clears completedAt. */
  setStatus(status: TaskStatus, now: Date): boolean {
    if (status === this.status) return false;
    this.status = status;
    this.completedAt = status === 'completed' ? now : null;
    this.updatedAt = now;
    return true;
  }

  setAssignees(userIds: string[], now: Date): void {
    this.assigneeIds = [...new Set(userIds)];
    this.updatedAt = now;
  }
}
