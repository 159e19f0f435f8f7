/**
 * The SQL of the `/v1` viewing reads and writes, as pure functions (a baseline server can run the
 * same text). Who sees a viewing: an admin every viewing of the agency; a member those whose lead
 * they reach (the CRM's lead reach, given as a fragment on `leads l`) or where they are the agent.
 */

import type { Statement } from '@app/platform/core';
import { VIEWING_NOTES_PREVIEW, type ViewingKind, type ViewingStatus } from '../domain/viewing';

export type { ViewingRecord } from '../views/viewing.view';

export interface ViewingListFilters {
  from?: Date;
  to?: Date;
  status?: ViewingStatus;
  kind?: ViewingKind;
  propertyListingId?: string;
  /** The viewing's lead or one of its other clients. */
  leadId?: number;
  collaboratorLeadId?: number;
  dealId?: string;
  agentUserId?: string;
}

/** Who reads: the agency, and for a member their lead reach (on `leads l`) and their own id. */
export interface ViewingReader {
  organizationId: string;
  /** Null for an admin. */
  member: { userId: string; leadReach: Statement } | null;
}

const COLUMNS = `v.id, v.property_listing_id, v.lead_id, to_json(v.other_lead_ids) as other_lead_ids,
  v.collaborator_lead_id, v.agent_user_id, v.deal_id, v.viewing_at, v.kind, v.status, v.source,
  v.created_by, v.created_at, v.updated_at, v.version`;

/** The row's columns (on `viewings v`) with the notes cut to the preview, or whole. */
export const columns = (preview: boolean) =>
  preview
    ? `${COLUMNS}, left(v.notes, ${VIEWING_NOTES_PREVIEW}) as notes,
       coalesce(char_length(v.notes) > ${VIEWING_NOTES_PREVIEW}, false) as notes_truncated`
    : `${COLUMNS}, v.notes, false as notes_truncated`;

/** What the reader sees of `viewings v`. */
export function visibleViewingsSql(reader: ViewingReader): Statement {
  if (reader.member === null) return { sql: 'v.organization_id = ?', params: [reader.organizationId] };
  return {
    sql: `v.organization_id = ? and (v.agent_user_id = ?
            or exists (select 1 from leads l where l.id = v.lead_id and ${reader.member.leadReach.sql}))`,
    params: [reader.organizationId, reader.member.userId, ...reader.member.leadReach.params],
  };
}

/** The WHERE clause of the list: what the reader sees, then the filters. */
export function viewingWhere(reader: ViewingReader, filters: ViewingListFilters): Statement {
  const visible = visibleViewingsSql(reader);
  const clauses = [visible.sql];
  const params: unknown[] = [...visible.params];
  const add = (sql: string, ...values: unknown[]) => {
    clauses.push(sql);
    params.push(...values);
  };
  if (filters.from) add('v.viewing_at >= ?', filters.from);
  if (filters.to) add('v.viewing_at < ?', filters.to);
  if (filters.status) add('v.status = ?', filters.status);
  if (filters.kind) add('v.kind = ?', filters.kind);
  if (filters.propertyListingId) add('v.property_listing_id = ?', filters.propertyListingId);
  if (filters.leadId !== undefined)
    add('(v.lead_id = ? or v.other_lead_ids @> array[?]::bigint[])', filters.leadId, filters.leadId);
  if (filters.collaboratorLeadId !== undefined) add('v.collaborator_lead_id = ?', filters.collaboratorLeadId);
  if (filters.dealId) add('v.deal_id = ?', filters.dealId);
  if (filters.agentUserId) add('v.agent_user_id = ?', filters.agentUserId);
  return { sql: clauses.join(' and '), params };
}

/**
 * One page (latest `viewingAt` first, ties by id) and the exact total in one statement: the page's
 * ids are picked first (the `(organization_id, viewing_at desc, id desc)` index), the row columns
 * read for those rows only. Always one row at least: the total, the columns null past the end. The
 * text varies with the filter set (run it unprepared).
 */
export function viewingListStatement(
  reader: ViewingReader,
  filters: ViewingListFilters,
  offset: number,
  limit: number,
): Statement {
  const where = viewingWhere(reader, filters);
  return {
    sql: `with total as (select count(*) as total from viewings v where ${where.sql}),
          page as (select v.id, v.viewing_at from viewings v where ${where.sql}
                    order by v.viewing_at desc, v.id desc limit ? offset ?)
          select total.total, ${columns(true)}
            from total left join (page join viewings v on v.id = page.id) on true
           order by page.viewing_at desc, page.id desc`,
    params: [...where.params, ...where.params, limit, offset],
  };
}

/** One viewing the reader sees, notes whole; `lock` for a write. */
export function viewingStatement(reader: ViewingReader, viewingId: string, lock = false): Statement {
  const visible = visibleViewingsSql(reader);
  return {
    sql: `select ${columns(false)} from viewings v where v.id = ? and ${visible.sql}${lock ? ' for update of v' : ''}`,
    params: [viewingId, ...visible.params],
  };
}

export interface ViewingFields {
  propertyListingId: string | null;
  leadId: number;
  otherLeadIds: number[];
  collaboratorLeadId: number | null;
  dealId: string | null;
  agentUserId: string | null;
  viewingAt: Date;
  kind: ViewingKind;
  status: ViewingStatus;
  notes: string | null;
}

/** A viewing made by a person (`source` `api` or `user`), no connector id. */
export function viewingInsertStatement(
  id: string,
  organizationId: string,
  fields: ViewingFields,
  source: string,
  createdBy: string,
  now: Date,
): Statement {
  return {
    sql: `insert into viewings (id, organization_id, lead_id, property_listing_id, other_lead_ids,
                                collaborator_lead_id, agent_user_id, deal_id, viewing_at, kind, status, notes,
                                source, created_by, created_at, updated_at)
          values (?, ?, ?, ?, ?::bigint[], ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    params: [
      id,
      organizationId,
      fields.leadId,
      fields.propertyListingId,
      `{${fields.otherLeadIds.join(',')}}`,
      fields.collaboratorLeadId,
      fields.agentUserId,
      fields.dealId,
      fields.viewingAt,
      fields.kind,
      fields.status,
      fields.notes,
      source,
      createdBy,
      now,
      now,
    ],
  };
}

/**
 * Every field of a viewing replaced (its source, creator and connector id kept); its `version` up
 * by one when `changed` (a write that changes nothing keeps it).
 */
export function viewingUpdateStatement(
  organizationId: string,
  id: string,
  fields: ViewingFields,
  now: Date,
  changed = true,
): Statement {
  return {
    sql: `update viewings set lead_id = ?, property_listing_id = ?, other_lead_ids = ?::bigint[],
                 collaborator_lead_id = ?, agent_user_id = ?, deal_id = ?, viewing_at = ?, kind = ?,
                 status = ?, notes = ?, updated_at = ?, version = version + ${changed ? 1 : 0}
           where organization_id = ? and id = ?`,
    params: [
      fields.leadId,
      fields.propertyListingId,
      `{${fields.otherLeadIds.join(',')}}`,
      fields.collaboratorLeadId,
      fields.agentUserId,
      fields.dealId,
      fields.viewingAt,
      fields.kind,
      fields.status,
      fields.notes,
      now,
      organizationId,
      id,
    ],
  };
}

/** Whether the deal is one of the lead's, in the organization. */
export const dealOfLeadStatement = (organizationId: string, dealId: string, leadId: number): Statement => ({
  sql: 'select 1 as found from deals where organization_id = ? and id = ? and lead_id = ?',
  params: [organizationId, dealId, leadId],
});

/** Whether the person is a member of the organization. */
export const memberStatement = (organizationId: string, userId: string): Statement => ({
  sql: 'select 1 as found from memberships where organization_id = ? and user_id = ?',
  params: [organizationId, userId],
});
