import type { Statement } from '@app/platform/core';

/**
 * The statements lead routing runs on leads (issue 14), as pure text so a benchmark can run the
 * same SQL. Locks: routing takes the lead row `FOR UPDATE` before it decides.
 */

const FACT_COLUMNS = `l.id::text as "leadId", l.organization_id as "organizationId", l.source, l.origin,
  l.lead_type as "leadType", l.language, l.country, l.tag_ids as "tagIds",
  l.growth_area_id as "growthAreaId", l.phone_number <> '' as "hasPhone", l.email <> '' as "hasEmail",
  l.created_at as "arrivedAt", l.assignee_ids as "assigneeIds"`;

/** The lead's routing facts and owners (no lock). */
export const routingFactsStatement = (organizationId: string, leadId: number): Statement => ({
  sql: `select ${FACT_COLUMNS} from leads l where l.organization_id = ? and l.id = ?`,
  params: [organizationId, leadId],
});

/** The lead's facts and owners, the row locked for this transaction. */
export const lockLeadForRoutingStatement = (organizationId: string, leadId: number): Statement => ({
  sql: `select ${FACT_COLUMNS} from leads l where l.organization_id = ? and l.id = ? for update`,
  params: [organizationId, leadId],
});

/** Route-unassigned: the lead locked when nobody else holds it and it is still unassigned. */
export const lockUnassignedLeadStatement = (organizationId: string, leadId: number): Statement => ({
  sql: `select ${FACT_COLUMNS} from leads l
         where l.organization_id = ? and l.id = ? and cardinality(l.assignee_ids) = 0
         for update skip locked`,
  params: [organizationId, leadId],
});

/** Up to `limit` unassigned leads, oldest `createdAt` first (leads_org_unassigned_oldest_idx). */
export const oldestUnassignedStatement = (organizationId: string, limit: number): Statement => ({
  sql: `select l.id::text as id from leads l
         where l.organization_id = ? and cardinality(l.assignee_ids) = 0
         order by l.created_at, l.id limit ?`,
  params: [organizationId, limit],
});

/** Open (`lead`/`potential`) leads per owner (the `smart` strategy). */
export const openLeadCountsStatement = (organizationId: string): Statement => ({
  sql: `select a.user_id as "userId", count(*)::int as n
          from leads l cross join lateral unnest(l.assignee_ids) as a(user_id)
         where l.organization_id = ? and l.crm_status in ('lead', 'potential')
         group by a.user_id`,
  params: [organizationId],
});

/**
 * Did `userId` act on the lead after `since` (INTERFACES.md "Lead routing", Reassignment): a status
 * change or a task of theirs, a note they wrote, a call they made (or an outbound call without a
 * person), an outbound message they sent (or without a person), an outbound email (emails carry no
 * person). Each probe is one indexed range on the lead.
 */
export const actedSinceStatement = (leadId: number, userId: string, since: Date): Statement => ({
  sql: `select (
      exists (select 1 from lead_history h where h.lead_id = ? and h.occurred_at > ?
               and h.actor_id = ? and h.type in ('status-change', 'task'))
   or exists (select 1 from notes n where n.lead_id = ? and n.created_at > ? and n.author_id = ?)
   or exists (select 1 from tasks t where t.lead_id = ? and t.created_at > ? and t.created_by = ?)
   or exists (select 1 from calls c where c.lead_id = ? and c.started_at > ?
               and (c.owner_id = ? or (c.owner_id is null and c.direction = 'outbound')))
   or exists (select 1 from chat_messages m where m.lead_id = ? and m.at > ? and m.direction = 'outbound'
               and (m.sent_by = ? or m.sent_by is null))
   or exists (select 1 from emails e where e.lead_id = ? and e.message_at > ?
               and (e.capture_direction = 'outbound' or e.source = 'manual'))
  ) as acted`,
  params: [
    ...[leadId, since, userId],
    ...[leadId, since, userId],
    ...[leadId, since, userId],
    ...[leadId, since, userId],
    ...[leadId, since, userId],
    ...[leadId, since],
  ],
});
