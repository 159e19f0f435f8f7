import type { EventActor } from '@app/platform';

/** An `event` row as the relay reads it (sequence and lead id as text: bigint). */
export interface EventRow {
  id: string;
  organization_id: string;
  sequence: string;
  type: string;
  occurred_at: Date | string;
  subject_type: string;
  subject_id: string;
  lead_id: string | null;
  record_version: number;
  actor: EventActor;
  data: { object: unknown; previous?: Record<string, unknown> };
  changed_fields: string[] | null;
}

/**
 * The body of a webhook: the event as `GET /v1/events` answers it (INTERFACES.md "Events"):
 * `subject.leadId` and `changedFields` only when the event has them.
 */
export function eventJsonOf(row: EventRow): Record<string, unknown> {
  return {
    id: row.id,
    organizationId: row.organization_id,
    sequence: Number(row.sequence),
    type: row.type,
    occurredAt: new Date(row.occurred_at).toISOString(),
    subject: {
      type: row.subject_type,
      id: row.subject_id,
      ...(row.lead_id !== null ? { leadId: Number(row.lead_id) } : {}),
    },
    recordVersion: row.record_version,
    actor: row.actor,
    data: row.data,
    ...(row.changed_fields ? { changedFields: row.changed_fields } : {}),
  };
}
