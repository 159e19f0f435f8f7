import type { Statement } from '@app/platform';

/** The SQL of webhook endpoints, deliveries and the relay (pure: the benchmark may run the same text). */

export const ENDPOINT_COLUMNS = `id, organization_id, url, description, events, status, disabled_reason, secret,
  previous_secret, previous_secret_valid_until, failing_since, relay_from_sequence, version, created_at, updated_at`;

export const DELIVERY_COLUMNS = `id, organization_id, endpoint_id, event_id, event_type, attempt, status,
  response_status, duration_ms, error, created_at, next_attempt_at`;

/** One organization's endpoint writes run one at a time (the 10-endpoint limit holds under races). */
export const lockEndpointsStatement = (organizationId: string): Statement => ({
  sql: `select pg_advisory_xact_lock(hashtextextended('webhook_endpoint:' || ?::text, 0))`,
  params: [organizationId],
});

export const countEndpointsStatement = (organizationId: string): Statement => ({
  sql: 'select count(*)::int as n from webhook_endpoint where organization_id = ?',
  params: [organizationId],
});

/** The organization's last event sequence now (0 before its first event). */
export const lastSequenceStatement = (organizationId: string): Statement => ({
  sql: `select coalesce((select last from org_event_counter where organization_id = ?), 0)::text as last`,
  params: [organizationId],
});

/** The relay starts an organization at `last` (its first endpoint's time); kept when it exists. */
export const ensureCursorStatement = (organizationId: string, last: string): Statement => ({
  sql: `insert into webhook_relay_cursor (organization_id, last_sequence) values (?, ?)
        on conflict (organization_id) do nothing`,
  params: [organizationId, last],
});

export interface NewEndpointRow {
  id: string;
  organizationId: string;
  url: string;
  description: string | null;
  events: string[];
  enabled: boolean;
  secret: string;
  relayFromSequence: string;
  now: Date;
}

export const insertEndpointStatement = (row: NewEndpointRow): Statement => ({
  sql: `insert into webhook_endpoint (id, organization_id, url, description, events, status, disabled_reason,
          secret, relay_from_sequence, created_at, updated_at)
        values (?, ?, ?, ?, array(select jsonb_array_elements_text(?::jsonb)), ?, ?, ?, ?, ?, ?)
        returning ${ENDPOINT_COLUMNS}`,
  params: [
    row.id,
    row.organizationId,
    row.url,
    row.description,
    JSON.stringify(row.events),
    row.enabled ? 'enabled' : 'disabled',
    row.enabled ? null : 'manual',
    row.secret,
    row.relayFromSequence,
    row.now,
    row.now,
  ],
});

export const endpointStatement = (organizationId: string, id: string, lock = false): Statement => ({
  sql: `select ${ENDPOINT_COLUMNS} from webhook_endpoint where organization_id = ? and id = ?${lock ? ' for update' : ''}`,
  params: [organizationId, id],
});

export const endpointsStatement = (organizationId: string): Statement => ({
  sql: `select ${ENDPOINT_COLUMNS} from webhook_endpoint where organization_id = ? order by created_at, id`,
  params: [organizationId],
});

export interface EndpointChangeRow {
  url: string;
  description: string | null;
  events: string[];
  status: 'enabled' | 'disabled';
  disabledReason: string | null;
  failingSince: Date | null;
  /** Set when a disabled endpoint is enabled again: it receives the events committed from now on. */
  relayFromSequence: string | null;
  now: Date;
}

export const updateEndpointStatement = (
  organizationId: string,
  id: string,
  c: EndpointChangeRow,
): Statement => ({
  sql: `update webhook_endpoint
           set url = ?, description = ?, events = array(select jsonb_array_elements_text(?::jsonb)), status = ?,
               disabled_reason = ?, failing_since = ?, relay_from_sequence = coalesce(?::bigint, relay_from_sequence),
               version = version + 1, updated_at = ?
         where organization_id = ? and id = ?
        returning ${ENDPOINT_COLUMNS}`,
  params: [
    c.url,
    c.description,
    JSON.stringify(c.events),
    c.status,
    c.disabledReason,
    c.failingSince,
    c.relayFromSequence,
    c.now,
    organizationId,
    id,
  ],
});

export const rotateSecretStatement = (
  organizationId: string,
  id: string,
  secret: string,
  previousValidUntil: Date,
  now: Date,
): Statement => ({
  sql: `update webhook_endpoint
           set previous_secret = secret, previous_secret_valid_until = ?, secret = ?, version = version + 1,
               updated_at = ?
         where organization_id = ? and id = ?
        returning ${ENDPOINT_COLUMNS}`,
  params: [previousValidUntil, secret, now, organizationId, id],
});

export const deleteEndpointStatement = (organizationId: string, id: string): Statement => ({
  sql: 'delete from webhook_endpoint where organization_id = ? and id = ? returning id',
  params: [organizationId, id],
});

/** One page of an endpoint's deliveries since `since`, newest first (`limit + 1` rows: the extra says more). */
export const deliveriesStatement = (
  organizationId: string,
  endpointId: string,
  since: Date,
  limitPlusOne: number,
  offset: number,
): Statement => ({
  sql: `select ${DELIVERY_COLUMNS} from webhook_delivery
         where organization_id = ? and endpoint_id = ? and created_at >= ?
         order by created_at desc, id desc
         limit ? offset ?`,
  params: [organizationId, endpointId, since, limitPlusOne, offset],
});

export const deliveryStatement = (organizationId: string, endpointId: string, id: string): Statement => ({
  sql: `select ${DELIVERY_COLUMNS} from webhook_delivery where organization_id = ? and endpoint_id = ? and id = ?`,
  params: [organizationId, endpointId, id],
});

/** A manual retry: due now, pending again (an attempt under way keeps its lease). */
export const retryDeliveryStatement = (organizationId: string, id: string, now: Date): Statement => ({
  sql: `update webhook_delivery
           set status = 'pending', next_attempt_at = case when status = 'pending' then least(next_attempt_at, ?) else ? end
         where organization_id = ? and id = ?
        returning ${DELIVERY_COLUMNS}`,
  params: [now, now, organizationId, id],
});

/** An endpoint disabled: its pending deliveries end `failed`. */
export const failPendingStatement = (endpointId: string, error: string): Statement => ({
  sql: `update webhook_delivery set status = 'failed', next_attempt_at = null, error = ?
         where endpoint_id = ? and status = 'pending'`,
  params: [error, endpointId],
});

// ---- the relay

/** Organizations with an enabled endpoint and events the relay has not turned into deliveries yet. */
export const relayBacklogStatement = (): Statement => ({
  sql: `select c.organization_id
          from webhook_relay_cursor c
          join org_event_counter k on k.organization_id = c.organization_id
         where k.last > c.last_sequence
           and exists (select 1 from webhook_endpoint e where e.organization_id = c.organization_id and e.status = 'enabled')`,
  params: [],
});

export const lockCursorStatement = (organizationId: string): Statement => ({
  sql: 'select last_sequence::text as last from webhook_relay_cursor where organization_id = ? for update',
  params: [organizationId],
});

export const eventsAfterStatement = (organizationId: string, after: string, limit: number): Statement => ({
  sql: `select id, organization_id, sequence::text as sequence, type, occurred_at, subject_type, subject_id,
               lead_id::text as lead_id, record_version, actor, data, changed_fields
          from event where organization_id = ? and sequence > ? order by sequence limit ?`,
  params: [organizationId, after, limit],
});

export const eventByIdStatement = (organizationId: string, id: string): Statement => ({
  sql: `select id, organization_id, sequence::text as sequence, type, occurred_at, subject_type, subject_id,
               lead_id::text as lead_id, record_version, actor, data, changed_fields
          from event where organization_id = ? and id = ?`,
  params: [organizationId, id],
});

export const enabledEndpointsStatement = (organizationId: string): Statement => ({
  sql: `select id, events, relay_from_sequence::text as relay_from_sequence from webhook_endpoint
         where organization_id = ? and status = 'enabled'`,
  params: [organizationId],
});

export interface NewDeliveryRow {
  endpointId: string;
  eventId: string;
  eventType: string;
  payload: string;
}

/** New deliveries, due at `dueAt`; one per (endpoint, event) whatever the relay does twice. */
export const insertDeliveriesStatement = (
  organizationId: string,
  rows: NewDeliveryRow[],
  now: Date,
  dueAt: Date,
  attempt = 0,
): Statement => ({
  sql: `insert into webhook_delivery (id, organization_id, endpoint_id, event_id, event_type, payload, attempt,
          status, created_at, next_attempt_at)
        select gen_random_uuid(), ?, (r->>'endpointId')::uuid, r->>'eventId', r->>'eventType', r->>'payload', ?,
               'pending', ?, ?
          from jsonb_array_elements(?::jsonb) r
        on conflict (endpoint_id, event_id) do nothing
        returning id, endpoint_id, event_id`,
  params: [organizationId, attempt, now, dueAt, JSON.stringify(rows)],
});

export const advanceCursorStatement = (organizationId: string, last: string): Statement => ({
  sql: 'update webhook_relay_cursor set last_sequence = greatest(last_sequence, ?::bigint) where organization_id = ?',
  params: [last, organizationId],
});

// ---- attempts

const CLAIMED_COLUMNS = `d.id, d.organization_id, d.endpoint_id, d.event_id, d.event_type, d.payload, d.attempt,
  e.url, e.status as endpoint_status, e.secret, e.previous_secret, e.previous_secret_valid_until`;

/** Takes one due delivery for an attempt: `attempt` + 1, held for the lease. */
export const claimDeliveryStatement = (id: string, now: Date, leaseUntil: Date): Statement => ({
  sql: `update webhook_delivery d set attempt = d.attempt + 1, next_attempt_at = ?
          from webhook_endpoint e
         where d.id = ? and d.status = 'pending' and d.next_attempt_at <= ? and e.id = d.endpoint_id
        returning ${CLAIMED_COLUMNS}`,
  params: [leaseUntil, id, now],
});

/** Takes up to `limit` due deliveries (none another process holds), oldest due first. */
export const claimDueStatement = (now: Date, leaseUntil: Date, limit: number): Statement => ({
  sql: `with due as (
          select id from webhook_delivery
           where status = 'pending' and next_attempt_at <= ?
           order by next_attempt_at
           limit ?
           for update skip locked
        )
        update webhook_delivery d set attempt = d.attempt + 1, next_attempt_at = ?
          from due, webhook_endpoint e
         where d.id = due.id and e.id = d.endpoint_id
        returning ${CLAIMED_COLUMNS}`,
  params: [now, limit, leaseUntil],
});

export interface AttemptOutcomeRow {
  status: 'pending' | 'succeeded' | 'failed';
  responseStatus: number | null;
  durationMs: number;
  error: string | null;
  nextAttemptAt: Date | null;
}

/** Records an attempt's outcome, unless a later attempt has taken the delivery since. */
export const recordAttemptStatement = (id: string, attempt: number, o: AttemptOutcomeRow): Statement => ({
  sql: `update webhook_delivery
           set status = ?, response_status = ?, duration_ms = ?, error = ?, next_attempt_at = ?
         where id = ? and attempt = ?
        returning ${DELIVERY_COLUMNS}`,
  params: [o.status, o.responseStatus, o.durationMs, o.error, o.nextAttemptAt, id, attempt],
});

/** A success in one statement (no endpoint lock unless its failure state is to be cleared). */
export const recordSuccessStatement = (
  id: string,
  attempt: number,
  endpointId: string,
  o: AttemptOutcomeRow,
): Statement => ({
  sql: `with d as (
          update webhook_delivery
             set status = 'succeeded', response_status = ?, duration_ms = ?, error = null, next_attempt_at = null
           where id = ? and attempt = ?
          returning ${DELIVERY_COLUMNS}
        ), e as (
          update webhook_endpoint set failing_since = null
           where id = ? and failing_since is not null and exists (select 1 from d)
        )
        select * from d`,
  params: [o.responseStatus, o.durationMs, id, attempt, endpointId],
});

/** The endpoint of an attempt's outcome, locked while it is recorded. */
export const lockEndpointStatement = (endpointId: string): Statement => ({
  sql: 'select status, failing_since from webhook_endpoint where id = ? for update',
  params: [endpointId],
});

/** A failed attempt: failing since the first failure after the last success. */
export const endpointFailedStatement = (endpointId: string, now: Date): Statement => ({
  sql: 'update webhook_endpoint set failing_since = coalesce(failing_since, ?) where id = ?',
  params: [now, endpointId],
});

/** Disables an enabled endpoint (`failing`, `gone`); answers it when this call disabled it. */
export const disableEndpointStatement = (endpointId: string, reason: string, now: Date): Statement => ({
  sql: `update webhook_endpoint set status = 'disabled', disabled_reason = ?, version = version + 1, updated_at = ?
         where id = ? and status = 'enabled'
        returning ${ENDPOINT_COLUMNS}`,
  params: [reason, now, endpointId],
});

/** Deliveries past the retention (batched). */
export const purgeDeliveriesStatement = (before: Date, limit: number): Statement => ({
  sql: `delete from webhook_delivery where id in (
          select id from webhook_delivery where created_at < ? limit ?
        )`,
  params: [before, limit],
});
