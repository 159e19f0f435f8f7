/**
 * The SQL of open houses, as pure functions. A list picks the page's ids first (one statement on
 * `open_houses` joined to the listing for its filters), then reads those rows with their host's
 * name and RSVP counts in one more statement.
 */

import type { Statement } from '@app/platform/core';

export const OPEN_HOUSE_SCOPES = ['network', 'mine'] as const;
export type OpenHouseScope = (typeof OPEN_HOUSE_SCOPES)[number];

export interface OpenHouseListQuery {
  scope: OpenHouseScope;
  /** Events ending after (network: default now). */
  from: Date | null;
  /** Events starting before. */
  to: Date | null;
  /** A prefix of the listing's city or community (case- and accent-insensitive). */
  area: string | null;
  /** The listing's source. */
  source: string | null;
  listingSource: string | null;
  listingId: string | null;
  listingCountry: string | null;
  limit: number;
}

const escapeLike = (value: string): string => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The ids of one page (`limit + 1` rows, so the caller knows `hasMore`). */
export function openHousePageStatement(viewerOrganizationId: string, query: OpenHouseListQuery): Statement {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (clause: string, ...values: unknown[]) => {
    where.push(clause);
    params.push(...values);
  };
  if (query.scope === 'network') {
    add(
      `oh.visibility = 'network' and oh.status = 'scheduled' and oh.organization_id <> ?
       and l.status = 'ACTIVE' and l.network_visible and l.deleted_at is null`,
      viewerOrganizationId,
    );
  } else {
    add('oh.organization_id = ? and l.deleted_at is null', viewerOrganizationId);
  }
  if (query.from) add('oh.ends_at > ?', query.from);
  if (query.to) add('oh.starts_at < ?', query.to);
  if (query.area) {
    add(
      `(app_unaccent(lower(l.city)) like app_unaccent(lower(?)) || '%' escape '\\'
        or app_unaccent(lower(coalesce(l.community, ''))) like app_unaccent(lower(?)) || '%' escape '\\')`,
      escapeLike(query.area),
      escapeLike(query.area),
    );
  }
  if (query.source) add('l.source = ?', query.source);
  if (query.listingSource && query.listingId) {
    // open houses are held on the agency's own (internal) listings
    add(`l.source = ? and oh.property_listing_id::text = lower(?)`, query.listingSource, query.listingId);
  }
  if (query.listingCountry) add('l.country_code = upper(?)', query.listingCountry);
  const order = query.scope === 'network' ? 'oh.starts_at, oh.id' : 'oh.starts_at desc, oh.id desc';
  params.push(query.limit + 1);
  return {
    sql: `select oh.id from open_houses oh join listings l on l.id = oh.property_listing_id
           where ${where.join(' and ')}
           order by ${order} limit ?`,
    params,
  };
}

/**
 * The rows among `ids` the viewer may see (their agency's any visibility, others' `network`), with
 * the host agency's name, the `going` count and the viewer's own RSVP.
 */
export function openHouseRowsStatement(
  viewerOrganizationId: string,
  viewerUserId: string,
  ids: string[],
): Statement {
  return {
    sql: `select oh.id, oh.organization_id, o.name as organization_name, oh.slug, oh.property_listing_id,
                 oh.starts_at, oh.ends_at, oh.timezone, oh.status, oh.visibility, oh.host_user_id,
                 oh.commission_notes, oh.contact_name, oh.contact_phone, oh.invitation,
                 (select count(*) from open_house_rsvps r where r.open_house_id = oh.id and r.status = 'going') as going_count,
                 (select r.status from open_house_rsvps r where r.open_house_id = oh.id and r.user_id = ?) as my_rsvp
            from open_houses oh join organizations o on o.id = oh.organization_id
           where oh.id = any(?::uuid[]) and (oh.organization_id = ? or oh.visibility = 'network')`,
    params: [viewerUserId, `{${ids.join(',')}}`, viewerOrganizationId],
  };
}

/** The listing an open house may be held on: the agency's own live internal listing, its status and agent. */
export function ownListingStatement(organizationId: string, listingId: string): Statement {
  return {
    sql: `select l.id, l.status, a.clerk_user_id as agent_user_id
            from listings l left join agents a on a.id = l.agent_id
           where l.id = ? and l.organization_id = ? and l.source = 'internal' and l.deleted_at is null`,
    params: [listingId, organizationId],
  };
}

/** Whether `userId` is a member of the agency. */
export function memberStatement(organizationId: string, userId: string): Statement {
  return {
    sql: 'select 1 as found from memberships where organization_id = ? and user_id = ?',
    params: [organizationId, userId],
  };
}

/** The open house locked for an RSVP (the capacity check and the write in one transaction). */
export function lockVisibleStatement(viewerOrganizationId: string, id: string): Statement {
  return {
    sql: `select oh.id, oh.status, oh.ends_at, oh.invitation
            from open_houses oh
           where oh.id = ? and (oh.organization_id = ? or oh.visibility = 'network')
           for update`,
    params: [id, viewerOrganizationId],
  };
}

/** `going` answers of others than `userId`. */
export function goingOthersStatement(id: string, userId: string): Statement {
  return {
    sql: `select count(*) as n from open_house_rsvps where open_house_id = ? and status = 'going' and user_id <> ?`,
    params: [id, userId],
  };
}

export function rsvpUpsertStatement(
  id: string,
  userId: string,
  organizationId: string,
  status: string,
  now: Date,
): Statement {
  return {
    sql: `insert into open_house_rsvps (open_house_id, user_id, organization_id, status, updated_at)
          values (?, ?, ?, ?, ?)
          on conflict (open_house_id, user_id) do update
             set status = excluded.status, organization_id = excluded.organization_id, updated_at = excluded.updated_at`,
    params: [id, userId, organizationId, status, now],
  };
}

/** The scheduled open houses a person hosts overlapping a window, earliest first. */
export function hostedOpenHousesStatement(
  organizationId: string,
  userId: string,
  window: { startsAt: Date; endsAt: Date },
  limit: number,
): Statement {
  return {
    sql: `select oh.id, oh.status, oh.starts_at, oh.ends_at from open_houses oh
           where oh.organization_id = ? and oh.host_user_id = ? and oh.status = 'scheduled'
             and oh.starts_at < ? and oh.ends_at > ? and oh.starts_at > ?::timestamptz - interval '12 hours'
           order by oh.starts_at, oh.id limit ?`,
    params: [organizationId, userId, window.endsAt, window.startsAt, window.startsAt, limit],
  };
}
