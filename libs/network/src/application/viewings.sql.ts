/**
 * The SQL of viewings, as pure functions (a baseline server can run the same text). The upsert by a
 * connector's id is one `INSERT … ON CONFLICT (organization_id, connector, external_id)`: a viewing
 * made on `/v1` has no connector id, and NULLs never conflict.
 */

import type { Statement } from '@app/platform';
import { VIEWING_DURATION_MS } from '../domain/viewing';
import { columns } from './viewing-list.sql';

/** The fields a connector's write replaces: a write that changes none of them keeps the version. */
const UPSERTED = [
  'property_listing_id',
  'other_lead_ids',
  'agent_user_id',
  'viewing_at',
  'kind',
  'status',
  'notes',
];

export interface ViewingWrite {
  id: string;
  organizationId: string;
  leadId: number;
  connector: string;
  externalId: string;
  source: string;
  actor: string;
  propertyListingId: string | null;
  otherLeadIds: number[];
  agentUserId: string | null;
  agentEmail: string | null;
  viewingAt: Date;
  kind: string;
  status: string;
  notes: string | null;
  now: Date;
}

export function viewingUpsertStatement(w: ViewingWrite): Statement {
  return {
    sql: `insert into viewings as v (id, organization_id, lead_id, property_listing_id, other_lead_ids, agent_user_id,
                                     viewing_at, kind, status, notes, source, connector, external_id, created_by,
                                     actor, created_at, updated_at)
          values (?::uuid, ?, ?, ?, ?::bigint[],
                  (select m.user_id from memberships m join users u on u.id = m.user_id
                    where m.organization_id = ? and (m.user_id = ?::uuid or lower(u.email) = lower(?::text)) limit 1),
                  ?, ?, ?, ?, ?, ?, ?, null, ?, ?, ?)
          on conflict (organization_id, connector, external_id) do update
             set property_listing_id = excluded.property_listing_id, other_lead_ids = excluded.other_lead_ids,
                 agent_user_id = excluded.agent_user_id, viewing_at = excluded.viewing_at, kind = excluded.kind,
                 status = excluded.status, notes = excluded.notes, updated_at = excluded.updated_at,
                 version = v.version + case when (${UPSERTED.map((c) => `v.${c}`).join(', ')})
                                        is distinct from (${UPSERTED.map((c) => `excluded.${c}`).join(', ')})
                                       then 1 else 0 end
           where v.lead_id = excluded.lead_id
          returning ${columns(false)}, v.id = ?::uuid as created`,
    params: [
      w.id,
      w.organizationId,
      w.leadId,
      w.propertyListingId,
      `{${w.otherLeadIds.join(',')}}`,
      w.organizationId,
      w.agentUserId,
      w.agentEmail,
      w.viewingAt,
      w.kind,
      w.status,
      w.notes,
      w.source,
      w.connector,
      w.externalId,
      w.actor,
      w.now,
      w.now,
      w.id,
    ],
  };
}

/** A connector's viewing as its `/v1` read shows it, locked for the write about to replace it. */
export function viewingByExternalIdStatement(
  organizationId: string,
  connector: string,
  externalId: string,
): Statement {
  return {
    sql: `select ${columns(false)} from viewings v
           where v.organization_id = ? and v.connector = ? and v.external_id = ? for update of v`,
    params: [organizationId, connector, externalId],
  };
}

/** Which of `leadIds` are leads of the organization. */
export function leadsOfOrganizationStatement(organizationId: string, leadIds: number[]): Statement {
  return {
    sql: 'select id from leads where organization_id = ? and id = any(?::bigint[])',
    params: [organizationId, `{${leadIds.join(',')}}`],
  };
}

const hour = `interval '${VIEWING_DURATION_MS / 1000} seconds'`;

/** A person's scheduled viewings (they are the agent) overlapping a window, earliest first. */
export function agentViewingsStatement(
  organizationId: string,
  userId: string,
  window: { startsAt: Date; endsAt: Date },
  limit: number,
): Statement {
  return {
    sql: `select v.id, v.lead_id, v.status, v.kind, v.viewing_at from viewings v
           where v.organization_id = ? and v.agent_user_id = ? and v.status = 'scheduled'
             and v.viewing_at > ?::timestamptz - ${hour} and v.viewing_at < ?
           order by v.viewing_at, v.id limit ?`,
    params: [organizationId, userId, window.startsAt, window.endsAt, limit],
  };
}

/** The scheduled viewings that block a person's free times (theirs, and with a lead that lead's). */
export function busyViewingsStatement(
  organizationId: string,
  userId: string,
  leadId: number | null,
  window: { startsAt: Date; endsAt: Date },
): Statement {
  const whose =
    leadId === null
      ? 'v.agent_user_id = ?'
      : '(v.agent_user_id = ? or v.lead_id = ? or ? = any(v.other_lead_ids))';
  return {
    sql: `select v.viewing_at from viewings v
           where v.organization_id = ? and v.status = 'scheduled' and ${whose}
             and v.viewing_at > ?::timestamptz - ${hour} and v.viewing_at < ?`,
    params: [
      organizationId,
      userId,
      ...(leadId === null ? [] : [leadId, leadId]),
      window.startsAt,
      window.endsAt,
    ],
  };
}
