import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { Principal } from '@app/platform';
import { Task } from '../domain/task.entity';
import { TimelineType } from '../domain/lead-history.entity';
import { LeadAccess } from './lead-access';
import { TaskView, taskView } from './tasks.service';

/** Longer bodies are cut in the timeline and say so in `_preview`. */
export const TIMELINE_BODY_PREVIEW = 1000;

export interface TimelineEntry {
  type: TimelineType;
  date: string;
  [payloadKey: string]: unknown;
}

export interface TimelinePage {
  data: TimelineEntry[];
  hasMore: boolean;
  nextOffset: number | null;
  total: number;
  totalIsExact: boolean;
  tasksById: Record<string, TaskView>;
  dealsById: Record<string, unknown>;
}

interface EntryRow {
  type: TimelineType;
  date: Date;
  payload: Record<string, unknown>;
  total: string;
}

/** `lead-created` → `leadCreated`: the payload key of each type. */
export const payloadKeyOf = (type: TimelineType): string =>
  type.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * A lead's timeline, newest first, offset paging: history rows and notes (read live, so edits
 * and deletions show). Tasks named on the page come once in `tasksById`.
 */
@Injectable()
export class TimelineQueries {
  constructor(
    private readonly em: EntityManager,
    private readonly access: LeadAccess,
  ) {}

  async page(actor: Principal, leadId: number, offset: number, limit: number): Promise<TimelinePage> {
    await this.access.reachableLead(actor, leadId);
    const rows = await this.em.execute<EntryRow[]>(
      `select e.type, e.date, e.payload, count(*) over () as total from (
         select h.type, h.occurred_at as date, h.payload, h.id::text as tiebreak
           from lead_history h where h.organization_id = ? and h.lead_id = ?
         union all
         select 'note', coalesce(n.occurred_at, n.created_at),
                jsonb_build_object('id', n.id, 'authorId', n.author_id, 'content', n.content, 'isPinned', n.is_pinned,
                                   'createdAt', n.created_at, 'updatedAt', n.updated_at),
                n.id::text
           from notes n where n.organization_id = ? and n.lead_id = ?
       ) e order by e.date desc, e.tiebreak desc limit ? offset ?`,
      [actor.organizationId, leadId, actor.organizationId, leadId, limit, offset],
    );
    const total = rows.length > 0 ? Number(rows[0].total) : await this.count(actor.organizationId, leadId);
    const data = rows.map((row) => this.entry(row));
    const taskIds = data.flatMap((entry) =>
      entry.type === 'task' ? [(entry.task as { taskId: string }).taskId] : [],
    );
    const tasks = taskIds.length
      ? await this.em.find(Task, { id: { $in: taskIds }, organizationId: actor.organizationId })
      : [];
    const hasMore = offset + data.length < total;
    return {
      data,
      hasMore,
      nextOffset: hasMore ? offset + data.length : null,
      total,
      totalIsExact: true,
      tasksById: Object.fromEntries(tasks.map((task) => [task.id, taskView(task)])),
      dealsById: {},
    };
  }

  private entry(row: EntryRow): TimelineEntry {
    const entry: TimelineEntry = { type: row.type, date: new Date(row.date).toISOString() };
    const payload = { ...row.payload };
    for (const field of ['createdAt', 'updatedAt']) {
      if (typeof payload[field] === 'string')
        payload[field] = new Date(payload[field] as string).toISOString();
    }
    if (typeof payload.content === 'string' && payload.content.length > TIMELINE_BODY_PREVIEW) {
      entry._preview = {
        field: 'content',
        shownLength: TIMELINE_BODY_PREVIEW,
        fullLength: payload.content.length,
      };
      payload.content = payload.content.slice(0, TIMELINE_BODY_PREVIEW);
    }
    entry[payloadKeyOf(row.type)] = payload;
    return entry;
  }

  /** Past the last page the window function has no row to count on. */
  private async count(organizationId: string, leadId: number): Promise<number> {
    const [row] = await this.em.execute<{ total: string }[]>(
      `select (select count(*) from lead_history where organization_id = ? and lead_id = ?)
            + (select count(*) from notes where organization_id = ? and lead_id = ?) as total`,
      [organizationId, leadId, organizationId, leadId],
    );
    return Number(row.total);
  }
}
