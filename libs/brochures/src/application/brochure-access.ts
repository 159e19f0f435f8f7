import { LockMode } from '@mikro-orm/core';
import { Injectable } from '@nestjs/common';
import { isAdmin, notFound, Principal } from '@app/platform';
import type { BrochureListing } from '../domain/brochure-listing.entity';
import { BrochureListingRepository } from '../domain/brochure-listing.repository';
import type { Brochure } from '../domain/brochure.entity';
import { BrochureRepository } from '../domain/brochure.repository';

/** Whether the caller may see and change `brochure`: its creator, or an admin of its agency. */
export const reachesBrochure = (actor: Principal, brochure: Brochure): boolean =>
  brochure.organizationId === actor.organizationId &&
  (isAdmin(actor) || brochure.creatorUserId === actor.userId);

/**
 * Loads brochures the caller reaches (spec: a member their own, an admin all); anything else is
 * 404 `Brochure not found.`, as if it did not exist.
 */
@Injectable()
export class BrochureAccess {
  constructor(
    private readonly brochures: BrochureRepository,
    private readonly listings: BrochureListingRepository,
  ) {}

  /** The brochure, locked for the transaction when `lock` (writes that change its listings). */
  async reachable(actor: Principal, brochureId: string, lock = false): Promise<Brochure> {
    const brochure = await this.brochures.findInOrg(
      actor.organizationId,
      { id: brochureId },
      lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {},
    );
    if (!brochure || !reachesBrochure(actor, brochure)) throw notFound('Brochure');
    return brochure;
  }

  /** Its listing copies in position order. */
  listingsOf(brochure: Brochure): Promise<BrochureListing[]> {
    return this.listings.listInOrg(
      brochure.organizationId,
      { brochureId: brochure.id },
      { orderBy: { position: 'asc', createdAt: 'asc' } },
    );
  }
}
