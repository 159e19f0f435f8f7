import { TimelineLead, TimelineSource, TimelineSourceProvider } from '@app/crm';

/**
 * `document {documentId, action, changedBy}` on a lead's timeline: every attach that added the
 * document and every detach that removed it (`document_lead_events`), at its time, by whom.
 */
@TimelineSourceProvider()
export class DocumentsTimelineSource implements TimelineSource {
  readonly types = ['document'] as const;

  entries(lead: TimelineLead) {
    return {
      sql: `select 'document', e.at,
                   jsonb_build_object('documentId', e.document_id, 'action', e.action, 'changedBy', e.actor_id),
                   e.id::text
              from document_lead_events e where e.organization_id = ? and e.lead_id = ?`,
      params: [lead.organizationId, lead.leadId],
    };
  }
}
