import { TimelineLead, TimelineSource, TimelineSourceProvider } from '../extension-points/timeline-source';

/** Lead intakes: `inquiry {origin, message, listing, untrusted: true, changedBy: null, actor}`. */
@TimelineSourceProvider()
export class InquiriesTimelineSource implements TimelineSource {
  readonly types = ['inquiry'] as const;

  entries(lead: TimelineLead) {
    return {
      sql: `select 'inquiry', i.occurred_at,
                   jsonb_build_object('origin', i.origin, 'message', i.message, 'listing', i.listing,
                                      'untrusted', true, 'changedBy', null, 'actor', i.actor),
                   i.id::text
              from lead_inquiries i where i.organization_id = ? and i.lead_id = ?`,
      params: [lead.organizationId, lead.leadId],
    };
  }
}
