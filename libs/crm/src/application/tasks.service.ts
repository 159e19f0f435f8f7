import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import {
  cappedResult,
  Clock,
  eventActorOf,
  forbidden,
  isAdmin,
  ListResult,
  notFound,
  Principal,
} from '@app/platform';
import { Task, TaskStatus } from '../domain/task.entity';
import { TaskRepository } from '../domain/task.repository';
import { personsTasks } from '../domain/task-audience';
import { TaskJson, toTaskJson } from '../views/task.view';
import { parseDueDate } from './due-date';
import { LeadEvents } from '../extension-points/lead-events';
import { SearchIndexing } from '../extension-points/search-indexer';
import { changeOf, CrmEvents, EventPart, taskEventParts, taskFields } from './crm-events';
import { LeadAccess } from './lead-access';
import { LeadFactsService } from './lead-facts.service';
import { LeadHistoryRecorder } from './lead-history.recorder';
import { taskDocument } from './search-documents';

export const TASKS_CAP = 500;

export interface CreateTask {
  leadId: number;
  title: string;
  description?: string | null;
  dueDate?: string | null;
  assigneeIds?: string[];
  teamIds?: string[];
}

export interface ChangeTask {
  title?: string;
  description?: string | null;
  dueDate?: string | null;
  status?: TaskStatus;
  assigneeIds?: string[];
  teamIds?: string[];
}

const byDue = { dueDate: 'asc nulls last', createdAt: 'desc', id: 'desc' } as const;

@Injectable()
export class TasksService {
  constructor(
    private readonly em: EntityManager,
    private readonly tasks: TaskRepository,
    private readonly access: LeadAccess,
    private readonly history: LeadHistoryRecorder,
    private readonly facts: LeadFactsService,
    private readonly clock: Clock,
    private readonly events: LeadEvents,
    private readonly search: SearchIndexing,
    private readonly crmEvents: CrmEvents,
  ) {}

  /**
   * With `leadId`: the lead's tasks. Without: at most 500 tasks the caller created or is on;
   * no agency-wide list, even for admins.
   */
  async list(
    actor: Principal,
    query: { leadId?: number; status?: TaskStatus },
  ): Promise<ListResult<TaskJson>> {
    if (query.leadId !== undefined) {
      await this.access.reachableLead(actor, query.leadId);
      const tasks = await this.tasks.listInOrg(
        actor.organizationId,
        { leadId: query.leadId },
        { orderBy: byDue, limit: TASKS_CAP + 1 },
      );
      return cappedResult(tasks.map(toTaskJson), TASKS_CAP);
    }
    const tasks = await this.tasks.listInOrg(
      actor.organizationId,
      {
        ...personsTasks(actor.userId),
        ...(query.status ? { status: query.status } : {}),
      },
      { orderBy: byDue, limit: TASKS_CAP + 1 },
    );
    return cappedResult(tasks.map(toTaskJson), TASKS_CAP);
  }

  /** The owner defaults to the key's person; assignees must be in the agency. */
  async create(actor: Principal, input: CreateTask): Promise<TaskJson> {
    await this.access.reachableLead(actor, input.leadId);
    const named = (input.assigneeIds?.length ?? 0) + (input.teamIds?.length ?? 0) > 0;
    const assigneeIds = named
      ? await this.access.resolvePeople(actor, input.assigneeIds ?? [], input.teamIds ?? [])
      : [actor.userId];
    const now = this.clock.now();
    const task = new Task(
      {
        organizationId: actor.organizationId,
        leadId: input.leadId,
        createdBy: actor.userId,
        title: input.title,
        description: input.description,
        dueDate: input.dueDate == null ? null : parseDueDate(input.dueDate), // "" is not a date: 400
        assigneeIds,
      },
      now,
    );
    await this.withWorkFacts(
      actor,
      task.leadId,
      now,
      () => {
        this.em.persist(task);
        this.history.task(actor, input.leadId, task.id, 'created', now);
      },
      (em) => this.search.upsertSources(em, [taskDocument(task)]),
      (em) => this.crmEvents.task(em, task, [{ type: 'task.created' }], eventActorOf(actor), now),
    );
    return toTaskJson(task);
  }

  /** The creator, anyone on it, or an admin; assignees and teams by admins only. */
  async change(actor: Principal, taskId: string, changes: ChangeTask): Promise<TaskJson> {
    const task = await this.manageableTask(actor, taskId);
    if ((changes.assigneeIds !== undefined || changes.teamIds !== undefined) && !isAdmin(actor)) {
      throw forbidden('Only an admin can change who is on a task.');
    }
    const dueDate =
      changes.dueDate === undefined
        ? undefined
        : changes.dueDate === null
          ? null
          : parseDueDate(changes.dueDate);
    const people =
      changes.assigneeIds !== undefined || changes.teamIds !== undefined
        ? await this.access.resolvePeople(actor, changes.assigneeIds ?? [], changes.teamIds ?? [])
        : undefined;
    const now = this.clock.now();
    const before = taskFields(task);
    let completed = false;
    // only the title and the description are searched: other changes leave the passages as they are
    const retext = changes.title !== undefined || changes.description !== undefined;
    await this.withWorkFacts(
      actor,
      task.leadId,
      now,
      () => {
        task.edit({ title: changes.title, description: changes.description, dueDate }, now);
        if (people) task.setAssignees(people, now);
        if (changes.status && task.setStatus(changes.status, now)) {
          completed = changes.status === 'completed';
          this.history.task(
            actor,
            task.leadId,
            task.id,
            changes.status === 'completed' ? 'completed' : 'reopened',
            now,
          );
        }
      },
      retext ? (em) => this.search.upsertSources(em, [taskDocument(task)]) : undefined,
      (em) => {
        const after = taskFields(task);
        const parts = taskEventParts(changeOf(before, after), after);
        return this.crmEvents.task(em, task, parts, eventActorOf(actor), now);
      },
    );
    if (completed) {
      // after the commit (LeadEvents): queue offers react to it
      await this.events.publish({
        kind: 'task_completed',
        organizationId: task.organizationId,
        leadId: task.leadId,
        at: now,
      });
    }
    return toTaskJson(task);
  }

  async delete(actor: Principal, taskId: string): Promise<void> {
    const task = await this.manageableTask(actor, taskId);
    const now = this.clock.now();
    const deleted: EventPart[] = [{ type: 'task.deleted' }];
    await this.withWorkFacts(
      actor,
      task.leadId,
      now,
      () => this.em.remove(task),
      (em) => this.search.removeSources(em, task.organizationId, 'task', [task.id]),
      // before the flush: the version is raised on the row about to go
      (em) => this.crmEvents.task(em, task, deleted, eventActorOf(actor), now),
      'before',
    );
  }

  /**
   * The write (run inside: `this.em` is the transaction's), its flush, its search passages, its
   * events (issue 19; `record`, after the flush, or before it for a delete) and the lead's work
   * facts (pending tasks, next due, overdue from): one transaction.
   */
  private withWorkFacts(
    actor: Principal,
    leadId: number,
    now: Date,
    write: () => unknown,
    index: ((em: EntityManager) => Promise<void>) | undefined,
    record: (em: EntityManager) => Promise<void>,
    recordWhen: 'before' | 'after' = 'after',
  ): Promise<void> {
    return this.em.transactional(async (em) => {
      if (recordWhen === 'before') await record(em);
      write();
      await em.flush();
      if (index) await index(em);
      if (recordWhen === 'after') await record(em);
      await this.facts.recomputeWork(em, actor.organizationId, leadId, now);
    });
  }

  /** 404 `Task not found.` unless the caller reaches the lead or is on the task; 403 unless they may manage it. */
  private async manageableTask(actor: Principal, taskId: string): Promise<Task> {
    const admin = isAdmin(actor);
    const task = await this.tasks.findInOrg(actor.organizationId, { id: taskId });
    if (!task) throw notFound('Task');
    if (!admin && !task.isManageableBy(actor.userId, false)) {
      if (!(await this.access.reachesLeadOf(actor, task))) throw notFound('Task');
      throw forbidden('Only the task owner, someone on it, or an admin can change it.');
    }
    return task;
  }
}
