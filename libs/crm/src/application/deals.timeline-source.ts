import { TimelineLead, TimelineSource, TimelineSourceProvider } from '../extension-points/timeline-source';
import { DealRepository } from '../domain/deal.repository';
import { DealSummaryJson, toDealSummaryJson } from '../views/deal.view';
import type { TimelineEntryJson } from '../views/timeline.view';

/**
 * `deal` entries {dealId, action, stage}: `created`, `stage-changed` and `reopened` from history
 * rows, `won` and `lost` from the deal's own `wonAt`/`lostAt` (closing writes no history row).
 * One statement: the history rows and the deal dates as a UNION. The deals they name come once,
 * as they are now, in `dealsById`.
 */
@TimelineSourceProvider()
export class DealsTimelineSource implements TimelineSource {
  readonly types = ['deal'] as const;

  readonly byId = {
    key: 'dealsById' as const,
    fill: (lead: TimelineLead, entries: TimelineEntryJson[]) => this.dealsById(lead, entries),
  };

  constructor(private readonly deals: DealRepository) {}

  entries(lead: TimelineLead) {
    return {
      sql: `select 'deal', h.occurred_at,
                   jsonb_build_object('dealId', h.payload->>'dealId', 'action', h.payload->>'action',
                                      'stage', h.payload->>'stage'),
                   h.id::text
              from lead_history h
             where h.organization_id = ? and h.lead_id = ? and h.type = 'deal'
               and h.payload->>'action' in ('created', 'stage-changed', 'reopened')
            union all
            select 'deal', d.closed_at,
                   jsonb_build_object('dealId', d.id, 'action', d.status, 'stage', d.stage),
                   d.id::text || '.' || d.status
              from deals d
             where d.organization_id = ? and d.lead_id = ? and d.closed_at is not null`,
      params: [lead.organizationId, lead.leadId, lead.organizationId, lead.leadId],
    };
  }

  private async dealsById(
    lead: TimelineLead,
    entries: TimelineEntryJson[],
  ): Promise<Record<string, DealSummaryJson>> {
    const ids = entries.flatMap((entry) =>
      entry.type === 'deal' ? [(entry.deal as { dealId: string }).dealId] : [],
    );
    if (ids.length === 0) return {};
    const deals = await this.deals.listInOrg(lead.organizationId, { id: { $in: [...new Set(ids)] } });
    return Object.fromEntries(deals.map((deal) => [deal.id, toDealSummaryJson(deal)]));
  }
}
