/**
 * The SQL of property search (`POST /properties/search`, `/count`, `/aggregations`, and the
 * `internal` and feed sources of `/property-sources/{source}/search`), as pure functions:
 * ListingSearchQueries runs it and the framework-free benchmark baseline runs the very same text.
 * Bound parameters only (`?`); the text varies with the filter set, so it runs unprepared.
 */
import type { Statement } from '@app/platform/core';

export type { Statement };

export const LISTING_SORT_KEYS = [
  'newest',
  'updated',
  'price_asc',
  'price_desc',
  'area_desc',
  'bedrooms_desc',
] as const;
export type ListingSortKey = (typeof LISTING_SORT_KEYS)[number];

export const SEARCH_SCOPE_NAMES = ['own', 'network'] as const;

/** What a search body leaves out. */
export const LISTING_SEARCH_DEFAULTS = {
  scope: 'own' as (typeof SEARCH_SCOPE_NAMES)[number],
  sort: 'newest' as ListingSortKey,
  page: 1,
  limit: 20,
} as const;

export const LISTING_AGGREGATIONS = [
  'propertyType',
  'bedrooms',
  'city',
  'energyRating',
  'status',
  'priceStats',
] as const;
export type ListingAggregation = (typeof LISTING_AGGREGATIONS)[number];

/** How many terms each term aggregation answers at most. */
export const AGGREGATION_TERMS = 50;

/** The search filters (INTERFACES.md "Listings"), every one optional, all AND-ed. */
export interface ListingFilterValues {
  operation?: string;
  propertyTypes?: string[];
  statuses?: string[];
  priceMin?: number;
  priceMax?: number;
  currency?: string;
  bedroomsMin?: number;
  bedroomsMax?: number;
  bathroomsMin?: number;
  livingAreaMin?: number;
  livingAreaMax?: number;
  plotAreaMin?: number;
  plotAreaMax?: number;
  city?: string;
  community?: string;
  countryCode?: string;
  features?: string[];
  energyRatings?: string[];
  conditions?: string[];
  agentId?: string;
  q?: string;
  updatedSince?: string;
}

export interface BoxCorners {
  northEast: { lat: number; lon: number };
  southWest: { lat: number; lon: number };
}

/**
 * Which rows a search reads. `own`: the agency's live rows of `source` (`internal` listings, or a
 * connected feed's imported rows), every status unless `statuses`. `network`: other agencies'
 * listings on the network (internal, ACTIVE, networkVisible, live); `source` and `statuses` unused.
 */
export interface ListingScope {
  organizationId: string;
  scope: 'own' | 'network';
  source: string;
}

/** The body of `/properties/count` (ListingQueryDto). */
export interface ListingQueryValues {
  scope?: 'own' | 'network';
  filters?: ListingFilterValues;
  boundingBox?: BoxCorners;
}

/** The body of `/properties/search` and `/property-sources/{source}/search` (ListingSearchDto). */
export interface ListingSearchValues extends ListingQueryValues {
  sort?: ListingSortKey;
  page?: number;
  limit?: number;
}

/** The body of `/properties/aggregations` (ListingAggregationsDto). */
export interface ListingAggregationValues extends ListingQueryValues {
  aggregations: ListingAggregation[];
}

/** `%`, `_` and `\` are literal in the searched term. */
export const escapeLike = (term: string): string => term.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The expression of `listings_text_trgm_idx` (title, reference, first address line). */
const TEXT = `app_unaccent(lower(l.title || ' ' || coalesce(l.reference, '') || ' ' || coalesce(l.address_line1, '')))`;

/**
 * The order of a page (alias `l`), id as the tiebreaker; the per-agency indexes on
 * `(organization_id, source, created_at desc | updated_at desc | price, id)` serve the first three.
 */
const ORDER: Record<ListingSortKey, string> = {
  newest: 'l.created_at desc, l.id desc',
  updated: 'l.updated_at desc, l.id desc',
  price_asc: 'l.price, l.id',
  price_desc: 'l.price desc, l.id desc',
  area_desc: 'l.living_area_sqm desc nulls last, l.id desc',
  bedrooms_desc: 'l.bedrooms desc nulls last, l.id desc',
};
/** The columns the orders read (the matches of a materialized search keep them). */
const SORT_COLUMNS = 'l.id, l.created_at, l.updated_at, l.price, l.living_area_sqm, l.bedrooms';

/** An integer filter held within `int` (a larger one compares the same against any stored value). */
const toInt = (value: number): number => Math.max(-2_147_483_648, Math.min(2_147_483_647, value));

/** The WHERE clause (alias `l`): the scope, then the filters and the bounding box. */
export function listingWhere(scope: ListingScope, query: ListingQueryValues): Statement {
  const clauses: string[] = [];
  const params: unknown[] = [];
  const add = (clause: string, ...values: unknown[]) => {
    clauses.push(clause);
    params.push(...values);
  };
  const f = query.filters ?? {};
  if (scope.scope === 'network') {
    // the partial index listings_network_idx; the same rule as isOnNetwork (domain/network-view)
    add(
      `l.status = 'ACTIVE' and l.network_visible and l.deleted_at is null and l.source = 'internal'
       and l.organization_id <> ?`,
      scope.organizationId,
    );
  } else {
    add(
      'l.organization_id = ? and l.source = ? and l.deleted_at is null',
      scope.organizationId,
      scope.source,
    );
    if (f.statuses?.length) add('l.status = any(?::text[])', f.statuses);
  }
  if (f.operation) add('l.operation = ?', f.operation);
  if (f.propertyTypes?.length) add('l.property_type = any(?::text[])', f.propertyTypes);
  if (f.priceMin !== undefined) add('l.price >= ?::numeric', f.priceMin);
  if (f.priceMax !== undefined) add('l.price <= ?::numeric', f.priceMax);
  if (f.currency) add('l.currency = ?', f.currency);
  if (f.bedroomsMin !== undefined) add('l.bedrooms >= ?::int', toInt(f.bedroomsMin));
  if (f.bedroomsMax !== undefined) add('l.bedrooms <= ?::int', toInt(f.bedroomsMax));
  if (f.bathroomsMin !== undefined) add('l.bathrooms >= ?::numeric', f.bathroomsMin);
  // areas in m²: the generated columns convert sqft listings
  if (f.livingAreaMin !== undefined) add('l.living_area_sqm >= ?::numeric', f.livingAreaMin);
  if (f.livingAreaMax !== undefined) add('l.living_area_sqm <= ?::numeric', f.livingAreaMax);
  if (f.plotAreaMin !== undefined) add('l.plot_area_sqm >= ?::numeric', f.plotAreaMin);
  if (f.plotAreaMax !== undefined) add('l.plot_area_sqm <= ?::numeric', f.plotAreaMax);
  // case-insensitive equality (listings_org_city_idx on lower(city))
  if (f.city) add('lower(l.city) = lower(?)', f.city);
  if (f.community) add('lower(l.community) = lower(?)', f.community);
  if (f.countryCode) add('l.country_code = ?', f.countryCode);
  // all of them (GIN listings_features_gin)
  if (f.features?.length) add('l.features @> ?::text[]', f.features);
  if (f.energyRatings?.length) add('l.energy_rating = any(?::text[])', f.energyRatings);
  if (f.conditions?.length) add('l.condition = any(?::text[])', f.conditions);
  if (f.agentId) add('l.agent_id = ?::uuid', f.agentId);
  const q = f.q?.trim();
  // accent- and case-insensitive contains over the trigram index's expression
  if (q) add(`${TEXT} like '%' || app_unaccent(lower(?)) || '%' escape '\\'`, escapeLike(q));
  if (f.updatedSince) add('l.updated_at >= ?::timestamptz', f.updatedSince);
  const box = query.boundingBox;
  if (box) {
    const { southWest: sw, northEast: ne } = box;
    // GiST listings_location_gist; `box` orders its corners itself
    const inBox = 'l.location <@ box(point(?::float8, ?::float8), point(?::float8, ?::float8))';
    if (sw.lon <= ne.lon) add(inBox, sw.lon, sw.lat, ne.lon, ne.lat);
    // across the antimeridian: east of swLon, or west of neLon
    else add(`(${inBox} or ${inBox})`, sw.lon, sw.lat, 180, ne.lat, -180, sw.lat, ne.lon, ne.lat);
    // another agency's listing is placed on a map only where it shows its exact location
    // (showsExactLocation): boxes must not narrow down the place of one that hides it
    if (scope.scope === 'network') add('l.show_exact_location');
  }
  return { sql: clauses.join(' and '), params };
}

/** Whether the matches are best read once (a selective filter the sort's index cannot serve). */
const readsMatchesOnce = (query: ListingQueryValues): boolean =>
  Boolean(query.filters?.q?.trim() || query.boundingBox || query.filters?.features?.length);

/** The columns of a summary row (never `commission`). */
export const LISTING_SUMMARY_COLUMNS = `
  l.id, l.organization_id, l.source, l.title, l.reference, l.operation, l.property_type, l.status,
  l.price::text as price, l.currency, l.bedrooms, l.bathrooms::float8 as bathrooms,
  l.living_area::float8 as living_area, l.plot_area::float8 as plot_area, l.area_unit, l.city, l.community,
  l.country_code, l.lat, l.lon, l.show_exact_location, l.images -> 0 as main_image,
  jsonb_array_length(l.images) as image_count, l.created_at, l.updated_at`;

/**
 * One page and the exact total in one statement. The page's ids are picked first (by the sort's
 * index when it serves), the row columns read for those rows only. With a selective filter (`q`,
 * a box, features) the matches are read once for both the count and the page. Every answer has
 * at least one row: the total, with the listing columns null past the last page.
 */
export function listingPageStatement(
  scope: ListingScope,
  query: ListingQueryValues,
  sort: ListingSortKey,
  offset: number,
  limit: number,
): Statement {
  const where = listingWhere(scope, query);
  const order = ORDER[sort];
  const select = `select total.total, ${LISTING_SUMMARY_COLUMNS}
      from total left join (page join listings l on l.id = page.id) on true
     order by ${order}`;
  if (!readsMatchesOnce(query)) {
    return {
      sql: `with total as (select count(*) as total from listings l where ${where.sql}),
            page as (select l.id from listings l where ${where.sql} order by ${order} limit ? offset ?)
            ${select}`,
      params: [...where.params, ...where.params, limit, offset],
    };
  }
  return {
    sql: `with matches as materialized (select ${SORT_COLUMNS} from listings l where ${where.sql}),
          total as (select count(*) as total from matches),
          page as (select l.id from matches l order by ${order} limit ? offset ?)
          ${select}`,
    params: [...where.params, limit, offset],
  };
}

/** `POST /properties/count`: `{count}`. */
export function listingCountStatement(scope: ListingScope, query: ListingQueryValues): Statement {
  const where = listingWhere(scope, query);
  return { sql: `select count(*)::int as count from listings l where ${where.sql}`, params: where.params };
}

/** A term aggregation over the matches `m`: the top 50 by count, then value; rows without a value not counted. */
const terms = (value: string, group: string) =>
  `(select coalesce(json_agg(json_build_object('value', t.value, 'count', t.count) order by t.count desc, t.value), '[]')
      from (select ${value} as value, count(*)::int as count from m where ${group} is not null
             group by ${group} order by count(*) desc, ${value} limit ${AGGREGATION_TERMS}) t)`;

const AGGREGATION_SQL: Record<ListingAggregation, string> = {
  propertyType: terms('m.property_type', 'm.property_type'),
  bedrooms: terms('m.bedrooms', 'm.bedrooms'),
  // cities case-insensitively; the value is one spelling of it (the first in collation order)
  city: terms('min(m.city)', 'lower(m.city)'),
  energyRating: terms('m.energy_rating', 'm.energy_rating'),
  status: terms('m.status', 'm.status'),
  // per currency (prices are never converted); decimal strings; the median is a listing's price
  // (percentile_disc: the lower middle one when the count is even)
  priceStats: `(select coalesce(json_agg(json_build_object('currency', p.currency, 'count', p.count,
                  'min', p.min::text, 'max', p.max::text, 'avg', p.avg::text, 'median', p.median::text)
                  order by p.currency), '[]')
                 from (select m.currency, count(*)::int as count, min(m.price) as min, max(m.price) as max,
                              round(avg(m.price), 2) as avg,
                              percentile_disc(0.5) within group (order by m.price) as median
                         from m group by m.currency) p)`,
};

/**
 * `POST /properties/aggregations` in one statement: the matches once (materialized), then one
 * json column per requested aggregation, named as the aggregation.
 */
export function listingAggregationsStatement(
  scope: ListingScope,
  query: ListingQueryValues,
  aggregations: readonly ListingAggregation[],
): Statement {
  const where = listingWhere(scope, query);
  const columns = aggregations.map((name) => `${AGGREGATION_SQL[name]} as "${name}"`).join(',\n  ');
  return {
    sql: `with m as materialized (
            select l.property_type, l.bedrooms, l.city, l.energy_rating, l.status, l.price, l.currency
              from listings l where ${where.sql})
          select ${columns}`,
    params: where.params,
  };
}
