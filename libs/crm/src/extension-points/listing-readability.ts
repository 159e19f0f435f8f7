import { applyDecorators, Injectable, OnModuleInit } from '@nestjs/common';
import { DiscoveryService, Reflector } from '@nestjs/core';
import { validationFailed } from '@app/platform';
import { discoverMarked } from './discovered-providers';

/**
 * Whether an agency may read a listing (its own live listing, or another agency's on the
 * network). Deals and viewings name a listing by `propertyListingId`; the listings context
 * implements this port: mark the provider class with `@ListingReadabilityProvider()` and provide
 * it in the context's module. The CRM finds it at boot and never imports listings.
 */
export interface ListingReadability {
  isReadable(organizationId: string, listingId: string): Promise<boolean>;
}

const LISTING_READABILITY = Reflector.createDecorator<true>();

/** Marks the provider implementing `ListingReadability` (at most one in an app). */
export const ListingReadabilityProvider = () => applyDecorators(Injectable(), LISTING_READABILITY(true));

/**
 * The app's `ListingReadability`, found at boot. Without one no listing is readable, so every
 * `propertyListingId` is refused (fail closed).
 */
@Injectable()
export class ListingReadabilityCheck implements OnModuleInit {
  private reader: ListingReadability | null = null;

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly reflector: Reflector,
  ) {}

  onModuleInit(): void {
    const found = discoverMarked<ListingReadability>(this.discovery, this.reflector, LISTING_READABILITY);
    if (found.length > 1)
      throw new Error('Two providers are marked @ListingReadabilityProvider(); keep one.');
    this.reader = found[0] ?? null;
  }

  /** 400 VALIDATION_FAILED at `propertyListingId` unless the agency may read the listing. */
  async assertReadable(organizationId: string, listingId: string): Promise<void> {
    const readable = this.reader
      ? await this.reader.isReadable(organizationId, listingId.toLowerCase())
      : false;
    if (!readable) {
      throw validationFailed([
        {
          path: 'propertyListingId',
          message: 'propertyListingId must name a listing the organization can read',
        },
      ]);
    }
  }
}
