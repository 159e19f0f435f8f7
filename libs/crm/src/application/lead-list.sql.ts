/**
 * The SQL of the lead list, as pure functions: LeadsQueries runs it through MikroORM and the
 * framework-free baseline server in bench/ runs the very same statements.
 */

import { leadReachSql, LeadReachScope, Statement } from '../domain/lead-reach';

export type { Statement };
export type LeadListScope = LeadReachScope;

export interface LeadListFilters {
  search?: string;
  crmStatus?: string;
  assigneeIds?: string[];
}

/**
 * Columns of a lead row, with the call facts (lead_facts), task figures and live tags (with lead
 * counts) per row: one query, no N+1.
 */
export const LEAD_COLUMNS = `
  l.id, l.first_name, l.last_name, l.email, l.phone_number, l.language, l.company_name, l.crm_status,
  l.assignee_ids, l.tag_ids, l.purchased_at, l.lead_group, l.source,
  l.lead_type, l.created_at,
  coalesce((select f.total_calls from lead_facts f where f.lead_id = l.id), 0) as total_calls,
  (select f.last_call_at from lead_facts f where f.lead_id = l.id) as last_call_at,
  (select count(*) from tasks t where t.lead_id = l.id and t.status = 'pending') as pending_tasks,
  (select min(t.due_date) from tasks t where t.lead_id = l.id and t.status = 'pending') as next_task_due_at,
  coalesce((select json_agg(json_build_object('id', tg.id, 'name', tg.name, 'color', tg.color,
                                              'leadCount', coalesce((select sum(c.n) from tag_lead_counts c
                                                where c.organization_id = l.organization_id and c.tag_id = tg.id), 0)
                                              ) order by tg.name)
              from tags tg
             where tg.id = any(l.tag_ids) and tg.archived_at is null), '[]'::json) as tags`;

const escapeLike = (term: string) => term.replace(/[\\%_]/g, (c) => `\\${c}`);
export const uuidArray = (ids: string[]) => `{${ids.join(',')}}`;

/** The WHERE clause every lead read shares: who reaches the lead (agency, member), then filters. */
export function leadWhere(scope: LeadListScope, filters: LeadListFilters): Statement {
  const reach = leadReachSql('l', scope);
  const clauses = [reach.sql];
  const params: unknown[] = [...reach.params];
  if (filters.assigneeIds?.length) {
    clauses.push('l.assignee_ids && ?::uuid[]');
    params.push(uuidArray(filters.assigneeIds));
  }
  if (filters.crmStatus) {
    clauses.push('l.crm_status = ?');
    params.push(filters.crmStatus);
  }
  if (filters.search) {
    clauses.push(`l.search_text like ? escape '\\'`);
    params.push(`%${escapeLike(filters.search.toLowerCase())}%`);
  }
  return { sql: clauses.join(' and '), params };
}

/**
 * One page, newest first, and the exact total, in one statement (one round trip, one connection).
 * The page's ids are picked first (skipping `offset` rows without computing anything for them) and
 * the per-row figures are computed for those rows only, so page 40 costs what page 1 costs. The
 * total of an agency-wide list (no member scope, search or assignee filter) comes from the
 * trigger-kept counters; a search scans its matches once, for both the count and the page.
 * Every answer has at least one row: the total, with the lead columns null past the last page.
 */
export function leadListStatement(
  scope: LeadListScope,
  filters: LeadListFilters,
  page: number,
  limit: number,
): Statement {
  const where = leadWhere(scope, filters);
  const window = [limit, (page - 1) * limit];
  const select = `select total.total, ${LEAD_COLUMNS}
      from total left join (page join leads l on l.id = page.id) on true
     order by page.created_at desc, page.id desc`;
  const pageOfLeads = `page as (
              select l.id, l.created_at from leads l where ${where.sql}
               order by l.created_at desc, l.id desc limit ? offset ?)`;
  if (countedByCounters(scope, filters)) {
    return {
      sql: `with total as (
              select coalesce(sum(n), 0) as total from lead_status_counts
               where organization_id = ?${filters.crmStatus ? ' and crm_status = ?' : ''}),
            ${pageOfLeads}
            ${select}`,
      params: [
        scope.organizationId,
        ...(filters.crmStatus ? [filters.crmStatus] : []),
        ...where.params,
        ...window,
      ],
    };
  }
  if (!filters.search) {
    // a member's or an assignee's leads: counted over the assignee index, the page read in index order
    return {
      sql: `with total as (select count(*) as total from leads l where ${where.sql}),
            ${pageOfLeads}
            ${select}`,
      params: [...where.params, ...where.params, ...window],
    };
  }
  // a search: one scan of the trigram index gives both the count and the page
  return {
    sql: `with matches as materialized (select l.id, l.created_at from leads l where ${where.sql}),
          total as (select count(*) as total from matches),
          page as (select id, created_at from matches order by created_at desc, id desc limit ? offset ?)
          ${select}`,
    params: [...where.params, ...window],
  };
}

/** Agency-wide lists (whatever the status filter) read their total from the trigger-kept counters. */
const countedByCounters = (scope: LeadListScope, filters: LeadListFilters) =>
  !scope.memberId && !filters.search && !filters.assigneeIds?.length;

/**
 * What only the single lead shows: its origin, consent and linked chat channels (the distinct
 * channels of its chat messages, by name; index `chat_messages_lead_channel_at_idx`).
 */
const SINGLE_LEAD_COLUMNS = `l.origin, l.consent,
  array(select distinct m.channel from chat_messages m where m.lead_id = l.id order by m.channel) as channels`;

/** One lead by id, with the same columns as a list row plus what only the single lead shows. */
export function leadByIdStatement(where: Statement, leadId: number): Statement {
  return {
    sql: `select ${LEAD_COLUMNS}, ${SINGLE_LEAD_COLUMNS} from leads l where ${where.sql} and l.id = ?`,
    params: [...where.params, leadId],
  };
}

/** Several leads by id (the single lead's columns), in id order: the views a bulk change's events carry. */
export function leadsByIdsStatement(where: Statement, leadIds: number[]): Statement {
  return {
    sql: `select ${LEAD_COLUMNS}, ${SINGLE_LEAD_COLUMNS} from leads l
           where ${where.sql} and l.id = any(?::bigint[]) order by l.id`,
    params: [...where.params, leadIds],
  };
}
