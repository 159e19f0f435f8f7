import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { EVENT_TYPES, type EventActor, type EventType } from '@app/platform';

/**
 * An event as `GET /v1/events` answers it (INTERFACES.md "Webhooks and MCP"). Optional parts are
 * left out when absent, never null: `subject.leadId` (a record on no lead), `data.previous` and
 * `changedFields` (anything but an update).
 */
export interface EventJson {
  id: string;
  organizationId: string;
  sequence: number;
  type: EventType;
  occurredAt: string;
  subject: { type: string; id: string; leadId?: number };
  recordVersion: number;
  actor: EventActor;
  data: { object: unknown; previous?: Record<string, unknown> };
  changedFields?: string[];
}

export interface EventPageJson {
  data: EventJson[];
  hasMore: boolean;
  nextAfter: number;
}

/** One row of `eventPageStatement`: the organization's purge point, then the event's columns (null past the end). */
export interface EventPageRow {
  /** The highest sequence the retention job deleted (0: none yet). Read in the page's own snapshot. */
  purged_through: string | number;
  id: string | null;
  organization_id: string;
  sequence: string | number;
  type: string;
  occurred_at: Date | string;
  subject_type: string;
  subject_id: string;
  lead_id: string | number | null;
  record_version: number;
  actor: { type: EventActor['type']; id: string | null; userId: string | null };
  data: { object: unknown; previous?: Record<string, unknown> };
  changed_fields: string[] | null;
}

export function toEventJson(row: EventPageRow): EventJson {
  const event: EventJson = {
    id: row.id!,
    organizationId: row.organization_id,
    sequence: Number(row.sequence),
    type: row.type as EventType,
    occurredAt: new Date(row.occurred_at).toISOString(),
    subject: {
      type: row.subject_type,
      id: row.subject_id,
      ...(row.lead_id === null ? {} : { leadId: Number(row.lead_id) }),
    },
    recordVersion: row.record_version,
    actor: { type: row.actor.type, id: row.actor.id ?? null, userId: row.actor.userId ?? null },
    data: {
      object: row.data.object,
      ...(row.data.previous === undefined || row.data.previous === null
        ? {}
        : { previous: row.data.previous }),
    },
  };
  if (row.changed_fields !== null) event.changedFields = row.changed_fields;
  return event;
}

export class EventSubjectView {
  @ApiProperty({
    example: 'note',
    description: 'The kind of record that changed: `lead`, `note`, `task`, `deal`, `call`, `message`, …',
  })
  type: string;

  @ApiProperty({
    example: '0193a6f2-7c1e-7b7a-9f0e-2b1c4d5e6f70',
    description: 'Its id as `/v1` names it (a lead’s integer id as a string).',
  })
  id: string;

  @ApiPropertyOptional({
    type: 'integer',
    example: 1042,
    description:
      'The lead the record hangs on (the lead itself for a lead); left out for a record on no lead.',
  })
  leadId?: number;
}

export class EventActorView implements EventActor {
  @ApiProperty({
    enum: ['user', 'api_key', 'mcp_key', 'integration', 'system'],
    description:
      '`user`: a person’s session; `api_key`/`mcp_key`: a person’s key; `integration`: a connector’s key; ' +
      '`system`: the service itself (a job, automatic routing).',
  })
  type: EventActor['type'];

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The key’s id for a key, the person’s id for a session; null for the system.',
  })
  id: string | null;

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The person behind it; null for an integration or the system.',
  })
  userId: string | null;
}

export class EventDataView {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'The record after the change, exactly as `/v1` answers it (a lead as `GET /v1/leads/{id}`, a note as ' +
      '`GET /v1/leads/{leadId}/notes`, …; texts flagged `untrusted` there stay flagged). For a deletion, the ' +
      'record as it was just before.',
  })
  object: Record<string, unknown>;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description:
      'The old values of `changedFields`, named as in `object`; left out when nothing was changed.',
  })
  previous?: Record<string, unknown>;
}

/** One catalogued change (INTERFACES.md "Webhooks and MCP", Events). */
export class EventView implements EventJson {
  @ApiProperty({ example: 'evt_0193a6f2-7c1e-7b7a-9f0e-2b1c4d5e6f70', description: '`evt_` + a UUID v7.' })
  id: string;

  @ApiProperty({ format: 'uuid' }) organizationId: string;

  @ApiProperty({
    type: 'integer',
    minimum: 1,
    example: 4711,
    description:
      'Per organization, gap-free and increasing in commit order (a member sees gaps: events of leads out of ' +
      'their reach are left out). Pass the last one seen as `after`.',
  })
  sequence: number;

  @ApiProperty({ enum: EVENT_TYPES }) type: EventType;
  @ApiProperty({ format: 'date-time', description: 'When the change was made.' }) occurredAt: string;
  @ApiProperty({ type: EventSubjectView }) subject: EventSubjectView;

  @ApiProperty({
    type: 'integer',
    minimum: 1,
    description:
      'The record’s own version after the change: 1 on create, +1 per change. Events of one write share it; ' +
      'ignore an event whose `recordVersion` is lower than the one you hold.',
  })
  recordVersion: number;

  @ApiProperty({ type: EventActorView }) actor: EventActorView;
  @ApiProperty({ type: EventDataView }) data: EventDataView;

  @ApiPropertyOptional({
    type: [String],
    example: ['firstName', 'email'],
    description: 'The fields of `object` the change set (updates only); left out otherwise.',
  })
  changedFields?: string[];
}

/** `{data, hasMore, nextAfter}`: a page of events in ascending `sequence`. */
export class EventPageView implements EventPageJson {
  @ApiProperty({ type: [EventView] }) data: EventView[];
  @ApiProperty({ description: 'More events after this page: call again with `after` = `nextAfter`.' })
  hasMore: boolean;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description:
      'The last event’s `sequence`; the `after` sent when `data` is empty. Pass it as the next `after`.',
  })
  nextAfter: number;
}
