import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { AppConfig, preparedRows, validationFailed, type ValidationIssue } from '@app/platform';
import type { ListingSourceName } from '../domain/listing.entity';
import { summaryOfRow, type ListingSummary, type SummaryRow } from '../views/listing-summary.row';
import {
  LISTING_SEARCH_DEFAULTS,
  listingAggregationsStatement,
  listingCountStatement,
  listingPageStatement,
  type ListingAggregation,
  type ListingAggregationValues,
  type ListingQueryValues,
  type ListingScope,
  type ListingSearchValues,
} from './listing-search.sql';

/** A page of summaries with the exact total. */
export interface SummaryPage {
  data: ListingSummary[];
  total: number;
}

export interface SearchAnswer extends SummaryPage {
  page: number;
  limit: number;
  hasMore: boolean;
}

export interface TermCount<T = string> {
  value: T;
  count: number;
}

export interface PriceStats {
  currency: string;
  count: number;
  min: string;
  max: string;
  avg: string;
  median: string;
}

export type AggregationsAnswer = Partial<
  Record<Exclude<ListingAggregation, 'priceStats' | 'bedrooms'>, TermCount[]> & {
    bedrooms: TermCount<number>[];
    priceStats: PriceStats[];
  }
>;

/** The min/max pairs of the filters: a min above its max is a 400. */
const RANGES = [
  ['priceMin', 'priceMax'],
  ['bedroomsMin', 'bedroomsMax'],
  ['livingAreaMin', 'livingAreaMax'],
  ['plotAreaMin', 'plotAreaMax'],
] as const;

/**
 * What the DTOs cannot say on one field: min ≤ max, a box's south below its north, `statuses`
 * with the network (which shows ACTIVE listings only) → 400 VALIDATION_FAILED.
 */
export function queryIssues(body: ListingQueryValues, scope = body.scope ?? 'own'): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const filters = body.filters ?? {};
  for (const [min, max] of RANGES) {
    const low = filters[min];
    const high = filters[max];
    if (low !== undefined && high !== undefined && low > high) {
      issues.push({ path: `filters.${min}`, message: `${min} must not be greater than ${max}` });
    }
  }
  if (scope === 'network' && filters.statuses !== undefined) {
    issues.push({
      path: 'filters.statuses',
      message: 'statuses applies to scope own only (the network shows ACTIVE listings)',
    });
  }
  if (filters.updatedSince !== undefined) {
    // PostgreSQL's timestamps run from 4713 BC; a year 0 or six-digit year is no instant to compare with
    const year = new Date(filters.updatedSince).getUTCFullYear();
    if (!(year >= 1 && year <= 9999)) {
      issues.push({
        path: 'filters.updatedSince',
        message: 'updatedSince must be an instant between years 1 and 9999',
      });
    }
  }
  const box = body.boundingBox;
  if (box && box.southWest.lat > box.northEast.lat) {
    issues.push({
      path: 'boundingBox.southWest.lat',
      message: 'boundingBox.southWest.lat must not be greater than boundingBox.northEast.lat',
    });
  }
  return issues;
}

const check = (body: ListingQueryValues, scope?: 'own' | 'network') => {
  const issues = queryIssues(body, scope);
  if (issues.length) throw validationFailed(issues);
};

/**
 * Property search over the `listings` table (issue 16 item 3): `/properties/search`, count and
 * aggregations, and the `internal` and feed sources of `/property-sources/{source}/search`.
 * Listings are agency-wide: every key of the agency (admin or member) reads all its listings.
 * One unprepared statement per request (its text varies with the filters), bound parameters only.
 */
@Injectable()
export class ListingSearchQueries {
  constructor(
    private readonly em: EntityManager,
    private readonly config: AppConfig,
  ) {}

  /** `POST /properties/search`: own (default) or network. */
  async search(organizationId: string, body: ListingSearchValues): Promise<SearchAnswer> {
    const scope = body.scope ?? LISTING_SEARCH_DEFAULTS.scope;
    check(body, scope);
    const page = body.page ?? LISTING_SEARCH_DEFAULTS.page;
    const limit = body.limit ?? LISTING_SEARCH_DEFAULTS.limit;
    const found = await this.page({ organizationId, scope, source: 'internal' }, body, page, limit);
    return { ...found, page, limit, hasMore: page * limit < found.total };
  }

  /**
   * One page of `source`'s listings of the agency (`internal` own listings, or a connected feed's
   * imported rows), filtered and sorted as `body` says; `scope` is ignored here (own only).
   */
  sourcePage(
    organizationId: string,
    source: ListingSourceName,
    body: ListingSearchValues,
  ): Promise<SummaryPage> {
    check(body, 'own');
    return this.page(
      { organizationId, scope: 'own', source },
      body,
      body.page ?? LISTING_SEARCH_DEFAULTS.page,
      body.limit ?? LISTING_SEARCH_DEFAULTS.limit,
    );
  }

  /** `POST /properties/count`: what the search's `total` would be. */
  async countMatches(organizationId: string, body: ListingQueryValues): Promise<{ count: number }> {
    const scope = body.scope ?? LISTING_SEARCH_DEFAULTS.scope;
    check(body, scope);
    const [row] = await preparedRows<{ count: number }>(
      this.em,
      listingCountStatement({ organizationId, scope, source: 'internal' }, body),
      { prepare: false },
    );
    return { count: row.count };
  }

  /** `POST /properties/aggregations`: the requested aggregations over the query's listings, one statement. */
  async aggregations(organizationId: string, body: ListingAggregationValues): Promise<AggregationsAnswer> {
    const scope = body.scope ?? LISTING_SEARCH_DEFAULTS.scope;
    check(body, scope);
    const statement = listingAggregationsStatement(
      { organizationId, scope, source: 'internal' },
      body,
      body.aggregations,
    );
    const [row] = await preparedRows<Record<string, unknown>>(this.em, statement, { prepare: false });
    const answer: Record<string, unknown> = {};
    for (const name of body.aggregations) {
      const value = row[name];
      answer[name] = typeof value === 'string' ? JSON.parse(value) : value;
    }
    return answer as AggregationsAnswer;
  }

  private async page(
    scope: ListingScope,
    body: ListingSearchValues,
    page: number,
    limit: number,
  ): Promise<SummaryPage> {
    const statement = listingPageStatement(
      scope,
      body,
      body.sort ?? LISTING_SEARCH_DEFAULTS.sort,
      (page - 1) * limit,
      limit,
    );
    // the text varies with the filter set: pg's unnamed statement, planned with the values
    const rows = await preparedRows<SummaryRow & { total: string }>(this.em, statement, { prepare: false });
    const data = rows
      .filter((row) => row.id !== null)
      .map((row) => summaryOfRow(row, scope.organizationId, this.config.publicBaseUrl));
    return { data, total: Number(rows[0]?.total ?? 0) };
  }
}
