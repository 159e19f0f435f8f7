import { TimelineLead, TimelineSource, TimelineSourceProvider } from '@app/crm';

/**
 * `brochure {brochureId, action: "sent"}` on the timeline of every lead a brochure was sent to
 * (`leadIds` at create), at the brochure's creation; gone with the brochure when it is deleted.
 */
@TimelineSourceProvider()
export class BrochuresTimelineSource implements TimelineSource {
  readonly types = ['brochure'] as const;

  entries(lead: TimelineLead) {
    return {
      sql: `select 'brochure', b.created_at,
                   jsonb_build_object('brochureId', b.id, 'action', 'sent'),
                   b.id::text
              from brochures b where b.organization_id = ? and b.lead_ids @> array[?::bigint]`,
      params: [lead.organizationId, lead.leadId],
    };
  }
}
