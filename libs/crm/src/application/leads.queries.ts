import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import {
  DomainError,
  isAdmin,
  notFound,
  PageResult,
  pageResult,
  preparedRows,
  Principal,
} from '@app/platform';
import { CRM_STATUSES, CrmStatus } from '../domain/lead.entity';
import {
  LeadCounts,
  LeadJson,
  LeadListItemJson,
  LeadRow,
  toLeadJson,
  toLeadListItemJson,
} from '../views/lead.view';
import { LeadAccess } from './lead-access';
import {
  leadByIdStatement,
  leadsByIdsStatement,
  LeadListFilters,
  LeadListScope,
  leadListStatement,
  leadWhere,
  Statement,
} from './lead-list.sql';

export interface LeadListQuery extends LeadListFilters {
  page: number;
  limit: number;
  crmStatus?: CrmStatus;
}

/** List reads of leads: plain rows through SQL, paged, with exact totals. */
@Injectable()
export class LeadsQueries {
  constructor(
    private readonly em: EntityManager,
    private readonly access: LeadAccess,
  ) {}

  async list(actor: Principal, query: LeadListQuery): Promise<PageResult<LeadListItemJson>> {
    const rows = await this.run<LeadRow & { total: string }>(
      leadListStatement(this.scope(actor, query), query, query.page, query.limit),
    );
    // past the last page the one row carries the total alone
    const leads = rows.filter((row) => row.id !== null);
    return pageResult(leads.map(toLeadListItemJson), query.page, query.limit, Number(rows[0].total));
  }

  async get(actor: Principal, leadId: number): Promise<LeadJson> {
    const where = this.where(actor, {});
    const rows = await this.run<LeadRow>(leadByIdStatement(where, leadId));
    if (rows.length === 0) throw notFound('Lead');
    return toLeadJson(rows[0]);
  }

  /**
   * The lead as `/v1` answers it, whoever reaches it (null when it is not in the organization):
   * what an event carries (issue 19), read inside the change's transaction.
   */
  async inOrganization(organizationId: string, leadId: number): Promise<LeadJson | null> {
    const where = leadWhere({ organizationId, memberId: null }, {});
    const rows = await this.run<LeadRow>(leadByIdStatement(where, leadId));
    return rows.length === 0 ? null : toLeadJson(rows[0]);
  }

  /** `inOrganization` for several leads in one statement, by id. */
  async manyInOrganization(organizationId: string, leadIds: number[]): Promise<Map<number, LeadJson>> {
    if (leadIds.length === 0) return new Map();
    const where = leadWhere({ organizationId, memberId: null }, {});
    const rows = await this.run<LeadRow>(leadsByIdsStatement(where, leadIds));
    return new Map(rows.map((row) => [Number(row.id), toLeadJson(row)]));
  }

  /** Per status; `unassigned` for admins only; a member counts own leads. */
  async counts(actor: Principal, assigneeIds?: string[]): Promise<LeadCounts> {
    const where = this.where(actor, { assigneeIds });
    const agencyWide = isAdmin(actor) && !assigneeIds?.length;
    const rows = await this.run<{ crm_status: CrmStatus; n: string; unassigned: string }>(
      agencyWide
        ? {
            sql: `select crm_status, sum(n) as n, sum(unassigned) as unassigned from lead_status_counts
                   where organization_id = ? group by crm_status`,
            params: [actor.organizationId],
          }
        : {
            sql: `select crm_status, count(*) as n, count(*) filter (where cardinality(l.assignee_ids) = 0) as unassigned
                    from leads l where ${where.sql} group by crm_status`,
            params: where.params,
          },
    );
    const counts = Object.fromEntries(CRM_STATUSES.map((status) => [status, 0])) as LeadCounts;
    let unassigned = 0;
    for (const row of rows) {
      counts[row.crm_status] = Number(row.n);
      unassigned += Number(row.unassigned);
    }
    if (isAdmin(actor)) counts.unassigned = unassigned;
    return counts;
  }

  /** Whose leads the actor reads; the assigneeIds filter is an admin tool (spec). */
  private scope(actor: Principal, filters: LeadListFilters): LeadListScope {
    if (filters.assigneeIds?.length && !isAdmin(actor)) {
      throw new DomainError('ORG_ADMIN_REQUIRED', 'Only an organization admin can filter by assignee.');
    }
    return this.access.scope(actor);
  }

  private where(actor: Principal, filters: LeadListFilters): Statement {
    return leadWhere(this.scope(actor, filters), filters);
  }

  /**
   * A prepared statement, inside the request's transaction when there is one (idempotent creates
   * read their own write).
   */
  private run<T>(statement: Statement): Promise<T[]> {
    return preparedRows<T>(this.em, statement);
  }
}
