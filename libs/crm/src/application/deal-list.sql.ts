/**
 * The SQL of `GET /v1/deals`, as pure functions: DealsQueries runs it as prepared statements and
 * the benchmark's baseline server can run the very same text.
 */
import type { Statement } from '../domain/lead-reach';

/** Spec: at most 1,000 rows; one more is read to tell `hasMore`. */
export const DEALS_CAP = 1000;

/** A date pair, already resolved: From inclusive; To inclusive for a moment, `lt` for a plain date's next day. */
export interface DealDateRange {
  gte?: Date;
  lte?: Date;
  lt?: Date;
}

export interface DealListFilters {
  organizationId: string;
  /** Whose deals: the lead's (any), these people's, or the key's person's. */
  leadId?: number;
  assigneeIds?: string[];
  personId: string;
  status?: string;
  stages?: string[];
  q?: string;
  propertyListingId?: string;
  amountMin?: string;
  amountMax?: string;
  expectedClose?: DealDateRange;
  created?: DealDateRange;
  closed?: DealDateRange;
  collectionState?: 'invoiced_not_collected' | 'collected';
}

export const DEAL_COLUMNS = `d.id, d.lead_id, d.assignee_ids, d.title, d.status, d.stage, d.amount, d.currency,
  d.property_listing_id, d.expected_close_at, d.won_at, d.lost_at, d.lost_reason, d.stage_changed_at,
  d.created_at, d.updated_at, d.commission_mode, d.commission_amount, d.commission_percent,
  d.invoice_number, d.estimated_collection_at, d.collected_at`;

const escapeLike = (term: string) => term.replace(/[\\%_]/g, (c) => `\\${c}`);
const uuidArray = (ids: string[]) => `{${ids.join(',')}}`;

function range(
  column: string,
  bounds: DealDateRange | undefined,
  clauses: string[],
  params: unknown[],
): void {
  if (!bounds) return;
  if (bounds.gte) {
    clauses.push(`${column} >= ?`);
    params.push(bounds.gte);
  }
  if (bounds.lte) {
    clauses.push(`${column} <= ?`);
    params.push(bounds.lte);
  }
  if (bounds.lt) {
    clauses.push(`${column} < ?`);
    params.push(bounds.lt);
  }
}

/** The WHERE clause on `deals d`: the agency, whose deals, then each filter. */
export function dealWhere(filters: DealListFilters): Statement {
  const clauses = ['d.organization_id = ?'];
  const params: unknown[] = [filters.organizationId];
  if (filters.leadId !== undefined) {
    clauses.push('d.lead_id = ?');
    params.push(filters.leadId);
  }
  if (filters.assigneeIds?.length) {
    clauses.push('d.assignee_ids && ?::uuid[]');
    params.push(uuidArray(filters.assigneeIds));
  } else if (filters.leadId === undefined) {
    clauses.push('d.assignee_ids @> array[?]::uuid[]');
    params.push(filters.personId);
  }
  if (filters.status) {
    clauses.push('d.status = ?');
    params.push(filters.status);
  }
  if (filters.stages?.length) {
    clauses.push('d.stage = any(?::text[])');
    params.push(`{${filters.stages.join(',')}}`);
  }
  if (filters.q) {
    // title, or the lead's full name (so first and last too) or email; the trigram indexes narrow both
    const term = `%${escapeLike(filters.q.toLowerCase())}%`;
    clauses.push(`(lower(d.title) like ? escape '\\' or d.lead_id in (
        select l.id from leads l
         where l.organization_id = ? and l.search_text like ? escape '\\'
           and (lower(l.first_name || ' ' || l.last_name) like ? escape '\\' or lower(l.email) like ? escape '\\')))`);
    params.push(term, filters.organizationId, term, term, term);
  }
  if (filters.propertyListingId) {
    clauses.push('d.property_listing_id = ?');
    params.push(filters.propertyListingId);
  }
  if (filters.amountMin !== undefined) {
    clauses.push('d.amount >= ?::numeric');
    params.push(filters.amountMin);
  }
  if (filters.amountMax !== undefined) {
    clauses.push('d.amount <= ?::numeric');
    params.push(filters.amountMax);
  }
  range('d.expected_close_at', filters.expectedClose, clauses, params);
  range('d.created_at', filters.created, clauses, params);
  // closed_at = won_at of a won deal, lost_at of a lost one, null while open (a generated column)
  range('d.closed_at', filters.closed, clauses, params);
  if (filters.collectionState === 'invoiced_not_collected') {
    clauses.push('d.invoice_number is not null and d.collected_at is null');
  } else if (filters.collectionState === 'collected') {
    clauses.push('d.collected_at is not null');
  }
  return { sql: clauses.join(' and '), params };
}

/**
 * At most `DEALS_CAP + 1` deals, most recently active first (`updated_at` desc, `id` desc): the
 * page's ids are picked first, then their columns read.
 */
export function dealListStatement(filters: DealListFilters): Statement {
  const where = dealWhere(filters);
  return {
    sql: `with page as (
            select d.id, d.updated_at from deals d where ${where.sql}
             order by d.updated_at desc, d.id desc limit ?)
          select ${DEAL_COLUMNS} from page join deals d on d.id = page.id
           order by page.updated_at desc, page.id desc`,
    params: [...where.params, DEALS_CAP + 1],
  };
}

/** The participants of `dealIds`, in each deal's order: one statement for a whole list. */
export function dealParticipantsStatement(dealIds: string[]): Statement {
  return {
    sql: `select p.deal_id, p.user_id, p.role, p.percent from deal_participants p
           where p.deal_id = any(?::uuid[]) order by p.deal_id, p.position`,
    params: [uuidArray(dealIds)],
  };
}
