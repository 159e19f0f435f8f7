import { LockMode } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import {
  Clock,
  conflict,
  notFound,
  validationFailed,
  type Principal,
  type ValidationIssue,
} from '@app/platform';
import type { Listing } from '../domain/listing.entity';
import { ListingRepository } from '../domain/listing.repository';
import {
  toPublicationJson,
  type PublicationJson,
  type PublicationRow,
  type PublicationStatus,
} from '../views/publication.view';
import { PortalRegistry } from './portals/portal-registry';

/** What a caller asks of one portal. */
export interface PortalWish {
  portal: string;
  enabled: boolean;
}

interface StoredPublication extends PublicationRow {
  enabled: boolean;
}

/** An enabled row in one of these is already as a publish asks: left alone. */
const ON_OR_GOING_ON: ReadonlySet<PublicationStatus> = new Set(['pending', 'published', 'simulated']);

/**
 * Portal publications of a listing (INTERFACES.md "Listings", `/properties/{id}/publications`):
 * which portals an agency's own listing should be on. The request only records the wish (row
 * `pending`, due now); `PublicationSender` talks to the portals outside any transaction. A listing
 * that stops being ACTIVE has its publications undone (`listingLeftActive`, called by the listing
 * writes and the expiry inside their transaction).
 */
@Injectable()
export class PublicationsService {
  constructor(
    private readonly em: EntityManager,
    private readonly listings: ListingRepository,
    private readonly portals: PortalRegistry,
    private readonly clock: Clock,
  ) {}

  /** Every portal row of one of the agency's live listings, by portal. */
  async list(actor: Principal, listingId: string): Promise<{ data: PublicationJson[] }> {
    const listing = await this.listings.findOwn(actor.organizationId, listingId);
    if (!listing) throw notFound('Listing');
    return { data: await this.rows(actor.organizationId, listingId) };
  }

  /**
   * Portals on or off, in one transaction. On: the listing must be ACTIVE (else CONFLICT); the row
   * becomes `pending` (a publish) due now. Off: a row never published is `unpublished` at once; a
   * published or simulated one (one with an id on the portal) becomes a `pending` unpublish due now. A
   * portal already in the asked state is left as it is.
   */
  async replace(
    actor: Principal,
    listingId: string,
    wishes: PortalWish[],
  ): Promise<{ data: PublicationJson[] }> {
    this.check(wishes);
    return this.em.transactional(async (em) => {
      const listing = await this.listings.findInOrg(
        actor.organizationId,
        { id: listingId, source: 'internal', deletedAt: null },
        // one writer per listing: a withdraw cannot slip between the status check and the rows
        { lockMode: LockMode.PESSIMISTIC_WRITE },
      );
      if (!listing) throw notFound('Listing');
      if (wishes.some((wish) => wish.enabled) && listing.status !== 'ACTIVE') {
        throw conflict('Only an ACTIVE listing can be published on a portal.');
      }
      const now = this.clock.now();
      const stored = new Map(
        (
          await em.execute<(StoredPublication & { portal: string })[]>(
            `select portal, enabled, status, external_id, published_at, last_error
               from listing_publications where listing_id = ? and organization_id = ? for update`,
            [listingId, actor.organizationId],
          )
        ).map((row) => [row.portal, row]),
      );
      for (const wish of wishes) {
        const row = stored.get(wish.portal);
        if (wish.enabled) {
          if (row?.enabled && ON_OR_GOING_ON.has(row.status)) continue;
          await em.execute(
            `insert into listing_publications
               (listing_id, portal, organization_id, enabled, status, attempts, last_error, next_attempt_at, updated_at)
             values (?, ?, ?, true, 'pending', 0, null, ?, ?)
             on conflict (listing_id, portal) do update
               set enabled = true, status = 'pending', attempts = 0, last_error = null,
                   next_attempt_at = excluded.next_attempt_at, updated_at = excluded.updated_at`,
            [listingId, wish.portal, actor.organizationId, now, now],
          );
        } else if (row && (row.enabled || row.status !== 'unpublished')) {
          await this.takeDown(em, actor.organizationId, listingId, now, wish.portal);
        }
      }
      return { data: await this.rows(actor.organizationId, listingId, em) };
    });
  }

  /**
   * The listing stopped being ACTIVE (withdrawn, sold, rented, expired, deleted): every portal
   * comes off. Runs in the caller's transaction (the injected EntityManager joins it).
   */
  async listingLeftActive(listing: Listing, now: Date): Promise<void> {
    await this.takeDown(this.em, listing.organizationId, listing.id, now);
  }

  /**
   * Off the portals (all of the listing's, or one): rows with nothing on the portal end
   * `unpublished` at once; rows with an id there become a `pending` unpublish due now.
   */
  private async takeDown(
    em: EntityManager,
    organizationId: string,
    listingId: string,
    now: Date,
    portal?: string,
  ): Promise<void> {
    const onePortal = portal === undefined ? '' : ' and portal = ?';
    const params = portal === undefined ? [] : [portal];
    await em.execute(
      `update listing_publications
          set enabled = false, attempts = 0, last_error = null, updated_at = ?,
              status = case when external_id is null then 'unpublished' else 'pending' end,
              next_attempt_at = case when external_id is null then null else ?::timestamptz end,
              published_at = case when external_id is null then null else published_at end
        where listing_id = ? and organization_id = ?${onePortal}
          and (enabled or status <> 'unpublished')`,
      [now, now, listingId, organizationId, ...params],
    );
  }

  private check(wishes: PortalWish[]): void {
    const issues: ValidationIssue[] = [];
    const seen = new Set<string>();
    wishes.forEach((wish, i) => {
      if (!this.portals.get(wish.portal)) {
        issues.push({
          path: `portals.${i}.portal`,
          message: `portal must be one of ${this.portals.names.join(', ')}`,
        });
      } else if (seen.has(wish.portal)) {
        issues.push({ path: `portals.${i}.portal`, message: 'portal must appear only once' });
      }
      seen.add(wish.portal);
    });
    if (issues.length > 0) throw validationFailed(issues);
  }

  private async rows(
    organizationId: string,
    listingId: string,
    em: EntityManager = this.em,
  ): Promise<PublicationJson[]> {
    const rows = await em.execute<PublicationRow[]>(
      `select portal, status, external_id, published_at, last_error
         from listing_publications where listing_id = ? and organization_id = ? order by portal`,
      [listingId, organizationId],
    );
    return rows.map(toPublicationJson);
  }
}
