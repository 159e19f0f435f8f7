import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { Clock, DependencyUnavailableError, DomainError, notFound, validationFailed } from '@app/platform';
import type { PortalCountry } from '../domain/listing-catalogue';
import { PortalAllowanceExhausted, type AllowanceState } from '../domain/portal-allowance';
import { FEED_SOURCES, isFeedSource, type FeedSource } from '../domain/property-sources';
import { LISTING_SEARCH_DEFAULTS, type ListingSearchValues } from './listing-search.sql';
import type { ListingSummary } from '../views/listing-summary';
import type { PropertySource, SourceSearchPage } from '../views/property-source.view';
import { ListingSearchQueries } from './listing-search.queries';
import { ListingSources } from './listing-sources';
import type { PortalAdapter, PortalSearchRequest, PortalSearchResult } from './portal-adapter';
import { PortalAllowance } from './portal-allowance';
import { PortalCache, portalCacheKey } from './portal-cache';
import { PortalRegistry } from './portals/portal-registry';

/** A `/property-sources/{source}/search` body: the property search's, plus a portal's `country`. */
export interface SourceSearchBody extends ListingSearchValues {
  country?: PortalCountry;
}

/** The search filters whose values are sets: sorted and deduplicated in the cache key. */
const SET_FILTERS = ['propertyTypes', 'statuses', 'features', 'energyRatings', 'conditions'] as const;
/** Compared case-insensitively: lower-cased in the cache key. */
const FOLDED_FILTERS = ['city', 'community', 'q'] as const;

const sourceNotFound = () => new DomainError('NOT_FOUND', 'Property source not found.');
const countryRequired = (portal: PortalAdapter) =>
  validationFailed([
    {
      path: 'country',
      message: `country is required for ${portal.name}: one of ${portal.countries.join(', ')}`,
    },
  ]);

/**
 * A portal search as the adapter receives it and the cache keys it: defaults filled, `scope`
 * dropped, set-valued filters sorted, case-insensitive ones lower-cased, empty ones left out.
 */
export const normalisedPortalSearch = (
  country: PortalCountry,
  body: SourceSearchBody,
): PortalSearchRequest => {
  const filters: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body.filters ?? {})) {
    if (value === undefined || value === null) continue;
    if ((SET_FILTERS as readonly string[]).includes(name))
      filters[name] = [...new Set(value as string[])].sort();
    else if ((FOLDED_FILTERS as readonly string[]).includes(name))
      filters[name] = (value as string).trim().toLowerCase();
    else filters[name] = value;
  }
  const box = body.boundingBox;
  return {
    country,
    filters,
    boundingBox: box
      ? {
          northEast: { lat: box.northEast.lat, lon: box.northEast.lon },
          southWest: { lat: box.southWest.lat, lon: box.southWest.lon },
        }
      : null,
    sort: body.sort ?? LISTING_SEARCH_DEFAULTS.sort,
    page: body.page ?? LISTING_SEARCH_DEFAULTS.page,
    limit: body.limit ?? LISTING_SEARCH_DEFAULTS.limit,
  };
};

/**
 * `/property-sources` (issue 16 item 5): the agency's sources, a search of one, a listing of one.
 * `internal` and connected feeds are read from `listings` and never count; a portal search is
 * served from the shared cache (15 minutes) or costs one upstream call of the daily allowance,
 * reserved first. A feed the agency has not connected is 404 like an unknown source (nothing of
 * it is readable). The allowance used up is 400 PROPERTY_PORTAL_QUOTA_EXHAUSTED on these routes.
 */
@Injectable()
export class PropertySourcesService {
  constructor(
    private readonly em: EntityManager,
    private readonly portals: PortalRegistry,
    private readonly searches: ListingSearchQueries,
    private readonly sources: ListingSources,
    private readonly allowance: PortalAllowance,
    private readonly cache: PortalCache,
    private readonly clock: Clock,
  ) {}

  async list(organizationId: string): Promise<{ data: PropertySource[] }> {
    const connected = await this.connectedFeeds(organizationId);
    return {
      data: [
        { source: 'internal', kind: 'internal', connected: true, countries: [], simulated: false },
        ...FEED_SOURCES.map((source) => ({
          source,
          kind: 'feed' as const,
          connected: connected.has(source),
          countries: [],
          simulated: false,
        })),
        ...this.portals.all().map((portal) => ({
          source: portal.name,
          kind: 'portal' as const,
          connected: true,
          countries: [...portal.countries],
          simulated: portal.simulated,
        })),
      ],
    };
  }

  async search(organizationId: string, source: string, body: SourceSearchBody): Promise<SourceSearchPage> {
    const now = this.clock.now();
    const portal = this.portals.get(source);
    const page = body.page ?? LISTING_SEARCH_DEFAULTS.page;
    const limit = body.limit ?? LISTING_SEARCH_DEFAULTS.limit;
    let result: PortalSearchResult;
    let cached = false;
    let allowance: AllowanceState;
    if (portal) {
      const country = portal.countries.find((c) => c === body.country);
      if (!country) throw countryRequired(portal);
      const request = normalisedPortalSearch(country, body);
      const key = portalCacheKey('search', portal.name, country, request);
      const hit = await this.cache.get<PortalSearchResult>(key, now);
      if (hit) {
        [result, cached, allowance] = [hit, true, await this.allowance.current(organizationId, now)];
      } else {
        allowance = await this.reserveOne(organizationId, now);
        result = await this.upstreamSearch(portal, request);
        await this.cache.put(key, 'search', result, now);
      }
    } else {
      await this.requireReadable(organizationId, source);
      result = await this.searches.sourcePage(organizationId, source as 'internal' | FeedSource, body);
      allowance = await this.allowance.current(organizationId, now);
    }
    return {
      data: result.data,
      page,
      limit,
      total: result.total,
      hasMore: page * limit < result.total,
      cached,
      simulated: portal?.simulated ?? false,
      allowance,
    };
  }

  async read(
    organizationId: string,
    source: string,
    id: string,
    country: PortalCountry | undefined,
  ): Promise<Record<string, unknown>> {
    const portal = this.portals.get(source);
    if (portal && !portal.countries.some((c) => c === country)) throw countryRequired(portal);
    if (!portal) await this.requireReadable(organizationId, source);
    let resolved;
    try {
      [resolved] = await this.sources.resolve(organizationId, [
        portal ? { source, id, country } : { source, id },
      ]);
    } catch (error) {
      throw asQuotaExhausted(error);
    }
    if (!resolved.ok) throw notFound('Listing');
    return resolved.listing;
  }

  /** `internal`, or a feed the agency connected; else 404. */
  private async requireReadable(organizationId: string, source: string): Promise<void> {
    if (source === 'internal') return;
    if (!isFeedSource(source) || !(await this.connectedFeeds(organizationId)).has(source))
      throw sourceNotFound();
  }

  private async connectedFeeds(organizationId: string): Promise<Set<string>> {
    const rows = await this.em.execute<{ source: string }[]>(
      'select source from property_feeds where organization_id = ?',
      [organizationId],
    );
    return new Set(rows.map((row) => row.source));
  }

  private async reserveOne(organizationId: string, now: Date): Promise<AllowanceState> {
    try {
      return await this.allowance.reserve(organizationId, 1, now);
    } catch (error) {
      throw asQuotaExhausted(error);
    }
  }

  private async upstreamSearch(portal: PortalAdapter, request: PortalSearchRequest) {
    try {
      const result = await portal.search(request);
      return {
        total: result.total,
        data: result.data.map((row): ListingSummary => ({
          ...row,
          ref: { ...row.ref, source: portal.name, country: request.country },
        })),
      };
    } catch {
      throw new DependencyUnavailableError(`portal ${portal.name} did not answer`);
    }
  }
}

/** The allowance refusal as the `/property-sources` routes answer it: 400, not 429. */
const asQuotaExhausted = (error: unknown): unknown =>
  error instanceof PortalAllowanceExhausted
    ? new DomainError('PROPERTY_PORTAL_QUOTA_EXHAUSTED', error.message, error.details)
    : error;
