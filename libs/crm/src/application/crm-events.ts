import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { EventActor, EventDraft, EventType, Outbox, preparedRows, viewChanges } from '@app/platform';
import type { Lead } from '../domain/lead.entity';
import type { LeadInquiry } from '../domain/lead-inquiry.entity';
import type { Note } from '../domain/note.entity';
import type { Task } from '../domain/task.entity';
import type { LeadJson } from '../views/lead.view';
import { NoteJson, toNoteJson } from '../views/note.view';
import { toTaskJson } from '../views/task.view';
import { toTimelineEntryJson } from '../views/timeline.view';
import { LeadsQueries } from './leads.queries';

/** What one change set on a record: the fields (named as in its `/v1` view) and their old values. */
export interface FieldChange {
  changedFields: string[];
  previous: Record<string, unknown>;
}

/** One event of a change: its type and, for an update, the part of the change it tells. */
export interface EventPart {
  type: EventType;
  change?: FieldChange;
}

/** A lead's own fields, named as its view names them: what lead events compare (tags apart). */
const LEAD_FIELDS = [
  'firstName',
  'lastName',
  'email',
  'phoneNumber',
  'language',
  'companyName',
  'crmStatus',
  'assigneeIds',
  'leadGroup',
  'source',
  'leadType',
  'origin',
  'consent',
] as const;

/** A task's fields a change may set (its view's names). */
const TASK_FIELDS = ['title', 'description', 'dueDate', 'status', 'completedAt', 'assigneeIds'] as const;

export type FieldValues = Record<string, unknown>;

/** The lead's own fields now (copied): compare with `changeOf` after the change. */
export const leadFields = (lead: Lead): FieldValues =>
  Object.fromEntries(LEAD_FIELDS.map((field) => [field, copy(lead[field])]));

export const taskFields = (task: Task): FieldValues => {
  const json = toTaskJson(task);
  return Object.fromEntries(TASK_FIELDS.map((field) => [field, copy(json[field])]));
};

const copy = (value: unknown): unknown => (Array.isArray(value) ? [...(value as unknown[])] : value);
/** The fields whose values differ (the platform's `viewChanges`), with their old values; null when none. */
export function changeOf(before: FieldValues, after: FieldValues): FieldChange | null {
  const change = viewChanges(before, after);
  return change.changedFields.length === 0 ? null : change;
}

const pick = (change: FieldChange, fields: string[]): FieldChange | null => {
  const changedFields = change.changedFields.filter((field) => fields.includes(field));
  if (changedFields.length === 0) return null;
  return { changedFields, previous: Object.fromEntries(changedFields.map((f) => [f, change.previous[f]])) };
};

const omit = (change: FieldChange, fields: string[]): FieldChange | null =>
  pick(
    change,
    change.changedFields.filter((field) => !fields.includes(field)),
  );

/**
 * How a lead change is told (issue 19): a status change as `lead.status_changed`, new owners as
 * `lead.assigned` (a person) or `lead.routed` (automatic routing), and any other field as one
 * `lead.updated` with only those fields; a change touching several gives several events.
 */
export function leadEventParts(
  change: FieldChange | null,
  owners: 'lead.assigned' | 'lead.routed' = 'lead.assigned',
): EventPart[] {
  if (!change) return [];
  const parts: EventPart[] = [];
  const status = pick(change, ['crmStatus']);
  if (status) parts.push({ type: 'lead.status_changed', change: status });
  const assigned = pick(change, ['assigneeIds']);
  if (assigned) parts.push({ type: owners, change: assigned });
  const rest = omit(change, ['crmStatus', 'assigneeIds']);
  if (rest) parts.push({ type: 'lead.updated', change: rest });
  return parts;
}

/**
 * A task change: completing it is `task.completed` (status, completedAt); everything else,
 * reopening included, is `task.updated`.
 */
export function taskEventParts(change: FieldChange | null, after: FieldValues): EventPart[] {
  if (!change) return [];
  const parts: EventPart[] = [];
  const completed = after.status === 'completed' ? pick(change, ['status', 'completedAt']) : null;
  if (completed) parts.push({ type: 'task.completed', change: completed });
  const rest = completed ? omit(change, ['status', 'completedAt']) : change;
  if (rest) parts.push({ type: 'task.updated', change: rest });
  return parts;
}

type Versioned = 'leads' | 'notes' | 'tasks';

/**
 * The CRM's events (issue 19): each write calls these inside its transaction, after its flush.
 * A change raises the record's `version` by one (`version = version + 1`, so concurrent writers
 * of one record count right; the row stays locked to the commit) and queues its events with the
 * platform's `Outbox`, each carrying the record as `/v1` answers it. A create is version 1.
 */
@Injectable()
export class CrmEvents {
  constructor(
    private readonly outbox: Outbox,
    private readonly leads: LeadsQueries,
  ) {}

  /** `lead.created`: `lead` is the view the create answers. */
  leadCreated(em: EntityManager, organizationId: string, lead: LeadJson, actor: EventActor, now: Date): void {
    this.outbox.record(em, leadDraft(organizationId, lead, 1, actor, now, { type: 'lead.created' }));
  }

  /**
   * A change of a lead told as `parts` (none: nothing is recorded and the version stays); answers
   * the lead's view after the change (null when nothing was recorded).
   */
  async leadChanged(
    em: EntityManager,
    organizationId: string,
    leadId: number,
    parts: EventPart[],
    actor: EventActor,
    now: Date,
  ): Promise<LeadJson | null> {
    if (parts.length === 0) return null;
    const version = await this.bump(em, 'leads', leadId);
    const lead = await this.leads.inOrganization(organizationId, leadId);
    if (!lead) return null;
    this.outbox.record(
      em,
      ...parts.map((part) => leadDraft(organizationId, lead, version, actor, now, part)),
    );
    return lead;
  }

  /** `leadChanged` for many leads of one organization (a bulk status change): one read of their views. */
  async leadsChanged(
    em: EntityManager,
    organizationId: string,
    changes: { leadId: number; parts: EventPart[] }[],
    actor: EventActor,
    now: Date,
  ): Promise<void> {
    const changed = changes.filter((change) => change.parts.length > 0);
    if (changed.length === 0) return;
    const versions = await this.bumpMany(
      em,
      'leads',
      changed.map((change) => change.leadId),
    );
    const views = await this.leads.manyInOrganization(
      organizationId,
      changed.map((change) => change.leadId),
    );
    for (const { leadId, parts } of changed) {
      const lead = views.get(leadId);
      const version = versions.get(leadId);
      if (!lead || version === undefined) continue;
      this.outbox.record(
        em,
        ...parts.map((part) => leadDraft(organizationId, lead, version, actor, now, part)),
      );
    }
  }

  /**
   * `lead.inquiry`: a connector's intake; the subject is the inquiry (on its lead), the object its
   * timeline entry (`inquiry`, customer-written: `untrusted: true`). Written once: version 1.
   */
  inquiry(em: EntityManager, inquiry: LeadInquiry, actor: EventActor): void {
    const entry = toTimelineEntryJson({
      type: 'inquiry',
      date: inquiry.occurredAt,
      payload: {
        origin: inquiry.origin,
        message: inquiry.message,
        listing: inquiry.listing,
        untrusted: true,
        changedBy: null,
        actor: inquiry.actor,
      },
    });
    this.outbox.record(em, {
      organizationId: inquiry.organizationId,
      type: 'lead.inquiry',
      occurredAt: inquiry.occurredAt,
      subject: { type: 'inquiry', id: inquiry.id, leadId: Number(inquiry.leadId) },
      recordVersion: 1,
      actor,
      data: { object: entry },
    });
  }

  /**
   * A note's event: `note.created` (version 1), `note.updated` (with `change`), `note.deleted`
   * (called before the delete is flushed: the object is the note as it was).
   */
  async note(
    em: EntityManager,
    note: Note,
    part: EventPart,
    actor: EventActor,
    now: Date,
  ): Promise<NoteJson> {
    const version = part.type === 'note.created' ? 1 : await this.bump(em, 'notes', note.id);
    const object = toNoteJson(note);
    this.outbox.record(em, recordDraft(note, 'note', note.id, object, version, actor, now, part));
    return object;
  }

  /** A task's events of one change (`task.created` and `task.deleted` alone; see `taskEventParts`). */
  async task(em: EntityManager, task: Task, parts: EventPart[], actor: EventActor, now: Date): Promise<void> {
    if (parts.length === 0) return;
    const version = parts[0].type === 'task.created' ? 1 : await this.bump(em, 'tasks', task.id);
    const object = toTaskJson(task);
    this.outbox.record(
      em,
      ...parts.map((part) => recordDraft(task, 'task', task.id, object, version, actor, now, part)),
    );
  }

  private async bump(em: EntityManager, table: Versioned, id: number | string): Promise<number> {
    const rows = await preparedRows<{ version: number }>(em, {
      sql: `update ${table} set version = version + 1 where id = ? returning version`,
      params: [id],
    });
    return rows[0]?.version ?? 1;
  }

  private async bumpMany(em: EntityManager, table: 'leads', ids: number[]): Promise<Map<number, number>> {
    const rows = await preparedRows<{ id: string; version: number }>(em, {
      sql: `update ${table} set version = version + 1 where id = any(?::bigint[]) returning id, version`,
      params: [ids],
    });
    return new Map(rows.map((row) => [Number(row.id), row.version]));
  }
}

function leadDraft(
  organizationId: string,
  lead: LeadJson,
  version: number,
  actor: EventActor,
  now: Date,
  part: EventPart,
): EventDraft {
  return {
    organizationId,
    type: part.type,
    occurredAt: now,
    subject: { type: 'lead', id: String(lead.id), leadId: lead.id },
    recordVersion: version,
    actor,
    data: part.change ? { object: lead, previous: part.change.previous } : { object: lead },
    ...(part.change ? { changedFields: part.change.changedFields } : {}),
  };
}

function recordDraft(
  record: { organizationId: string; leadId: number },
  type: string,
  id: string,
  object: unknown,
  version: number,
  actor: EventActor,
  now: Date,
  part: EventPart,
): EventDraft {
  return {
    organizationId: record.organizationId,
    type: part.type,
    occurredAt: now,
    subject: { type, id, leadId: Number(record.leadId) },
    recordVersion: version,
    actor,
    data: part.change ? { object, previous: part.change.previous } : { object },
    ...(part.change ? { changedFields: part.change.changedFields } : {}),
  };
}
