import type { CrmStatus } from '../domain/lead.entity';

export interface LeadTagView {
  id: string;
  name: string;
  color: string;
  leadCount: number;
}

/** A row of `GET /v1/leads`. */
export interface LeadListItem {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  phoneNumber: string;
  language: string | null;
  companyName: string | null;
  crmStatus: CrmStatus;
  assigneeIds: string[];
  purchasedAt: string;
  totalCalls: number;
  lastCallAt: string | null;
  pendingTasks: number;
  nextTaskDueAt: string | null;
  leadGroup: string | null;
  tags: LeadTagView[];
}

/** A single lead: the list item plus source, type, creation time and linked chat channels. */
export interface LeadView extends LeadListItem {
  source: string;
  leadType: string | null;
  createdAt: string;
  channels: string[];
}

/** One row as the list query returns it (snake_case, from SQL). */
export interface LeadRow {
  id: string | number;
  first_name: string;
  last_name: string;
  email: string;
  phone_number: string;
  language: string | null;
  company_name: string | null;
  crm_status: CrmStatus;
  assignee_ids: string[];
  tag_ids: string[];
  purchased_at: Date;
  total_calls: number;
  last_call_at: Date | null;
  pending_tasks: string | number;
  next_task_due_at: Date | null;
  lead_group: string | null;
  source: string;
  lead_type: string | null;
  created_at: Date;
  tags: { id: string; name: string; color: string; leadCount: number | string }[];
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export function leadListItem(row: LeadRow): LeadListItem {
  return {
    id: Number(row.id),
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    phoneNumber: row.phone_number,
    language: row.language,
    companyName: row.company_name,
    crmStatus: row.crm_status,
    assigneeIds: row.assignee_ids,
    purchasedAt: iso(row.purchased_at)!,
    totalCalls: row.total_calls,
    lastCallAt: iso(row.last_call_at),
    pendingTasks: Number(row.pending_tasks),
    nextTaskDueAt: iso(row.next_task_due_at),
    leadGroup: row.lead_group,
    tags: row.tags.map((tag) => ({ ...tag, leadCount: Number(tag.leadCount) })),
  };
}

export function leadView(row: LeadRow): LeadView {
  return {
    ...leadListItem(row),
    source: row.source,
    leadType: row.lead_type,
    createdAt: iso(row.created_at)!,
    channels: [],
  };
}
