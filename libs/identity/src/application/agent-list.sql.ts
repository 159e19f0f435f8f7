/**
 * The SQL of the agent roster list (`GET /agents`, `GET /properties/agents`,
 * `GET /organization/agents`), as pure functions.
 */
import type { Statement } from '@app/platform/core';

export const AGENT_ACTIVE_FILTERS = ['true', 'false', 'all'] as const;
export type AgentActiveFilter = (typeof AGENT_ACTIVE_FILTERS)[number];

export interface AgentListQuery {
  active: AgentActiveFilter;
  q?: string;
  offset: number;
  limit: number;
}

/** `%`, `_` and `\` are literal in the searched term. */
const escapeLike = (term: string): string => term.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The page's ids and the exact total in one statement: at least one row (the total), with `id`
 * null past the last page. Ordered by last name, first name, id (the
 * `(organization_id, is_active, last_name, first_name, id)` index). `q`: case- and
 * accent-insensitive contains on the names (first and last together) and `displayEmail`.
 */
export function agentPageStatement(organizationId: string, query: AgentListQuery): Statement {
  const clauses = ['a.organization_id = ?'];
  const params: unknown[] = [organizationId];
  if (query.active !== 'all') {
    clauses.push('a.is_active = ?');
    params.push(query.active === 'true');
  }
  const q = query.q?.trim();
  if (q) {
    clauses.push(
      `app_unaccent(lower(coalesce(a.first_name, '') || ' ' || coalesce(a.last_name, '') || ' ' ||
                          coalesce(a.display_email, '')))
         like '%' || app_unaccent(lower(?)) || '%' escape '\\'`,
    );
    params.push(escapeLike(q));
  }
  return {
    sql: `with matches as materialized (
            select a.id, a.last_name, a.first_name from agents a where ${clauses.join(' and ')}),
          total as (select count(*) as total from matches),
          page as (select * from matches order by last_name, first_name, id limit ? offset ?)
          select total.total, page.id from total left join page on true
           order by page.last_name, page.first_name, page.id`,
    params: [...params, query.limit, query.offset],
  };
}
