import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { LeadAccess } from '@app/crm';
import { MembersService } from '@app/identity';
import { ListingSources, type ListingRef, type ResolvedListing } from '@app/listings';
import {
  AppConfig,
  Clock,
  conflict,
  eventActorOf,
  forbidden,
  isAdmin,
  notFound,
  Outbox,
  preparedRows,
  Principal,
  validationFailed,
  type ValidationIssue,
} from '@app/platform';
import { BrochureListing, type HiddenField } from '../domain/brochure-listing.entity';
import { Brochure, BROCHURE_LIMITS, brochureSlug, type BrochureChange } from '../domain/brochure.entity';
import {
  toBrochureDetailJson,
  toBrochureJson,
  toBrochureLinkJson,
  toBrochureListingJson,
  type BrochureDetailView,
  type BrochureLinkView,
  type BrochureListingAnswerView,
  type BrochureOrderView,
  type BrochureRenewalView,
  type BrochureView,
} from '../views/brochure.view';
import { BrochureAccess } from './brochure-access';
import { brochureEvent, bumpBrochureVersion } from './brochure-events';

export interface CreateBrochureInput {
  listings: ListingRef[];
  title?: string;
  recipientName?: string | null;
  recipientNote?: string | null;
  expiresInDays?: number;
  showLocations?: boolean;
  themeName?: string;
  accentColorOverride?: string | null;
  agentUserId?: string;
  leadIds?: number[];
}

/** `source|id|country`: one listing, whatever the order or case of the reference. */
const sameKey = (source: string, id: string, country: string | null | undefined): string =>
  `${source}|${id.toLowerCase()}|${country ?? ''}`;

/** The portal country a resolved record carries (null for internal and feed listings). */
const countryOf = (record: Record<string, unknown>): string | null => {
  const ref = record.ref as { country?: unknown } | undefined;
  return typeof ref?.country === 'string' ? ref.country : null;
};

const REASONS: Record<string, string> = {
  not_found: 'is not a listing the agency can read',
  country_required: 'needs a country (es, it or pt) for this portal',
  unknown_source: 'names an unknown source',
};

const TOO_MANY = `A brochure holds at most ${BROCHURE_LIMITS.listings} listings.`;
const SAME_LISTING = 'This listing is already in the brochure.';

/**
 * The `/v1` writes of brochures (INTERFACES.md "Brochures and network"). Every upstream read goes
 * through `ListingSources.resolve`, which reserves the portal allowance BEFORE anything is written
 * (429 DAILY_LIMIT_REACHED and nothing changed); then one transaction per use-case, the brochure
 * locked while its listings move.
 */
@Injectable()
export class BrochuresService {
  constructor(
    private readonly em: EntityManager,
    private readonly access: BrochureAccess,
    private readonly sources: ListingSources,
    private readonly leads: LeadAccess,
    private readonly members: MembersService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly outbox: Outbox,
  ) {}

  async create(actor: Principal, input: CreateBrochureInput): Promise<BrochureView> {
    const keys = input.listings.map((ref) => sameKey(ref.source, ref.id, ref.country));
    if (new Set(keys).size !== keys.length) throw conflict('The same listing is in the body twice.');
    const agentUserId = await this.agentOf(actor, input.agentUserId);
    const leadIds = [...new Set(input.leadIds ?? [])];
    if (leadIds.length > 0) {
      const reached = await this.leads.reachableLeads(actor, leadIds);
      if (reached.length !== leadIds.length) throw notFound('Lead');
    }

    // every upstream read reserved and made before anything is written
    const records = this.readOrRefuse(await this.sources.resolve(actor, input.listings), 'listings');
    const stored = records.map((record, i) =>
      sameKey(input.listings[i].source, input.listings[i].id, countryOf(record)),
    );
    if (new Set(stored).size !== stored.length) throw conflict('The same listing is in the body twice.');

    return this.em.transactional(async (em) => {
      const now = this.clock.now();
      const title = input.title ?? (typeof records[0].title === 'string' ? records[0].title : 'Brochure');
      const brochure = new Brochure(
        {
          organizationId: actor.organizationId,
          slug: brochureSlug(title),
          title: title.slice(0, BROCHURE_LIMITS.title),
          agentUserId,
          creatorUserId: actor.userId,
          expiresInDays: input.expiresInDays ?? BROCHURE_LIMITS.defaultExpiresInDays,
        },
        now,
      );
      brochure.change(
        {
          recipientName: input.recipientName ?? null,
          recipientNote: input.recipientNote ?? null,
          themeName: input.themeName,
          accentColorOverride: input.accentColorOverride ?? null,
          showLocations: input.showLocations,
        },
        now,
      );
      brochure.leadIds = leadIds;
      const listings = records.map(
        (record, position) =>
          new BrochureListing(
            {
              brochureId: brochure.id,
              organizationId: actor.organizationId,
              position,
              source: input.listings[position].source,
              sourceId: input.listings[position].id,
              country: countryOf(record),
              snapshot: BrochureListing.snapshotOf(record),
            },
            now,
          ),
      );
      em.persist(brochure);
      em.persist(listings);
      await em.flush();
      return toBrochureJson(brochure, listings, now, this.config.publicBaseUrl);
    });
  }

  async change(actor: Principal, brochureId: string, change: BrochureChange): Promise<BrochureDetailView> {
    return this.em.transactional(async (em) => {
      const brochure = await this.access.reachable(actor, brochureId, true);
      const now = this.clock.now();
      brochure.change(change, now);
      await em.flush();
      const count = (await this.access.listingsOf(brochure)).length;
      return toBrochureDetailJson(brochure, count, now, this.config.publicBaseUrl);
    });
  }

  /** One listing at `position` (default the end); later ones shift down. */
  async addListing(
    actor: Principal,
    brochureId: string,
    ref: ListingRef,
    position: number | undefined,
  ): Promise<BrochureListingAnswerView> {
    // refusals that need no upstream read come first (nothing spent)
    const before = await this.access.reachable(actor, brochureId);
    this.checkRoom(await this.access.listingsOf(before), ref.source, ref.id, ref.country, position);

    const [record] = this.readOrRefuse(await this.sources.resolve(actor, [ref]), null);
    return this.em.transactional(async (em) => {
      const brochure = await this.access.reachable(actor, brochureId, true);
      const listings = await this.access.listingsOf(brochure);
      const country = countryOf(record);
      this.checkRoom(listings, ref.source, ref.id, country, position);
      const now = this.clock.now();
      const at = position ?? listings.length;
      for (const other of listings) if (other.position >= at) other.moveTo(other.position + 1);
      const listing = new BrochureListing(
        {
          brochureId: brochure.id,
          organizationId: brochure.organizationId,
          position: at,
          source: ref.source,
          sourceId: ref.id,
          country,
          snapshot: BrochureListing.snapshotOf(record),
        },
        now,
      );
      brochure.touch(now);
      em.persist(listing);
      await this.flushOrConflict(em);
      return { brochureId: brochure.id, listing: toBrochureListingJson(listing) };
    });
  }

  /** The title edit and the hidden fields; a refresh keeps them. */
  async editListing(
    actor: Principal,
    brochureId: string,
    listingId: string,
    edits: { title?: string | null; hiddenFields?: HiddenField[] },
  ): Promise<BrochureListingAnswerView> {
    return this.em.transactional(async (em) => {
      const brochure = await this.access.reachable(actor, brochureId, true);
      const listing = this.listingOf(await this.access.listingsOf(brochure), listingId);
      listing.edit(edits);
      brochure.touch(this.clock.now());
      await em.flush();
      return { brochureId: brochure.id, listing: toBrochureListingJson(listing) };
    });
  }

  /** The complete set of brochure-listing ids in their new order (else 400). */
  async order(actor: Principal, brochureId: string, listingIds: string[]): Promise<BrochureOrderView> {
    return this.em.transactional(async (em) => {
      const brochure = await this.access.reachable(actor, brochureId, true);
      const listings = await this.access.listingsOf(brochure);
      const byId = new Map(listings.map((listing) => [listing.id, listing]));
      const ids = listingIds.map((id) => id.toLowerCase());
      const issues: ValidationIssue[] = [];
      ids.forEach((id, i) => {
        if (!byId.has(id))
          issues.push({ path: `listingIds[${i}]`, message: 'is not a listing of this brochure' });
        else if (ids.indexOf(id) !== i) issues.push({ path: `listingIds[${i}]`, message: 'is listed twice' });
      });
      if (issues.length === 0 && new Set(ids).size !== listings.length)
        issues.push({
          path: 'listingIds',
          message: `must list every listing of the brochure (${listings.length}), each once`,
        });
      if (issues.length > 0) throw validationFailed(issues);
      ids.forEach((id, position) => byId.get(id)!.moveTo(position));
      brochure.touch(this.clock.now());
      await em.flush();
      return { brochureId: brochure.id, order: ids.map((listingId, position) => ({ listingId, position })) };
    });
  }

  /** A new copy of one listing (its edits kept); unreadable now → 409, the old copy kept. */
  async refreshListing(
    actor: Principal,
    brochureId: string,
    listingId: string,
  ): Promise<BrochureListingAnswerView> {
    const before = await this.access.reachable(actor, brochureId);
    const current = this.listingOf(await this.access.listingsOf(before), listingId);
    const [result] = await this.sources.resolve(actor, [refOf(current)]);
    if (!result.ok) throw conflict(`The listing can no longer be read (${result.reason}); its copy is kept.`);
    return this.em.transactional(async (em) => {
      const brochure = await this.access.reachable(actor, brochureId, true);
      const listing = this.listingOf(await this.access.listingsOf(brochure), listingId);
      const now = this.clock.now();
      listing.refresh(BrochureListing.snapshotOf(result.listing), now);
      brochure.touch(now);
      await em.flush();
      return { brochureId: brochure.id, listing: toBrochureListingJson(listing) };
    });
  }

  /** Removes one copy; the later ones move up (a brochure keeps at least one, else 409). */
  async removeListing(actor: Principal, brochureId: string, listingId: string): Promise<void> {
    await this.em.transactional(async (em) => {
      const brochure = await this.access.reachable(actor, brochureId, true);
      const listings = await this.access.listingsOf(brochure);
      const listing = this.listingOf(listings, listingId);
      if (listings.length === 1)
        throw conflict('A brochure keeps at least one listing; delete the brochure instead.');
      em.remove(listing);
      listings.filter((other) => other !== listing).forEach((other, position) => other.moveTo(position));
      brochure.touch(this.clock.now());
      await em.flush();
    });
  }

  async revoke(actor: Principal, brochureId: string): Promise<BrochureLinkView> {
    return this.em.transactional(async (em) => {
      const brochure = await this.access.reachable(actor, brochureId, true);
      const now = this.clock.now();
      const wasRevoked = brochure.status === 'revoked';
      const listings = wasRevoked ? [] : await this.access.listingsOf(brochure);
      const before = toBrochureJson(brochure, listings, now, this.config.publicBaseUrl);
      brochure.revoke(now);
      await em.flush();
      // a second revoke changes nothing: no event
      if (!wasRevoked) {
        const [{ version }] = await preparedRows<{ version: number }>(em, bumpBrochureVersion(brochure.id));
        this.outbox.record(
          em,
          brochureEvent({
            brochure,
            type: 'brochure.revoked',
            object: toBrochureJson(brochure, listings, now, this.config.publicBaseUrl),
            before,
            version,
            actor: eventActorOf(actor),
            now,
          }),
        );
      }
      return toBrochureLinkJson(brochure, now, this.config.publicBaseUrl);
    });
  }

  /**
   * From any status: `active`, the same slug, a new expiry; with `refreshListings` every listing
   * read again first (all reserved at once: allowance short → 429, nothing changed), failures kept
   * in their old copy and listed.
   */
  async renew(
    actor: Principal,
    brochureId: string,
    input: { expiresInDays?: number; refreshListings?: boolean },
  ): Promise<BrochureRenewalView> {
    let refreshed: Map<string, ResolvedListing> = new Map();
    if (input.refreshListings) {
      const before = await this.access.reachable(actor, brochureId);
      const current = await this.access.listingsOf(before);
      const results = await this.sources.resolve(actor, current.map(refOf));
      refreshed = new Map(current.map((listing, i) => [listing.id, results[i]]));
    }
    return this.em.transactional(async (em) => {
      const brochure = await this.access.reachable(actor, brochureId, true);
      const now = this.clock.now();
      const failedRefreshes: { listingId: string; reason: string }[] = [];
      if (input.refreshListings) {
        for (const listing of await this.access.listingsOf(brochure)) {
          const result = refreshed.get(listing.id);
          if (!result) continue; // added after the reads: its copy is fresh
          if (result.ok) listing.refresh(BrochureListing.snapshotOf(result.listing), now);
          else failedRefreshes.push({ listingId: listing.id, reason: result.reason });
        }
      }
      brochure.renew(input.expiresInDays ?? BROCHURE_LIMITS.defaultExpiresInDays, now);
      await em.flush();
      return { ...toBrochureLinkJson(brochure, now, this.config.publicBaseUrl), failedRefreshes };
    });
  }

  /** Permanently, with its listing copies. */
  async delete(actor: Principal, brochureId: string): Promise<void> {
    await this.em.transactional(async (em) => {
      const brochure = await this.access.reachable(actor, brochureId, true);
      em.remove(brochure);
      await em.flush();
    });
  }

  /** The key's person by default; another person only for an admin, and only a member of the agency. */
  private async agentOf(actor: Principal, agentUserId: string | undefined): Promise<string> {
    if (agentUserId === undefined || agentUserId.toLowerCase() === actor.userId) return actor.userId;
    if (!isAdmin(actor)) throw forbidden('Only an organization admin can name another agent.');
    const known = await this.members.existingMemberIds(actor.organizationId, [agentUserId.toLowerCase()]);
    if (!known.has(agentUserId.toLowerCase()))
      throw validationFailed([{ path: 'agentUserId', message: 'is not a member of this organization' }]);
    return agentUserId.toLowerCase();
  }

  /** The records, or 400 VALIDATION_FAILED naming each reference that could not be read. */
  private readOrRefuse(results: ResolvedListing[], path: string | null): Record<string, unknown>[] {
    const issues = results.flatMap((result, i) =>
      result.ok ? [] : [{ path: path === null ? 'id' : `${path}[${i}]`, message: REASONS[result.reason] }],
    );
    if (issues.length > 0) throw validationFailed(issues);
    return results.map((result) => (result as Extract<ResolvedListing, { ok: true }>).listing);
  }

  /** 409 for a 26th listing or the same one twice; 400 for a position past the end. */
  private checkRoom(
    listings: BrochureListing[],
    source: string,
    id: string,
    country: string | null | undefined,
    position: number | undefined,
  ): void {
    const key = sameKey(source, id, country);
    if (listings.some((listing) => sameKey(listing.source, listing.sourceId, listing.country) === key))
      throw conflict(SAME_LISTING);
    if (listings.length >= BROCHURE_LIMITS.listings) throw conflict(TOO_MANY);
    if (position !== undefined && position > listings.length)
      throw validationFailed([
        { path: 'position', message: `must be between 0 and ${listings.length} (the end)` },
      ]);
  }

  private listingOf(listings: BrochureListing[], listingId: string): BrochureListing {
    const listing = listings.find((candidate) => candidate.id === listingId);
    if (!listing) throw notFound('Brochure listing');
    return listing;
  }

  private async flushOrConflict(em: EntityManager): Promise<void> {
    try {
      await em.flush();
    } catch (err) {
      if (err instanceof UniqueConstraintViolationException) throw conflict(SAME_LISTING);
      throw err;
    }
  }
}

/** The reference a stored copy was read by. */
const refOf = (listing: BrochureListing): ListingRef => ({
  source: listing.source,
  id: listing.sourceId,
  ...(listing.country ? { country: listing.country } : {}),
});
