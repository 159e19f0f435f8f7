import type { TimelineType } from '../domain/lead-history.entity';
import { TimelineLead, TimelineSource, TimelineSourceProvider } from '../extension-points/timeline-source';

const LEAD_CHANGES: readonly TimelineType[] = ['lead-created', 'assignee-change', 'status-change'];

/** The lead's own history rows: how it came in, its owners and its status. */
@TimelineSourceProvider()
export class HistoryTimelineSource implements TimelineSource {
  readonly types = LEAD_CHANGES;

  entries(lead: TimelineLead) {
    return {
      sql: `select h.type, h.occurred_at, h.payload, h.id::text
              from lead_history h
             where h.organization_id = ? and h.lead_id = ? and h.type in (${LEAD_CHANGES.map(() => '?').join(', ')})`,
      params: [lead.organizationId, lead.leadId, ...LEAD_CHANGES],
    };
  }
}
