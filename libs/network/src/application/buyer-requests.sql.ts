/**
 * The SQL of buyer requests, as pure functions. The fit of a listing (INTERFACES.md "Brochures and
 * network"): other agencies' open, unexpired requests of the same operation and country (index
 * `buyer_requests_open_idx`), the listing's type among theirs, an area equal to its city or
 * community ignoring case and accents (`app_unaccent(lower(..))`), its price ≤ `price_max` in the
 * same currency, its bedrooms ≥ `bedrooms_min` when set.
 */

import type { Statement } from '@app/platform';

export interface BuyerRequestRow {
  id: string;
  organization_id: string;
  created_by: string;
  operation: string;
  property_types: string[];
  country_code: string;
  areas: string[];
  price_max: string;
  currency: string;
  bedrooms_min: number | null;
  status: string;
  expires_at: Date;
  created_at: Date;
}

/** The columns a view is made from: never `notes` or `lead_id`. */
const COLUMNS = `id, organization_id, created_by, operation, property_types, country_code, areas,
                 price_max::text as price_max, currency, bedrooms_min, status, expires_at, created_at`;

export interface BuyerRequestInsert {
  id: string;
  organizationId: string;
  createdBy: string;
  leadId: number | null;
  operation: string;
  propertyTypes: string[];
  countryCode: string;
  areas: string[];
  priceMax: number;
  currency: string;
  bedroomsMin: number | null;
  notes: string | null;
  expiresAt: Date;
  now: Date;
}

export const insertBuyerRequestStatement = (r: BuyerRequestInsert): Statement => ({
  sql: `insert into buyer_requests (id, organization_id, created_by, lead_id, operation, property_types, country_code,
                                    areas, price_max, currency, bedrooms_min, notes, status, expires_at,
                                    created_at, updated_at)
        values (?::uuid, ?::uuid, ?::uuid, ?, ?, array(select jsonb_array_elements_text(?::jsonb)), ?,
                array(select jsonb_array_elements_text(?::jsonb)), ?, ?, ?, ?, 'open', ?, ?, ?)
        returning ${COLUMNS}`,
  params: [
    r.id,
    r.organizationId,
    r.createdBy,
    r.leadId,
    r.operation,
    JSON.stringify(r.propertyTypes),
    r.countryCode,
    JSON.stringify(r.areas),
    r.priceMax,
    r.currency,
    r.bedroomsMin,
    r.notes,
    r.expiresAt,
    r.now,
    r.now,
  ],
});

export const buyerRequestOfOrganizationStatement = (organizationId: string, id: string): Statement => ({
  sql: `select ${COLUMNS} from buyer_requests where id = ?::uuid and organization_id = ?::uuid`,
  params: [id, organizationId],
});

export const closeBuyerRequestStatement = (id: string, now: Date): Statement => ({
  sql: `update buyer_requests
           set status = 'closed', closed_at = coalesce(closed_at, ?::timestamptz), updated_at = ?::timestamptz
         where id = ?::uuid
        returning ${COLUMNS}`,
  params: [now, now, id],
});

/** The caller's own requests, every status, newest first (index `buyer_requests_creator_idx`). */
export const ownBuyerRequestsStatement = (
  organizationId: string,
  userId: string,
  limit: number,
): Statement => ({
  sql: `select ${COLUMNS} from buyer_requests
         where created_by = ?::uuid and organization_id = ?::uuid
         order by created_at desc, id desc
         limit ?`,
  params: [userId, organizationId, limit],
});

export interface ListingFacts {
  organizationId: string;
  operation: string;
  propertyType: string;
  countryCode: string;
  city: string;
  community: string | null;
  price: string;
  currency: string;
  bedrooms: number | null;
}

/** Other agencies' open, unexpired requests that fit the listing, newest first. */
export const fittingBuyerRequestsStatement = (
  listing: ListingFacts,
  now: Date,
  limit: number,
): Statement => ({
  sql: `select ${COLUMNS} from buyer_requests r
         where r.status = 'open' and r.country_code = ? and r.operation = ?
           and r.organization_id <> ?::uuid
           and r.expires_at > ?::timestamptz
           and ? = any(r.property_types)
           and r.currency = ? and r.price_max >= ?::numeric
           and (r.bedrooms_min is null or r.bedrooms_min <= coalesce(?::int, 0))
           and exists (select 1 from unnest(r.areas) a
                        where app_unaccent(lower(a)) = app_unaccent(lower(?::text))
                           or app_unaccent(lower(a)) = app_unaccent(lower(?::text)))
         order by r.created_at desc, r.id desc
         limit ?`,
  params: [
    listing.countryCode,
    listing.operation,
    listing.organizationId,
    now,
    listing.propertyType,
    listing.currency,
    listing.price,
    // a listing without bedrooms counts as 0
    listing.bedrooms,
    listing.city,
    listing.community,
    limit,
  ],
});
