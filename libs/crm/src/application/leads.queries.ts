import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { DomainError, isAdmin, notFound, PageResult, pageResult, Principal } from '@app/platform';
import { CRM_STATUSES, CrmStatus } from '../domain/lead.entity';
import { LeadListItem, leadListItem, LeadRow, LeadView, leadView } from './lead.views';

export interface LeadListQuery {
  page: number;
  limit: number;
  search?: string;
  crmStatus?: CrmStatus;
  assigneeIds?: string[];
}

export type LeadCounts = Record<CrmStatus, number> & { unassigned?: number };

/** Columns of a lead row, with the task figures and live tags computed per row (no N+1). */
const LEAD_COLUMNS = `
  l.id, l.first_name, l.last_name, l.email, l.phone_number, l.language, l.company_name, l.crm_status,
  l.assignee_ids, l.tag_ids, l.purchased_at, l.total_calls, l.last_call_at, l.lead_group, l.source,
  l.lead_type, l.created_at,
  (select count(*) from tasks t where t.lead_id = l.id and t.status = 'pending') as pending_tasks,
  (select min(t.due_date) from tasks t where t.lead_id = l.id and t.status = 'pending') as next_task_due_at,
  coalesce((select json_agg(json_build_object('id', tg.id, 'name', tg.name, 'color', tg.color) order by tg.name)
              from tags tg where tg.id = any(l.tag_ids) and tg.archived_at is null), '[]'::json) as tags`;

const escapeLike = (term: string) => term.replace(/[\\%_]/g, (c) => `\\${c}`);

/** List reads of leads: plain rows through SQL, paged, with exact totals. */
@Injectable()
export class LeadsQueries {
  constructor(private readonly em: EntityManager) {}

  async list(actor: Principal, query: LeadListQuery): Promise<PageResult<LeadListItem>> {
    const { where, params } = this.filters(actor, query);
    const [rows, [{ total }]] = await Promise.all([
      this.em.execute<LeadRow[]>(
        `select ${LEAD_COLUMNS} from leads l where ${where} order by l.created_at desc, l.id desc limit ? offset ?`,
        [...params, query.limit, (query.page - 1) * query.limit],
      ),
      this.em.execute<{ total: string }[]>(`select count(*) as total from leads l where ${where}`, params),
    ]);
    const counts = await this.tagLeadCounts(actor.organizationId, rows);
    return pageResult(
      rows.map((row) => leadListItem(row, counts)),
      query.page,
      query.limit,
      Number(total),
    );
  }

  async get(actor: Principal, leadId: number): Promise<LeadView> {
    const params: unknown[] = [actor.organizationId, leadId];
    let where = 'l.organization_id = ? and l.id = ?';
    if (!isAdmin(actor)) {
      where += ' and l.assignee_ids @> array[?]::uuid[]';
      params.push(actor.userId);
    }
    const rows = await this.em.execute<LeadRow[]>(
      `select ${LEAD_COLUMNS} from leads l where ${where}`,
      params,
    );
    if (rows.length === 0) throw notFound('Lead');
    return leadView(rows[0], await this.tagLeadCounts(actor.organizationId, rows));
  }

  /** Per status; `unassigned` for admins only; a member counts own leads. */
  async counts(actor: Principal, assigneeIds?: string[]): Promise<LeadCounts> {
    const { where, params } = this.filters(actor, { assigneeIds });
    const rows = await this.em.execute<{ crm_status: CrmStatus; n: string; unassigned: string }[]>(
      `select crm_status, count(*) as n, count(*) filter (where cardinality(l.assignee_ids) = 0) as unassigned
           from leads l where ${where} group by crm_status`,
      params,
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

  private filters(actor: Principal, query: Partial<LeadListQuery>): { where: string; params: unknown[] } {
    const clauses = ['l.organization_id = ?'];
    const params: unknown[] = [actor.organizationId];
    if (query.assigneeIds?.length) {
      // spec: the assigneeIds filter is an admin tool
      if (!isAdmin(actor))
        throw new DomainError('ORG_ADMIN_REQUIRED', 'Only an organization admin can filter by assignee.');
      clauses.push('l.assignee_ids && ?::uuid[]');
      params.push(`{${query.assigneeIds.join(',')}}`);
    }
    if (!isAdmin(actor)) {
      clauses.push('l.assignee_ids @> array[?]::uuid[]');
      params.push(actor.userId);
    }
    if (query.crmStatus) {
      clauses.push('l.crm_status = ?');
      params.push(query.crmStatus);
    }
    if (query.search) {
      clauses.push(`l.search_text like ? escape '\\'`);
      params.push(`%${escapeLike(query.search.toLowerCase())}%`);
    }
    return { where: clauses.join(' and '), params };
  }

  /** How many leads carry each tag on the page: one grouped query for the whole page. */
  private async tagLeadCounts(organizationId: string, rows: LeadRow[]): Promise<Map<string, number>> {
    const tagIds = [...new Set(rows.flatMap((row) => row.tags.map((tag) => tag.id)))];
    if (tagIds.length === 0) return new Map();
    const counts = await this.em.execute<{ tag_id: string; n: string }[]>(
      `select t.tag_id, count(*) as n from leads l, unnest(l.tag_ids) as t(tag_id)
        where l.organization_id = ? and l.tag_ids && ?::uuid[] and t.tag_id = any(?::uuid[]) group by t.tag_id`,
      [organizationId, `{${tagIds.join(',')}}`, `{${tagIds.join(',')}}`],
    );
    return new Map(counts.map((c) => [c.tag_id, Number(c.n)]));
  }
}
