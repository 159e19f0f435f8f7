import { Injectable } from '@nestjs/common';
import { AgentRoster } from '@app/identity';
import { AppConfig, isUuid, notFound, type Principal } from '@app/platform';
import { LISTING_LIMITS } from '../domain/listing-catalogue';
import { ListingHistoryRepository } from '../domain/listing-history.repository';
import type { Listing, ListingSourceName } from '../domain/listing.entity';
import { ListingRepository } from '../domain/listing.repository';
import { isOnNetwork } from '../domain/network-view';
import {
  toHistoryEntry,
  toListingRecord,
  type ListingHistoryView,
  type ListingRecordView,
} from '../views/listing.view';
import { mediaVariantsView } from '../views/media.view';

/**
 * Reads of one listing record (INTERFACES.md "Listings"): the agency's own, or another agency's
 * while it is on the network (ACTIVE, `networkVisible`), shown with the network view rules.
 */
@Injectable()
export class ListingsQueries {
  constructor(
    private readonly listings: ListingRepository,
    private readonly history: ListingHistoryRepository,
    private readonly roster: AgentRoster,
    private readonly config: AppConfig,
  ) {}

  /** `GET /properties/{id}`: 404 `Listing not found.` when the caller may not read it. */
  async get(actor: Principal, id: string): Promise<ListingRecordView> {
    const record = await this.readRecord(actor.organizationId, 'internal', id);
    if (!record) throw notFound('Listing');
    return record;
  }

  /**
   * The record of a listing of `source` (`internal` or a connected feed) as the agency
   * `organizationId` may read it (own rows; for `internal` also other agencies' network listings,
   * with the network view rules), or null when it cannot. The record as JSON-ready fields.
   */
  readFromSource(
    organizationId: string,
    source: ListingSourceName,
    id: string,
  ): Promise<Record<string, unknown> | null> {
    return this.readRecord(organizationId, source, id) as Promise<Record<string, unknown> | null>;
  }

  /** As `readFromSource`, typed. */
  async readRecord(
    organizationId: string,
    source: ListingSourceName,
    id: string,
  ): Promise<ListingRecordView | null> {
    // every listing id of ours is a UUID (feed rows too): anything else names nothing
    if (!isUuid(id)) return null;
    const own = await this.listings.findOfSource(organizationId, source, id);
    if (own) return this.record(own, true);
    if (source !== 'internal') return null;
    const other = await this.listings.findAnyInternal(id);
    if (!other || !isOnNetwork(other)) return null;
    return this.record(other, false);
  }

  /** Whether the agency may read listing `id` (own live internal, or on the network). */
  async isReadable(organizationId: string, id: string): Promise<boolean> {
    const own = await this.listings.findOwn(organizationId, id);
    if (own) return true;
    const other = await this.listings.findAnyInternal(id);
    return other !== null && isOnNetwork(other);
  }

  /** The record of a listing the caller owns (after a write). */
  async record(listing: Listing, own: boolean): Promise<ListingRecordView> {
    const agents = listing.agentId
      ? await this.roster.byIds(listing.organizationId, [listing.agentId])
      : new Map();
    const mediaIds = listing.images.flatMap((image) => (image.mediaId ? [image.mediaId] : []));
    const media = await this.listings.mediaOf(listing.organizationId, [...new Set(mediaIds)]);
    const { publicBaseUrl } = this.config;
    return toListingRecord(listing, (listing.agentId && agents.get(listing.agentId)) || null, {
      own,
      publicBaseUrl,
      variants: new Map(media.map((row) => [row.id, mediaVariantsView(row, publicBaseUrl)])),
    });
  }

  /** `GET /properties/{id}/history`: own listings only; newest 100. */
  async historyOf(actor: Principal, id: string): Promise<ListingHistoryView> {
    const listing = await this.listings.findOwn(actor.organizationId, id);
    if (!listing) throw notFound('Listing');
    const rows = await this.history.newestOf(actor.organizationId, id, LISTING_LIMITS.historyRows);
    return { data: rows.map(toHistoryEntry) };
  }
}
