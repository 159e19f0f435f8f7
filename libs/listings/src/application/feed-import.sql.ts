import type { FeedListing } from '../domain/feeds';

/**
 * The statements of a feed import (pure text, run by `FeedImporter` in one transaction). Rows go
 * in as one jsonb parameter per batch (`jsonb_to_recordset`), so a batch is one statement with
 * three parameters whatever its size.
 */

/** The imported columns: `[column, type, field of FeedListing]`. */
const COLUMNS: [string, string, keyof FeedListing | 'id'][] = [
  ['id', 'uuid', 'id'],
  ['external_id', 'text', 'externalId'],
  ['reference', 'text', 'reference'],
  ['title', 'text', 'title'],
  ['description', 'text', 'description'],
  ['operation', 'text', 'operation'],
  ['rent_period', 'text', 'rentPeriod'],
  ['property_type', 'text', 'propertyType'],
  ['price', 'numeric', 'price'],
  ['currency', 'text', 'currency'],
  ['country_code', 'text', 'countryCode'],
  ['region', 'text', 'region'],
  ['city', 'text', 'city'],
  ['community', 'text', 'community'],
  ['postal_code', 'text', 'postalCode'],
  ['address_line1', 'text', 'addressLine1'],
  ['address_line2', 'text', 'addressLine2'],
  ['lat', 'double precision', 'lat'],
  ['lon', 'double precision', 'lon'],
  ['show_exact_location', 'boolean', 'showExactLocation'],
  ['bedrooms', 'integer', 'bedrooms'],
  ['bathrooms', 'numeric', 'bathrooms'],
  ['area_unit', 'text', 'areaUnit'],
  ['living_area', 'numeric', 'livingArea'],
  ['plot_area', 'numeric', 'plotArea'],
  ['floor', 'text', 'floor'],
  ['year_built', 'integer', 'yearBuilt'],
  ['parking_spaces', 'integer', 'parkingSpaces'],
  ['furnished', 'text', 'furnished'],
  ['condition', 'text', 'condition'],
  ['energy_rating', 'text', 'energyRating'],
  ['features', 'text[]', 'features'],
  ['additional_features', 'jsonb', 'additionalFeatures'],
  ['available_from', 'date', 'availableFrom'],
  ['completion_date', 'date', 'completionDate'],
  ['images', 'jsonb', 'images'],
  ['video_url', 'text', 'videoUrl'],
  ['virtual_tour_url', 'text', 'virtualTourUrl'],
];

/** Columns compared to tell a changed row from an unchanged one (all but the id). */
const COMPARED = COLUMNS.filter(([column]) => column !== 'id' && column !== 'external_id').map(
  ([column]) => column,
);

/** Rows per insert statement. */
export const IMPORT_BATCH = 500;

/** One batch as the jsonb parameter: keys are the column names. */
export function batchJson(entries: (FeedListing & { id: string })[]): string {
  return JSON.stringify(
    entries.map((entry) =>
      Object.fromEntries(COLUMNS.map(([column, , field]) => [column, entry[field] ?? null])),
    ),
  );
}

/**
 * Upserts a batch by `(organization_id, source, external_id)`. A row that exists is updated only
 * when something differs (or it was removed or is not ACTIVE), so `updated_at` moves only on real
 * changes; the answer has the id of every inserted or updated listing (an inserted row keeps the
 * id of the batch, an updated one its own).
 * Parameters: organization id, source, now, the batch json.
 */
export const UPSERT_FEED_LISTINGS = `
insert into listings (organization_id, source, status, created_at, updated_at, ${COLUMNS.map(([c]) => c).join(', ')})
select ?::uuid, ?, 'ACTIVE', ?::timestamptz, ?::timestamptz, ${COLUMNS.map(([c]) =>
  c === 'features' ? `coalesce(r.features, '{}')` : c === 'images' ? `coalesce(r.images, '[]')` : `r.${c}`,
).join(', ')}
  from jsonb_to_recordset(?::jsonb) as r(${COLUMNS.map(([c, type]) => `${c} ${type}`).join(', ')})
on conflict (organization_id, source, external_id) where external_id is not null do update set
  ${COMPARED.map((c) => `${c} = excluded.${c}`).join(',\n  ')},
  status = 'ACTIVE',
  deleted_at = null,
  updated_at = excluded.updated_at,
  version = listings.version + 1
where listings.deleted_at is not null
   or listings.status <> 'ACTIVE'
   or (${COMPARED.map((c) => `listings.${c}`).join(', ')})
      is distinct from (${COMPARED.map((c) => `excluded.${c}`).join(', ')})
returning id`;

/**
 * Soft-deletes the feed's live listings whose external id the feed no longer lists.
 * Parameters: now, now, organization id, source, the kept ids as a jsonb array.
 */
export const REMOVE_MISSING_FEED_LISTINGS = `
update listings set deleted_at = ?::timestamptz, updated_at = ?::timestamptz, version = version + 1
 where organization_id = ? and source = ? and deleted_at is null
   and not exists (select 1 from jsonb_array_elements_text(?::jsonb) kept(id) where kept.id = listings.external_id)
returning id`;

/** Soft-deletes every live listing of a feed (the feed is removed). Parameters: now, now, organization id, source. */
export const REMOVE_ALL_FEED_LISTINGS = `
update listings set deleted_at = ?::timestamptz, updated_at = ?::timestamptz, version = version + 1
 where organization_id = ? and source = ? and deleted_at is null`;

/**
 * Claims due feeds for the periodic import: their `next_import_at` moves on by the lease, so no
 * other run takes them while this one imports (the import sets the real next time).
 * Parameters: lease end, now, how many.
 */
export const CLAIM_DUE_FEEDS = `
update property_feeds set next_import_at = ?::timestamptz
 where id in (select id from property_feeds where next_import_at <= ?::timestamptz
               order by next_import_at, id limit ? for update skip locked)
returning id`;

/** A feed row for the importer, locked. Parameters: feed id. */
export const LOCK_FEED = `
select id, organization_id, source, url, refresh_minutes from property_feeds where id = ? for update`;

/** The same without waiting for an import holding it (a dashboard call). */
export const LOCK_FEED_NOWAIT = `${LOCK_FEED.trimEnd()} nowait`;

/** The feed row without a lock (before the download). */
export const READ_FEED = `select id, organization_id, source, url, refresh_minutes from property_feeds where id = ?`;

/**
 * Writes an import's outcome. Parameters: last imported at, status, error, listing count (null
 * keeps it), next import at, updated at, feed id.
 */
export const RECORD_IMPORT = `
update property_feeds
   set last_imported_at = ?::timestamptz, last_status = ?, last_error = ?,
       listing_count = coalesce(?::integer, listing_count), next_import_at = ?::timestamptz, updated_at = ?::timestamptz
 where id = ?`;
