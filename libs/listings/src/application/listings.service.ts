import { EntityManager, UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { AgentRoster } from '@app/identity';
import { Clock, conflict, notFound, validationFailed, type Principal } from '@app/platform';
import { LEGACY_FEATURE_FLAGS, type LegacyFeatureFlag } from '../domain/listing-catalogue';
import {
  decimalText,
  resolveFeatures,
  type ListingChanges,
  type ListingPayload,
} from '../domain/listing-changes';
import { ListingHistory } from '../domain/listing-history.entity';
import { Listing, type ListingImage } from '../domain/listing.entity';
import { ListingRepository } from '../domain/listing.repository';
import type { ListingRecordView } from '../views/listing.view';
import { ListingsQueries } from './listings.queries';
import { PublicationsService } from './publications.service';

export type { ListingPayload } from '../domain/listing-changes';

const LEGACY_FLAGS = Object.keys(LEGACY_FEATURE_FLAGS) as LegacyFeatureFlag[];

/** The history `source` of a write: `apikey:<keyId>` through `/properties`. */
export const historySourceOf = (actor: Principal): string =>
  actor.kind === 'apiKey' ? `apikey:${actor.keyId}` : `user:${actor.userId}`;

/** The payload fields a write sent (the `has*` flags count as `features`). */
const sentFields = (payload: Partial<ListingPayload>): string[] => {
  const fields = Object.entries(payload)
    .filter(([field, value]) => value !== undefined && !LEGACY_FLAGS.includes(field as LegacyFeatureFlag))
    .map(([field]) => field);
  if (!fields.includes('features') && LEGACY_FLAGS.some((flag) => payload[flag] !== undefined)) {
    fields.push('features');
  }
  return fields;
};

/**
 * The listing writes of `/properties` (INTERFACES.md "Listings"): create, change, renew and
 * delete. One transaction each, with its history row (`apikey:<keyId>`) and, when the listing
 * stops being ACTIVE, its portal publications undone in the same transaction.
 */
@Injectable()
export class ListingsService {
  constructor(
    private readonly em: EntityManager,
    private readonly listings: ListingRepository,
    private readonly queries: ListingsQueries,
    private readonly roster: AgentRoster,
    private readonly publications: PublicationsService,
    private readonly clock: Clock,
  ) {}

  /** `POST /properties`: the record, built inside the transaction. */
  create(actor: Principal, payload: ListingPayload): Promise<ListingRecordView> {
    return this.uniqueReference(() =>
      this.em.transactional(async (em) => {
        const now = this.clock.now();
        const listing = new Listing(
          {
            organizationId: actor.organizationId,
            title: payload.title,
            operation: payload.operation,
            propertyType: payload.propertyType,
            price: decimalText(payload.price, 2) as string,
            currency: payload.currency,
            countryCode: payload.countryCode,
            city: payload.city,
          },
          now,
        );
        listing.createdBy = actor.userId;
        listing.expiresAt = Listing.lifetimeEnd(now);
        listing.apply(await this.changesOf(actor, listing, payload), now);
        listing.version = 1;
        listing.updatedAt = now;
        em.persist(listing);
        this.recordHistory(actor, listing, sentFields(payload), now);
        await em.flush();
        return this.queries.record(listing, true);
      }),
    );
  }

  /** `PATCH /properties/{id}`: own listings only; nothing changed → no history row. */
  change(actor: Principal, id: string, payload: Partial<ListingPayload>): Promise<ListingRecordView> {
    return this.uniqueReference(() =>
      this.em.transactional(async (em) => {
        const listing = await this.ownLocked(actor, id);
        const now = this.clock.now();
        const wasActive = listing.isActive;
        const changed = listing.apply(await this.changesOf(actor, listing, payload), now);
        if (changed.length > 0) this.recordHistory(actor, listing, changed, now);
        if (wasActive && !listing.isActive) await this.publications.listingLeftActive(listing, now);
        await em.flush();
        return this.queries.record(listing, true);
      }),
    );
  }

  /** `POST /properties/{id}/renew`: ACTIVE until max(now, expiresAt) + 90 days. */
  renew(actor: Principal, id: string): Promise<ListingRecordView> {
    return this.em.transactional(async (em) => {
      const listing = await this.ownLocked(actor, id);
      const now = this.clock.now();
      this.recordHistory(actor, listing, listing.renew(now), now);
      await em.flush();
      return this.queries.record(listing, true);
    });
  }

  /** `DELETE /properties/{id}`: soft; reads answer 404 from then on. */
  async remove(actor: Principal, id: string): Promise<void> {
    await this.em.transactional(async (em) => {
      const listing = await this.ownLocked(actor, id);
      const now = this.clock.now();
      const wasActive = listing.isActive;
      this.recordHistory(actor, listing, listing.remove(now), now);
      if (wasActive) await this.publications.listingLeftActive(listing, now);
      await em.flush();
    });
  }

  private async ownLocked(actor: Principal, id: string): Promise<Listing> {
    const listing = await this.listings.findOwnForUpdate(actor.organizationId, id);
    if (!listing) throw notFound('Listing');
    return listing;
  }

  private recordHistory(actor: Principal, listing: Listing, changedFields: string[], now: Date): void {
    this.em.persist(
      new ListingHistory(
        {
          organizationId: listing.organizationId,
          listingId: listing.id,
          source: historySourceOf(actor),
          changedBy: actor.userId,
          changedFields,
        },
        now,
      ),
    );
  }

  /** A reference taken by another live listing of the agency → 409 CONFLICT (the unique index). */
  private async uniqueReference<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (
        err instanceof UniqueConstraintViolationException &&
        err.message.includes('listings_reference_unique')
      ) {
        throw conflict('Another listing of the agency already has this reference.');
      }
      throw err;
    }
  }

  /**
   * The payload as the aggregate takes it: the agent checked (active, of the agency), images
   * resolved to the agency's media, features from `features` or the legacy flags.
   */
  private async changesOf(
    actor: Principal,
    listing: Listing,
    payload: Partial<ListingPayload>,
  ): Promise<ListingChanges> {
    if (payload.agentId !== undefined) {
      const agent = await this.roster.activeAgent(actor.organizationId, payload.agentId);
      if (!agent) {
        throw validationFailed([
          { path: 'agentId', message: 'agentId must be an active agent of the organization' },
        ]);
      }
    }
    const images = payload.images === undefined ? undefined : await this.imagesOf(actor, payload.images);
    return {
      title: payload.title,
      operation: payload.operation,
      propertyType: payload.propertyType,
      status: payload.status,
      price: decimalText(payload.price, 2) ?? undefined,
      currency: payload.currency,
      countryCode: payload.countryCode,
      city: payload.city,
      agentId: payload.agentId,
      reference: payload.reference,
      description: payload.description,
      rentPeriod: payload.rentPeriod,
      region: payload.region,
      community: payload.community,
      postalCode: payload.postalCode,
      addressLine1: payload.addressLine1,
      addressLine2: payload.addressLine2,
      coordinates:
        payload.coordinates === undefined
          ? undefined
          : payload.coordinates && { lat: payload.coordinates.lat, lon: payload.coordinates.lon },
      showExactLocation: payload.showExactLocation,
      bedrooms: payload.bedrooms,
      bathrooms: decimalText(payload.bathrooms, 1),
      areaUnit: payload.areaUnit,
      livingArea: decimalText(payload.livingArea, 2),
      plotArea: decimalText(payload.plotArea, 2),
      floor: payload.floor,
      yearBuilt: payload.yearBuilt,
      parkingSpaces: payload.parkingSpaces,
      furnished: payload.furnished,
      condition: payload.condition,
      energyRating: payload.energyRating,
      energyRatingDetails: payload.energyRatingDetails,
      energyConsumptionKwh: decimalText(payload.energyConsumptionKwh, 2),
      co2Emissions: decimalText(payload.co2Emissions, 2),
      features: resolveFeatures(listing.features, payload.features, payload),
      additionalFeatures: payload.additionalFeatures,
      commission: decimalText(payload.commission, 2),
      sharedCommission: decimalText(payload.sharedCommission, 2),
      communityFeesPerYear: decimalText(payload.communityFeesPerYear, 2),
      basuraPerYear: decimalText(payload.basuraPerYear, 2),
      availableFrom: payload.availableFrom,
      completionDate: payload.completionDate,
      images,
      videoUrl: payload.videoUrl,
      virtualTourUrl: payload.virtualTourUrl,
      networkVisible: payload.networkVisible,
      autoRenewEnabled: payload.autoRenewEnabled,
      expiresAt: payload.expiresAt === undefined ? undefined : new Date(payload.expiresAt),
    };
  }

  /** Each image an uploaded photo of the agency, else 400 at `images[i].mediaId`. */
  private async imagesOf(
    actor: Principal,
    images: { mediaId: string; caption?: string | null }[],
  ): Promise<ListingImage[]> {
    const ids = images.map((image) => image.mediaId.toLowerCase());
    const found = new Map(
      (await this.listings.mediaOf(actor.organizationId, [...new Set(ids)])).map((media) => [
        media.id,
        media,
      ]),
    );
    return images.map((image, i) => {
      const media = found.get(ids[i]);
      if (!media) {
        throw validationFailed([
          { path: `images[${i}].mediaId`, message: 'mediaId must be a photo uploaded by the organization' },
        ]);
      }
      return { mediaId: media.id, extension: media.extension, url: null, caption: image.caption ?? null };
    });
  }
}
