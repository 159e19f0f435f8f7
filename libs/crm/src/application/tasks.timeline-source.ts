import { TimelineLead, TimelineSource, TimelineSourceProvider } from '../extension-points/timeline-source';
import { TaskRepository } from '../domain/task.repository';
import type { TimelineEntryJson } from '../views/timeline.view';
import { TaskJson, toTaskJson } from '../views/task.view';

/**
 * `task` entries (history rows: created, completed, reopened); the tasks they name come once, as
 * they are now, in `tasksById` (a deleted task is absent there).
 */
@TimelineSourceProvider()
export class TasksTimelineSource implements TimelineSource {
  readonly types = ['task'] as const;

  readonly byId = {
    key: 'tasksById' as const,
    fill: (lead: TimelineLead, entries: TimelineEntryJson[]) => this.tasksById(lead, entries),
  };

  constructor(private readonly tasks: TaskRepository) {}

  entries(lead: TimelineLead) {
    return {
      sql: `select h.type, h.occurred_at, h.payload, h.id::text
              from lead_history h where h.organization_id = ? and h.lead_id = ? and h.type = 'task'`,
      params: [lead.organizationId, lead.leadId],
    };
  }

  private async tasksById(
    lead: TimelineLead,
    entries: TimelineEntryJson[],
  ): Promise<Record<string, TaskJson>> {
    const ids = entries.flatMap((entry) =>
      entry.type === 'task' ? [(entry.task as { taskId: string }).taskId] : [],
    );
    if (ids.length === 0) return {};
    const tasks = await this.tasks.listInOrg(lead.organizationId, { id: { $in: ids } });
    return Object.fromEntries(tasks.map((task) => [task.id, toTaskJson(task)]));
  }
}
