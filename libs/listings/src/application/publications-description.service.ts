import { LockMode } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { Clock, notFound, type Principal } from '@app/platform';
import {
  DESCRIPTION_LIMITS,
  describeListing,
  type DescriptionLanguage,
  type DescriptionTone,
} from '../domain/description-templates';
import { ListingHistory } from '../domain/listing-history.entity';
import { ListingRepository } from '../domain/listing.repository';
import type { DescriptionJson } from '../views/description.view';

export interface DescriptionRequest {
  language: DescriptionLanguage;
  tone?: DescriptionTone;
  maxLength?: number;
  apply?: boolean;
}

/** The `source` of a history row written through `/properties` (spec "History records"). */
const historySource = (actor: Principal): string =>
  actor.kind === 'apiKey' ? `apikey:${actor.keyId}` : `session:${actor.sessionId}`;

/**
 * `POST /properties/{id}/description` (INTERFACES.md "Listings"): a description of one of the
 * agency's live listings from the fixed templates (`describeListing`); with `apply` it becomes the
 * listing's `description` in one transaction with its history row and `version` + 1 (an identical
 * text changes nothing).
 */
@Injectable()
export class ListingDescriptionService {
  constructor(
    private readonly em: EntityManager,
    private readonly listings: ListingRepository,
    private readonly clock: Clock,
  ) {}

  async generate(actor: Principal, listingId: string, request: DescriptionRequest): Promise<DescriptionJson> {
    const options = {
      language: request.language,
      tone: request.tone ?? 'neutral',
      maxLength: request.maxLength ?? DESCRIPTION_LIMITS.default,
    };
    const answer = (description: string): DescriptionJson => ({
      description,
      language: options.language,
      generatedBy: 'template',
    });
    if (!request.apply) {
      const listing = await this.listings.findOwn(actor.organizationId, listingId);
      if (!listing) throw notFound('Listing');
      return answer(describeListing(listing, options));
    }
    return this.em.transactional(async (em) => {
      const listing = await this.listings.findInOrg(
        actor.organizationId,
        { id: listingId, source: 'internal', deletedAt: null },
        { lockMode: LockMode.PESSIMISTIC_WRITE },
      );
      if (!listing) throw notFound('Listing');
      const description = describeListing(listing, options);
      if (listing.description !== description) {
        const now = this.clock.now();
        listing.description = description;
        listing.version += 1;
        listing.updatedAt = now;
        em.persist(
          new ListingHistory(
            {
              organizationId: listing.organizationId,
              listingId: listing.id,
              source: historySource(actor),
              changedBy: actor.userId,
              changedFields: ['description'],
            },
            now,
          ),
        );
        await em.flush();
      }
      return answer(description);
    });
  }
}
