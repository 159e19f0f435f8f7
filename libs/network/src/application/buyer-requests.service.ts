import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { v7 as uuidv7 } from 'uuid';
import { LeadAccess } from '@app/crm';
import { ListingCards, PROPERTY_TYPE_LABELS, type ListingOperation, type PropertyType } from '@app/listings';
import {
  cappedResult,
  Clock,
  DAY,
  forbidden,
  isAdmin,
  ListResult,
  notFound,
  preparedRows,
  Principal,
} from '@app/platform';
import {
  BUYER_REQUEST_CLOSER,
  BUYER_REQUEST_LIMITS,
  buyerRequestStatus,
  buyerRequestSummary,
} from '../domain/buyer-request';
import type { BuyerRequestJson } from '../views/buyer-request.view';
import {
  buyerRequestOfOrganizationStatement,
  BuyerRequestRow,
  closeBuyerRequestStatement,
  fittingBuyerRequestsStatement,
  insertBuyerRequestStatement,
  ownBuyerRequestsStatement,
} from './buyer-requests.sql';

export interface CreateBuyerRequest {
  leadId?: number;
  operation: ListingOperation;
  propertyTypes: PropertyType[];
  countryCode: string;
  areas: string[];
  priceMax: number;
  currency: string;
  bedroomsMin?: number;
  notes?: string;
}

/**
 * Buyer requests (INTERFACES.md "Brochures and network"): posted from the dashboard (a lead only
 * when the caller reaches it, through `LeadAccess`), closed by their creator or an admin, read on
 * `/v1` as the caller's own or as other agencies' open requests that fit a network listing. The
 * answer is `{id, summary, status, createdAt}`: notes and the lead are stored, never shown.
 */
@Injectable()
export class BuyerRequestsService {
  constructor(
    private readonly em: EntityManager,
    private readonly leads: LeadAccess,
    private readonly cards: ListingCards,
    private readonly clock: Clock,
  ) {}

  async create(actor: Principal, input: CreateBuyerRequest): Promise<BuyerRequestJson> {
    const row = await this.em.transactional(async (em) => {
      if (input.leadId !== undefined) await this.leads.reachableLead(actor, input.leadId);
      const now = this.clock.now();
      const [created] = await preparedRows<BuyerRequestRow>(
        em,
        insertBuyerRequestStatement({
          id: uuidv7(),
          organizationId: actor.organizationId,
          createdBy: actor.userId,
          leadId: input.leadId ?? null,
          operation: input.operation,
          propertyTypes: [...new Set(input.propertyTypes)],
          countryCode: input.countryCode.toUpperCase(),
          areas: input.areas.map((area) => area.trim()),
          priceMax: input.priceMax,
          currency: input.currency.toUpperCase(),
          bedroomsMin: input.bedroomsMin ?? null,
          notes: input.notes ?? null,
          expiresAt: new Date(now.getTime() + BUYER_REQUEST_LIMITS.lifetimeDays * DAY),
          now,
        }),
      );
      return created;
    });
    return this.json(row);
  }

  /** Its creator or an admin of its agency; another agency's → 404. Closing twice is a no-op. */
  async close(actor: Principal, id: string): Promise<BuyerRequestJson> {
    const row = await this.em.transactional(async (em) => {
      const [found] = await preparedRows<BuyerRequestRow>(
        em,
        buyerRequestOfOrganizationStatement(actor.organizationId, id),
      );
      if (!found) throw notFound('Buyer request');
      if (found.created_by !== actor.userId && !isAdmin(actor)) throw forbidden(BUYER_REQUEST_CLOSER);
      if (found.status === 'closed') return found;
      const [closed] = await preparedRows<BuyerRequestRow>(
        em,
        closeBuyerRequestStatement(id, this.clock.now()),
      );
      return closed;
    });
    return this.json(row);
  }

  /**
   * Without `listingId`: the caller's own requests, every status. With it: other agencies' open
   * requests fitting that listing, an ACTIVE listing the caller can read: one of its own (the
   * seller's question) or another agency's on the network (else 404 `Listing not found.`). 25
   * newest. See docs/decisions/0018-buyer-requests-for-own-listings.md.
   */
  async list(actor: Principal, listingId?: string): Promise<ListResult<BuyerRequestJson>> {
    const limit = BUYER_REQUEST_LIMITS.list + 1;
    if (listingId === undefined) {
      const rows = await preparedRows<BuyerRequestRow>(
        this.em,
        ownBuyerRequestsStatement(actor.organizationId, actor.userId, limit),
      );
      return cappedResult(
        rows.map((row) => this.json(row)),
        BUYER_REQUEST_LIMITS.list,
      );
    }
    const card = (await this.cards.readable(actor.organizationId, [listingId])).get(listingId);
    if (!card || card.status !== 'ACTIVE') throw notFound('Listing');
    const rows = await preparedRows<BuyerRequestRow>(
      this.em,
      fittingBuyerRequestsStatement(
        {
          organizationId: actor.organizationId,
          operation: card.operation,
          propertyType: card.propertyType,
          countryCode: card.countryCode,
          city: card.city,
          community: card.community,
          price: card.price,
          currency: card.currency,
          bedrooms: card.bedrooms,
        },
        this.clock.now(),
        limit,
      ),
    );
    return cappedResult(
      rows.map((row) => this.json(row)),
      BUYER_REQUEST_LIMITS.list,
    );
  }

  private json(row: BuyerRequestRow): BuyerRequestJson {
    return {
      id: row.id,
      summary: buyerRequestSummary({
        operation: row.operation,
        propertyTypeLabels: row.property_types.map(
          (type) => PROPERTY_TYPE_LABELS[type as PropertyType] ?? type,
        ),
        areas: row.areas,
        priceMax: row.price_max,
        currency: row.currency,
        bedroomsMin: row.bedrooms_min,
      }),
      status: buyerRequestStatus(
        { status: row.status, expiresAt: new Date(row.expires_at) },
        this.clock.now(),
      ),
      createdAt: new Date(row.created_at).toISOString(),
    };
  }
}
