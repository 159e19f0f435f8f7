import { Injectable } from '@nestjs/common';
import { AppConfig, isUuid } from '@app/platform';
import type { ListingOperation, ListingStatus, PropertyType } from '../domain/listing-catalogue';
import { ListingRepository } from '../domain/listing.repository';
import { isOnNetwork, showsExactLocation } from '../domain/network-view';
import { imageUrlOf } from '../views/listing-summary';

/**
 * A listing as other contexts show it beside their own records (open houses, collections, buyer
 * requests): the summary fields, never `commission`; exact coordinates and the street address only
 * where the network rules allow.
 */
export interface ListingCard {
  id: string;
  organizationId: string;
  /** The viewer's own listing. */
  own: boolean;
  title: string;
  reference: string | null;
  operation: ListingOperation;
  propertyType: PropertyType;
  status: ListingStatus;
  city: string;
  community: string | null;
  countryCode: string;
  price: string;
  currency: string;
  bedrooms: number | null;
  bathrooms: number | null;
  livingArea: number | null;
  areaUnit: string;
  mainImageUrl: string | null;
  /** Percent offered to the network (decimal string), or null. */
  sharedCommission: string | null;
  showExactLocation: boolean;
  /** Exact coordinates where the viewer may see them, else null. */
  coordinates: { lat: number; lon: number } | null;
  addressLine1: string | null;
}

/**
 * Reads listing cards for other contexts (exported by the listings module): the viewer's own live
 * listings in any status, other agencies' only while on the network. One statement per call.
 */
@Injectable()
export class ListingCards {
  constructor(
    private readonly listings: ListingRepository,
    private readonly config: AppConfig,
  ) {}

  /** The cards of `ids` the agency `viewerOrganizationId` may read, by id (absent: not readable). */
  async readable(viewerOrganizationId: string, ids: string[]): Promise<Map<string, ListingCard>> {
    const wanted = [...new Set(ids.filter(isUuid))];
    const rows = await this.listings.findAnyInternalByIds(wanted);
    const cards = new Map<string, ListingCard>();
    for (const listing of rows) {
      const own = listing.organizationId === viewerOrganizationId;
      if (!own && !isOnNetwork(listing)) continue;
      const exact = showsExactLocation(own, listing) && listing.lat !== null && listing.lon !== null;
      cards.set(listing.id, {
        id: listing.id,
        organizationId: listing.organizationId,
        own,
        title: listing.title,
        reference: listing.reference,
        operation: listing.operation,
        propertyType: listing.propertyType,
        status: listing.status,
        city: listing.city,
        community: listing.community,
        countryCode: listing.countryCode,
        price: listing.price,
        currency: listing.currency,
        bedrooms: listing.bedrooms,
        bathrooms: listing.bathrooms === null ? null : Number(listing.bathrooms),
        livingArea: listing.livingArea === null ? null : Number(listing.livingArea),
        areaUnit: listing.areaUnit,
        mainImageUrl: listing.images[0] ? imageUrlOf(listing.images[0], this.config.publicBaseUrl) : null,
        sharedCommission: listing.sharedCommission,
        showExactLocation: listing.showExactLocation,
        coordinates: exact ? { lat: listing.lat!, lon: listing.lon! } : null,
        addressLine1: listing.addressLine1,
      });
    }
    return cards;
  }
}
