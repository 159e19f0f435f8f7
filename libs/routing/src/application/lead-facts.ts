import type { RoutableLead } from '@app/crm';
import type { RoutingFacts } from '../domain/routing-facts';

/** A lead's routing facts as the engine reads them (arrivedAt = createdAt, ISO). */
export const factsOf = (lead: RoutableLead): RoutingFacts => ({
  source: lead.source,
  origin: lead.origin,
  leadType: lead.leadType,
  language: lead.language,
  country: lead.country,
  tagIds: lead.tagIds,
  growthAreaId: lead.growthAreaId,
  hasPhone: lead.hasPhone,
  hasEmail: lead.hasEmail,
  arrivedAt: new Date(lead.arrivedAt).toISOString(),
});
