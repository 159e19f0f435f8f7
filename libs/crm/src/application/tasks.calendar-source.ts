import { CalendarRequest, CalendarSource, CalendarSourceProvider } from '../extension-points/calendar-source';
import type { Task } from '../domain/task.entity';
import { TaskRepository } from '../domain/task.repository';
import type { CalendarItemJson } from '../views/calendar.view';

const DAY_MS = 86_400_000;

/**
 * Tasks the person created or is on, by due date. A date-only task is all-day on its date
 * whatever `tz` (midnight UTC to 24 h later); a timed one ends when it starts.
 */
@CalendarSourceProvider()
export class TasksCalendarSource implements CalendarSource {
  readonly kinds = ['task'] as const;

  constructor(private readonly tasks: TaskRepository) {}

  async items(request: CalendarRequest): Promise<CalendarItemJson[]> {
    const tasks = await this.tasks.listDueInWindow(
      request.organizationId,
      request.userId,
      {
        fromDay: new Date(`${request.from}T00:00:00.000Z`),
        toDay: new Date(`${request.to}T00:00:00.000Z`),
        startsAt: request.startsAt,
        endsAt: request.endsAt,
      },
      request.limit,
    );
    return tasks.map((task) => taskItem(task, request.now));
  }
}

function taskItem(task: Task, now: Date): CalendarItemJson {
  const startsAt = task.dueDate!.getTime();
  const allDay = task.isDueAllDay();
  const endsAt = allDay ? startsAt + DAY_MS : startsAt;
  return {
    kind: 'task',
    title: task.title,
    startsAt: new Date(startsAt).toISOString(),
    endsAt: new Date(endsAt).toISOString(),
    allDay,
    status: task.status,
    leadId: Number(task.leadId),
    eventId: task.id,
    attendeeCount: null,
    done: task.status === 'completed',
    // a date-only task is overdue from the day after its date (INTERFACES.md taskOverdue)
    overdue: task.status === 'pending' && (allDay ? now.getTime() >= endsAt : now.getTime() > startsAt),
  };
}
