import { TimelineLead, TimelineSource, TimelineSourceProvider } from '@app/crm';

/**
 * `viewing {viewingId, status, viewingAt}` on the timeline of the viewing's lead, one entry per
 * viewing at its `createdAt` (its status as it is now); a connector's carry `changedBy: null` and
 * `actor` `integration:<keyId>`.
 */
@TimelineSourceProvider()
export class ViewingsTimelineSource implements TimelineSource {
  readonly types = ['viewing'] as const;

  entries(lead: TimelineLead) {
    return {
      sql: `select 'viewing', v.created_at,
                   jsonb_build_object('viewingId', v.id, 'status', v.status,
                                      'viewingAt', to_char(v.viewing_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                                      'changedBy', v.created_by, 'actor', v.actor),
                   v.id::text
              from viewings v where v.organization_id = ? and v.lead_id = ?`,
      params: [lead.organizationId, lead.leadId],
    };
  }
}
