import { TenantRepository } from '@app/platform/core';
import type { Task } from './task.entity';
import { personsTasks } from './task-audience';

export class TaskRepository extends TenantRepository<Task> {
  /**
   * The agency's tasks `personId` created or is on, due inside a calendar window, earliest first:
   * a date-only task (due at midnight UTC, see `Task.isDueAllDay`) when its date is in
   * [`fromDay`, `toDay`), a timed one when its moment is in [`startsAt`, `endsAt`).
   */
  listDueInWindow(
    organizationId: string,
    personId: string,
    window: { fromDay: Date; toDay: Date; startsAt: Date; endsAt: Date },
    limit: number,
  ): Promise<Task[]> {
    return this.createQueryBuilder('t')
      .where({ organizationId, ...personsTasks(personId) })
      .andWhere(
        `case when (t.due_date at time zone 'UTC')::time = '00:00'
              then t.due_date >= ? and t.due_date < ?
              else t.due_date >= ? and t.due_date < ? end`,
        [window.fromDay, window.toDay, window.startsAt, window.endsAt],
      )
      .orderBy({ dueDate: 'asc', id: 'asc' })
      .limit(limit)
      .getResult();
  }
}
