import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { LeadAccess } from '@app/crm';
import { ListingSources, type ListingRef, type ListingSourceFailure } from '@app/listings';
import { notFound, preparedRows, Principal, validationFailed, type ValidationIssue } from '@app/platform';
import { listingFacts, listingQuery, type ListingFacts } from '../domain/listing-query';
import { occurredWindow } from '../domain/occurred-window';
import { planQuery } from '../domain/search-query';
import type { ListingMatchesAnswerJson } from '../views/search.view';
import {
  boostOf,
  leadBoostStatement,
  type LeadBoostRow,
  type ListingBoostFacts,
} from './listing-matches.sql';
import { DEFAULT_MAX_RESULTS, SearchService } from './search.service';

/** `POST /v1/listing-matches` as the service takes it (the DTO checked types and lengths). */
export interface ListingMatchesRequest {
  propertyListingId?: string;
  source?: string;
  listingId?: string;
  country?: string;
  maxResults?: number;
  occurredFrom?: string;
  occurredTo?: string;
}

/** `listingQuery` is English (INTERFACES.md "Search"): searched under `app_english` too. */
const EXTRA_CONFIGS = ['app_english'];

const ONE_FORM = 'Send exactly one of propertyListingId, or source with listingId.';
const REFUSALS: Record<Exclude<ListingSourceFailure, 'not_found'>, ValidationIssue> = {
  country_required: { path: 'country', message: 'needs a country (es, it or pt) for this portal' },
  unknown_source: { path: 'source', message: 'names an unknown source' },
};

/**
 * Issue 18 item 4: the leads whose CRM history matches a listing. The listing is read through
 * `ListingSources` (own, network, feed or portal; a portal read reserves the daily allowance
 * first: 429 DAILY_LIMIT_REACHED), said as English words (`listingQuery`) and searched with
 * search's pipeline, plus boosts for leads whose inquiries named the listing or its city and for
 * a lead type that fits the operation.
 */
@Injectable()
export class ListingMatchesService {
  constructor(
    private readonly em: EntityManager,
    private readonly sources: ListingSources,
    private readonly search: SearchService,
    private readonly access: LeadAccess,
  ) {}

  async match(actor: Principal, request: ListingMatchesRequest): Promise<ListingMatchesAnswerJson> {
    const started = performance.now();
    const ref = refOf(request);
    // every check before the read: a refused request spends no portal call
    const window = occurredWindow(request.occurredFrom, request.occurredTo);
    const [resolved] = await this.sources.resolve(actor, [ref]);
    if (!resolved.ok) {
      // a listing that is absent or out of reach is 404 whichever form named it
      if (resolved.reason === 'not_found') throw notFound('Listing');
      throw validationFailed([REFUSALS[resolved.reason]]);
    }
    const facts = listingFacts(resolved.listing);
    const query = listingQuery(facts);
    const boosts = boostFacts(ref, resolved.listing, facts);
    const answer = await this.search.run(
      actor,
      planQuery(query),
      window,
      request.maxResults ?? DEFAULT_MAX_RESULTS,
      started,
      { extraConfigs: EXTRA_CONFIGS, leadBoosts: (leadIds) => this.boosts(actor, leadIds, boosts) },
    );
    return { listingQuery: query, ...answer };
  }

  private async boosts(
    actor: Principal,
    leadIds: number[],
    listing: ListingBoostFacts,
  ): Promise<Map<number, number>> {
    if (leadIds.length === 0) return new Map();
    const rows = await preparedRows<LeadBoostRow>(
      this.em,
      leadBoostStatement(actor.organizationId, this.access.sql(actor, 'l'), leadIds, listing),
    );
    return new Map(rows.map((row) => [Number(row.lead_id), boostOf(row)]));
  }
}

/** The one reference the body names; both forms, neither, or half of one → 400. */
function refOf(request: ListingMatchesRequest): ListingRef {
  const byId = request.propertyListingId !== undefined;
  const bySource = request.source !== undefined || request.listingId !== undefined;
  if (byId === bySource)
    throw validationFailed([
      { path: 'propertyListingId', message: ONE_FORM },
      { path: 'source', message: ONE_FORM },
      { path: 'listingId', message: ONE_FORM },
    ]);
  if (byId) {
    if (request.country !== undefined)
      throw validationFailed([{ path: 'country', message: 'country goes with source and listingId only' }]);
    return { source: 'internal', id: request.propertyListingId! };
  }
  if (request.source === undefined)
    throw validationFailed([{ path: 'source', message: 'source is required with listingId' }]);
  if (request.listingId === undefined)
    throw validationFailed([{ path: 'listingId', message: 'listingId is required with source' }]);
  return { source: request.source, id: request.listingId, country: request.country };
}

/** The ids and facts the boosts compare (the reference as sent and as the source answered it). */
function boostFacts(
  ref: ListingRef,
  listing: Record<string, unknown>,
  facts: ListingFacts,
): ListingBoostFacts {
  const answered = (listing.ref ?? {}) as { source?: unknown; id?: unknown; country?: unknown };
  const ids = [ref.id, answered.id, listing.id].filter((id): id is string => typeof id === 'string');
  return {
    source: typeof answered.source === 'string' ? answered.source : ref.source,
    ids: [...new Set(ids.map((id) => id.toLowerCase()))],
    // only a portal's record carries a country
    country: typeof answered.country === 'string' ? answered.country : null,
    city: facts.city,
    leadType: facts.operation === 'sale' ? 'buyer' : facts.operation === 'rent' ? 'tenant' : null,
  };
}
