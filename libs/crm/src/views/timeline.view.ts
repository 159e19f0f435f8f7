import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { CRM_STATUSES, type CrmStatus } from '../domain/lead.entity';
import { TIMELINE_TYPES, type TimelineType } from '../domain/lead-history.entity';
import { DEAL_STAGES } from '../domain/deal.entity';
import { type DealSummaryJson, DealSummaryView } from './deal.view';
import { type TaskJson, TaskView } from './task.view';

/** Longer bodies are cut in the timeline and say so in `_preview`. */
export const TIMELINE_BODY_PREVIEW = 1000;

/** One entry: `type`, `date`, and the payload under the camelCase of `type`. */
export interface TimelineEntryJson {
  type: TimelineType;
  date: string;
  [payloadKey: string]: unknown;
}

/** A page; `tasksById` and `dealsById` are always there, a source may add its own `<name>ById`. */
export interface TimelinePageJson {
  data: TimelineEntryJson[];
  hasMore: boolean;
  nextOffset: number | null;
  total: number;
  totalIsExact: boolean;
  tasksById: Record<string, TaskJson>;
  dealsById: Record<string, DealSummaryJson>;
  [byIdKey: `${string}ById`]: Record<string, unknown>;
}

/** One entry as the timeline union selects it. */
export interface TimelineRow {
  type: TimelineType;
  date: Date | string;
  payload: Record<string, unknown>;
}

/** `lead-created` → `leadCreated`: the payload key of each type. */
export const payloadKeyOf = (type: TimelineType): string =>
  type.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

export function toTimelineEntryJson(row: TimelineRow): TimelineEntryJson {
  const entry: TimelineEntryJson = { type: row.type, date: new Date(row.date).toISOString() };
  const payload = { ...row.payload };
  for (const field of ['createdAt', 'updatedAt']) {
    if (typeof payload[field] === 'string') payload[field] = new Date(payload[field] as string).toISOString();
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

const HISTORY_SOURCES = ['user', 'api'];

/** `leadCreated`: how the lead came in. */
export class LeadCreatedPayloadView {
  @ApiProperty({ example: 'api', description: 'Where the lead came from (`api` through this API).' })
  source: string;

  @ApiProperty({ type: String, nullable: true }) leadGroupName: string | null;
  @ApiProperty({ enum: CRM_STATUSES, description: 'Status the lead opened with.' }) crmStatus: CrmStatus;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'null for a lead a connector brought in.',
  })
  changedBy?: string | null;

  @ApiPropertyOptional({ example: 'integration:0193…', description: 'Set when a connector made the change.' })
  actor?: string;
}

/** `assigneeChange`: owners added and removed. */
export class AssigneeChangePayloadView {
  @ApiProperty({ type: [String] }) addedUserIds: string[];
  @ApiProperty({ type: [String] }) removedUserIds: string[];

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'User id of whoever made the change; null when a connector’s intake routed the lead.',
  })
  changedBy: string | null;

  @ApiProperty({ enum: HISTORY_SOURCES, description: '`api` for changes made through the API.' })
  source: string;

  @ApiPropertyOptional({ example: 'integration:0193…', description: 'Set when a connector made the change.' })
  actor?: string;
}

/** `inquiry`: a connector's lead intake; `message` is customer-written (untrusted). */
export class InquiryPayloadView {
  @ApiProperty({ example: 'portal:idealista' }) origin: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'What the person wrote: customer-authored, treat as untrusted content.',
  })
  message: string | null;

  @ApiProperty({
    type: 'object',
    nullable: true,
    properties: {
      source: { type: 'string', example: 'idealista' },
      id: { type: 'string' },
      country: { type: 'string', example: 'es' },
    },
    required: ['source', 'id'],
    description: 'The listing the person asked about, as property search names it.',
  })
  listing: { source: string; id: string; country?: string } | null;
  @ApiProperty({ enum: [true] }) untrusted: true;
  @ApiProperty({ type: String, nullable: true, description: 'Always null: a connector is no person.' })
  changedBy: null;
  @ApiProperty({ example: 'integration:0193…' }) actor: string;
}

/** `statusChange`: the lead's `crmStatus` from and to. */
export class StatusChangePayloadView {
  @ApiProperty({ enum: CRM_STATUSES }) from: CrmStatus;
  @ApiProperty({ enum: CRM_STATUSES }) to: CrmStatus;
  @ApiProperty({ format: 'uuid', description: 'User id of whoever made the change.' }) changedBy: string;
  @ApiProperty({ enum: HISTORY_SOURCES, description: '`api` for changes made through the API.' })
  source: string;
}

/** `note`: the note as it is now (edits and deletions show). */
export class NotePayloadView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) authorId: string;
  @ApiProperty({ description: 'Cut at 1,000 characters; `_preview` then says so.' }) content: string;
  @ApiProperty() isPinned: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

/** `task`: what happened to a task; the task itself is in the page's `tasksById`. */
export class TaskPayloadView {
  @ApiProperty({
    format: 'uuid',
    description: 'Key into `tasksById` (absent there once the task is deleted).',
  })
  taskId: string;

  @ApiProperty({ enum: ['created', 'completed', 'reopened'] }) action: string;
}

/** `deal`: what happened to a deal; the deal itself is in the page's `dealsById`. */
export class DealPayloadView {
  @ApiProperty({ format: 'uuid', description: 'Key into `dealsById`.' }) dealId: string;

  @ApiProperty({
    enum: ['created', 'stage-changed', 'won', 'lost', 'reopened'],
    description: '`won`/`lost` come from the deal’s own `wonAt`/`lostAt` (its current closing).',
  })
  action: string;

  @ApiProperty({
    enum: DEAL_STAGES,
    description: 'The stage it opened at, moved to or reopened at; when closed, the stage it held.',
  })
  stage: string;
}

/** What a connector wrote: no person (`changedBy` null) and the key (`actor`). */
class ConnectorChangeView {
  @ApiProperty({ type: String, nullable: true, description: 'Always null: a connector is no person.' })
  changedBy: null;
  @ApiProperty({
    example: 'integration:0193…',
    description: '`integration:<keyId>` of the key that wrote it.',
  })
  actor: string;
}

/** `call`: a call a connector pushed (the call itself: `GET /v1/leads/{leadId}/calls`). */
export class CallPayloadView extends ConnectorChangeView {
  @ApiProperty({ format: 'uuid' }) callId: string;
  @ApiProperty({ enum: ['inbound', 'outbound'] }) direction: string;
  @ApiProperty({ enum: ['completed', 'no-answer', 'busy', 'failed', 'canceled'] }) status: string;
  @ApiProperty({ type: 'integer' }) durationSeconds: number;
}

/** `message`: a chat message; `preview` is customer-written when inbound (untrusted). */
export class MessagePayloadView extends ConnectorChangeView {
  @ApiProperty({ format: 'uuid' }) messageId: string;
  @ApiProperty({ enum: ['whatsapp', 'linkedin', 'instagram', 'telegram'] }) channel: string;
  @ApiProperty({ enum: ['inbound', 'outbound'] }) direction: string;
  @ApiProperty({ maxLength: 280, description: 'The body’s first 280 characters.' }) preview: string;
}

/** `email`: an email; `direction` is the capture direction, `outbound` for automated and manual ones. */
export class EmailPayloadView extends ConnectorChangeView {
  @ApiProperty({ format: 'uuid' }) emailId: string;
  @ApiProperty() subject: string;
  @ApiProperty({ enum: ['captured', 'automated', 'manual'] }) source: string;
  @ApiProperty({ enum: ['inbound', 'outbound'] }) direction: string;
}

/** `viewing`: a viewing of the lead (its status now). */
export class ViewingPayloadView {
  @ApiProperty({ format: 'uuid' }) viewingId: string;
  @ApiProperty({ enum: ['scheduled', 'completed', 'cancelled', 'no_show'] }) status: string;
  @ApiProperty({ format: 'date-time' }) viewingAt: string;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'null when a connector wrote it.' })
  changedBy?: string | null;
  @ApiPropertyOptional({ example: 'integration:0193…', description: 'Set when a connector wrote it.' })
  actor?: string;
}

/** `document`: a document attached to or detached from the lead (the documents context). */
export class DocumentPayloadView {
  @ApiProperty({ format: 'uuid' }) documentId: string;
  @ApiProperty({ enum: ['attached', 'detached'] }) action: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'Who attached or detached it.' })
  changedBy: string | null;
}

/** `brochure`: a brochure sent to the lead (the brochures context). */
export class BrochurePayloadView {
  @ApiProperty({ format: 'uuid' }) brochureId: string;
  @ApiProperty({ enum: ['sent'] }) action: string;
}

/** Which field of the entry was shortened. */
export class TimelinePreviewView {
  @ApiProperty({ example: 'content' }) field: string;
  @ApiProperty({ type: 'integer', example: 1000 }) shownLength: number;
  @ApiProperty({ type: 'integer' }) fullLength: number;
}

/**
 * One entry: `type`, `date`, and one payload object whose key is the camelCase of `type`
 * (`lead-created` → `leadCreated`). Only the payload of the entry's own type is present.
 */
export class TimelineEntryView implements TimelineEntryJson {
  [payloadKey: string]: unknown;

  @ApiProperty({ enum: TIMELINE_TYPES, description: 'Stable values; branch on this.' }) type: TimelineType;
  @ApiProperty({ format: 'date-time' }) date: string;

  @ApiPropertyOptional({
    type: TimelinePreviewView,
    description: 'Present when a long body (over 1,000 characters) was shortened.',
  })
  _preview?: TimelinePreviewView;

  @ApiPropertyOptional({ type: LeadCreatedPayloadView, description: 'type `lead-created`' })
  leadCreated?: LeadCreatedPayloadView;

  @ApiPropertyOptional({ type: AssigneeChangePayloadView, description: 'type `assignee-change`' })
  assigneeChange?: AssigneeChangePayloadView;

  @ApiPropertyOptional({ type: StatusChangePayloadView, description: 'type `status-change`' })
  statusChange?: StatusChangePayloadView;

  @ApiPropertyOptional({ type: NotePayloadView, description: 'type `note`' })
  note?: NotePayloadView;

  @ApiPropertyOptional({ type: TaskPayloadView, description: 'type `task`' })
  task?: TaskPayloadView;

  @ApiPropertyOptional({ type: DealPayloadView, description: 'type `deal`' })
  deal?: DealPayloadView;

  @ApiPropertyOptional({ type: CallPayloadView, description: 'type `call`' })
  call?: CallPayloadView;

  @ApiPropertyOptional({ type: EmailPayloadView, description: 'type `email`' })
  email?: EmailPayloadView;

  @ApiPropertyOptional({ type: MessagePayloadView, description: 'type `message`' })
  message?: MessagePayloadView;

  @ApiPropertyOptional({ type: ViewingPayloadView, description: 'type `viewing`' })
  viewing?: ViewingPayloadView;

  @ApiPropertyOptional({ type: DocumentPayloadView, description: 'type `document`' })
  document?: DocumentPayloadView;

  @ApiPropertyOptional({ type: InquiryPayloadView, description: 'type `inquiry`' })
  inquiry?: InquiryPayloadView;

  @ApiPropertyOptional({ type: BrochurePayloadView, description: 'type `brochure`' })
  brochure?: BrochurePayloadView;
}

/** A lead's timeline, newest first, offset paging. */
@ApiExtraModels(DealSummaryView)
export class TimelinePageView implements TimelinePageJson {
  [byIdKey: `${string}ById`]: Record<string, unknown>;

  @ApiProperty({ type: [TimelineEntryView] }) data: TimelineEntryView[];
  @ApiProperty({ description: 'While true, send `nextOffset` as the next `offset`.' }) hasMore: boolean;
  @ApiProperty({ type: 'integer', nullable: true }) nextOffset: number | null;
  @ApiProperty({ type: 'integer' }) total: number;
  @ApiProperty({ description: 'Whether `total` is exact (it is, for now).' }) totalIsExact: boolean;

  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(TaskView) },
    description: 'Each task named by a `task` entry of this page, once, by id.',
  })
  tasksById: Record<string, TaskView>;

  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(DealSummaryView) },
    description: 'Each deal named by a `deal` entry of this page, once, by id, as it is now.',
  })
  dealsById: Record<string, DealSummaryView>;
}
