import { RECORD_LIMITS } from '../domain/records';
import { TimelineLead, TimelineSource, TimelineSourceProvider } from '../extension-points/timeline-source';

/**
 * What connectors pushed, on the lead's timeline, one entry per record (from its first write; a
 * later write shows in the entry, never as a second one): `call {callId, direction, status,
 * durationSeconds}` at `startedAt`, `message {messageId, channel, direction, preview}` at `at`,
 * `email {emailId, subject, source, direction}` at `messageAt`. Each carries `changedBy: null` and
 * `actor` `integration:<keyId>` (the key that first wrote it).
 */
@TimelineSourceProvider()
export class RecordsTimelineSource implements TimelineSource {
  readonly types = ['call', 'message', 'email'] as const;

  entries(lead: TimelineLead) {
    return {
      sql: `select 'call', c.started_at,
                   jsonb_build_object('callId', c.id, 'direction', c.direction, 'status', c.status,
                                      'durationSeconds', c.duration_seconds, 'changedBy', null, 'actor', c.actor),
                   c.id::text
              from calls c where c.organization_id = ? and c.lead_id = ?
            union all
            select 'message', m.at,
                   jsonb_build_object('messageId', m.id, 'channel', m.channel, 'direction', m.direction,
                                      'preview', left(m.body, ${RECORD_LIMITS.messagePreview}),
                                      'changedBy', null, 'actor', m.actor),
                   m.id::text
              from chat_messages m where m.organization_id = ? and m.lead_id = ?
            union all
            select 'email', e.message_at,
                   jsonb_build_object('emailId', e.id, 'subject', e.subject, 'source', e.source,
                                      'direction', case when e.source = 'captured' then e.capture_direction else 'outbound' end,
                                      'changedBy', null, 'actor', e.actor),
                   e.id::text
              from emails e where e.organization_id = ? and e.lead_id = ?`,
      params: [
        lead.organizationId,
        lead.leadId,
        lead.organizationId,
        lead.leadId,
        lead.organizationId,
        lead.leadId,
      ],
    };
  }
}
