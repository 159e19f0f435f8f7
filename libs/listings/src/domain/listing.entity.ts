import { Entity, EntityRepositoryType, PrimaryKey, Property } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';
import { DAY } from '@app/platform/core';
import { LISTING_LIMITS } from './listing-catalogue';
import type {
  AreaUnit,
  EnergyRating,
  Furnished,
  ListingCondition,
  ListingOperation,
  ListingStatus,
  PropertyType,
  RentPeriod,
} from './listing-catalogue';
import type { ListingChanges, ListingImage } from './listing-changes';

export type { ListingImage } from './listing-changes';
import { ListingRepository } from './listing.repository';

/** Where a listing comes from: `internal` (made by the agency) or a connected feed. */
export type ListingSourceName = 'internal' | 'kyero' | 'redsp' | 'jsonfeed';

/**
 * A listing of an agency (spec "Listing create payload", INTERFACES.md "Listings"). Rows with a
 * feed `source` are imported copies (read-only through `/property-sources`); `internal` rows are the
 * agency's own, written through `/properties`. Money is a decimal string; areas are in `areaUnit`
 * (the generated `*_sqm` columns serve the filters).
 */
@Entity({ tableName: 'listings', repository: () => ListingRepository })
export class Listing {
  [EntityRepositoryType]?: ListingRepository;

  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  @Property({ type: 'uuid' })
  organizationId: string;

  @Property({ type: 'text' })
  source: ListingSourceName = 'internal';

  @Property({ type: 'text', nullable: true })
  externalId: string | null = null;

  @Property({ type: 'text', nullable: true })
  reference: string | null = null;

  @Property({ type: 'text' })
  title: string;

  @Property({ type: 'text', nullable: true })
  description: string | null = null;

  @Property({ type: 'text' })
  operation: ListingOperation;

  @Property({ type: 'text' })
  propertyType: PropertyType;

  @Property({ type: 'text' })
  status: ListingStatus = 'ACTIVE';

  @Property({ type: 'decimal', precision: 16, scale: 2 })
  price: string;

  @Property({ type: 'text' })
  currency: string;

  @Property({ type: 'text', nullable: true })
  rentPeriod: RentPeriod | null = null;

  @Property({ type: 'text' })
  countryCode: string;

  @Property({ type: 'text', nullable: true })
  region: string | null = null;

  @Property({ type: 'text' })
  city: string;

  @Property({ type: 'text', nullable: true })
  community: string | null = null;

  @Property({ type: 'text', nullable: true })
  postalCode: string | null = null;

  @Property({ type: 'text', nullable: true })
  addressLine1: string | null = null;

  @Property({ type: 'text', nullable: true })
  addressLine2: string | null = null;

  @Property({ type: 'double', nullable: true })
  lat: number | null = null;

  @Property({ type: 'double', nullable: true })
  lon: number | null = null;

  @Property({ type: 'boolean' })
  showExactLocation: boolean = false;

  @Property({ type: 'integer', nullable: true })
  bedrooms: number | null = null;

  /** One decimal (2.5). */
  @Property({ type: 'decimal', precision: 4, scale: 1, nullable: true })
  bathrooms: string | null = null;

  @Property({ type: 'text' })
  areaUnit: AreaUnit = 'sqm';

  @Property({ type: 'decimal', precision: 12, scale: 2, nullable: true })
  livingArea: string | null = null;

  @Property({ type: 'decimal', precision: 12, scale: 2, nullable: true })
  plotArea: string | null = null;

  @Property({ type: 'text', nullable: true })
  floor: string | null = null;

  @Property({ type: 'integer', nullable: true })
  yearBuilt: number | null = null;

  @Property({ type: 'integer', nullable: true })
  parkingSpaces: number | null = null;

  @Property({ type: 'text', nullable: true })
  furnished: Furnished | null = null;

  @Property({ type: 'text', nullable: true })
  condition: ListingCondition | null = null;

  @Property({ type: 'text', nullable: true })
  energyRating: EnergyRating | null = null;

  @Property({ type: 'text', nullable: true })
  energyRatingDetails: string | null = null;

  @Property({ type: 'decimal', precision: 12, scale: 2, nullable: true })
  energyConsumptionKwh: string | null = null;

  @Property({ type: 'decimal', precision: 12, scale: 2, nullable: true, fieldName: 'co2_emissions' })
  co2Emissions: string | null = null;

  @Property({ type: 'text[]' })
  features: string[] = [];

  @Property({ type: 'json', nullable: true })
  additionalFeatures: Record<string, unknown> | null = null;

  /** Private: never shown to other agencies. */
  @Property({ type: 'decimal', precision: 5, scale: 2, nullable: true })
  commission: string | null = null;

  /** Percent offered to the network. */
  @Property({ type: 'decimal', precision: 5, scale: 2, nullable: true })
  sharedCommission: string | null = null;

  @Property({ type: 'decimal', precision: 14, scale: 2, nullable: true })
  communityFeesPerYear: string | null = null;

  @Property({ type: 'decimal', precision: 14, scale: 2, nullable: true })
  basuraPerYear: string | null = null;

  /** `YYYY-MM-DD`. */
  @Property({ type: 'date', nullable: true })
  availableFrom: string | null = null;

  @Property({ type: 'date', nullable: true })
  completionDate: string | null = null;

  @Property({ type: 'json' })
  images: ListingImage[] = [];

  @Property({ type: 'text', nullable: true })
  videoUrl: string | null = null;

  @Property({ type: 'text', nullable: true })
  virtualTourUrl: string | null = null;

  @Property({ type: 'boolean' })
  networkVisible: boolean = true;

  @Property({ type: 'boolean' })
  autoRenewEnabled: boolean = false;

  @Property({ type: 'datetime', nullable: true })
  expiresAt: Date | null = null;

  @Property({ type: 'uuid', nullable: true })
  agentId: string | null = null;

  @Property({ type: 'uuid', nullable: true })
  createdBy: string | null = null;

  /** +1 per change. */
  @Property({ type: 'integer' })
  version: number = 1;

  @Property({ type: 'datetime' })
  createdAt: Date;

  @Property({ type: 'datetime' })
  updatedAt: Date;

  @Property({ type: 'datetime', nullable: true })
  deletedAt: Date | null = null;

  constructor(
    props: {
      organizationId: string;
      title: string;
      operation: ListingOperation;
      propertyType: PropertyType;
      price: string;
      currency: string;
      countryCode: string;
      city: string;
    },
    now: Date,
  ) {
    this.organizationId = props.organizationId;
    this.title = props.title;
    this.operation = props.operation;
    this.propertyType = props.propertyType;
    this.price = props.price;
    this.currency = props.currency;
    this.countryCode = props.countryCode;
    this.city = props.city;
    this.createdAt = now;
    this.updatedAt = now;
  }

  /** The default and per-renewal lifetime: 90 days. */
  static lifetimeEnd(from: Date): Date {
    return new Date(from.getTime() + LISTING_LIMITS.lifetimeDays * DAY);
  }

  get isActive(): boolean {
    return this.status === 'ACTIVE';
  }

  /**
   * Takes the payload's values (create or PATCH) and answers the payload fields that changed
   * (`coordinates` for `lat`/`lon`). Nothing changed: nothing is touched, no version step.
   */
  apply(changes: ListingChanges, now: Date): string[] {
    const changed: string[] = [];
    const self = this as unknown as Record<string, unknown>;
    for (const [field, value] of Object.entries(changes) as [keyof ListingChanges, unknown][]) {
      if (value === undefined) continue;
      if (field === 'coordinates') {
        const next = value as { lat: number; lon: number } | null;
        const lat = next?.lat ?? null;
        const lon = next?.lon ?? null;
        if (lat !== this.lat || lon !== this.lon) {
          this.lat = lat;
          this.lon = lon;
          changed.push('coordinates');
        }
        continue;
      }
      if (!sameValue(self[field], value)) {
        self[field] = value;
        changed.push(field);
      }
    }
    if (changed.length > 0) this.touch(now);
    return changed;
  }

  /** `ACTIVE` again, on sale until `max(now, expiresAt)` + 90 days. */
  renew(now: Date): string[] {
    const from = this.expiresAt && this.expiresAt > now ? this.expiresAt : now;
    this.status = 'ACTIVE';
    this.expiresAt = Listing.lifetimeEnd(from);
    this.touch(now);
    return ['status', 'expiresAt'];
  }

  /**
   * Due at `now` (the expiry job): with `autoRenewEnabled` `expiresAt` moves on by 90 days until it
   * is in the future; else the listing becomes `EXPIRED`.
   */
  expireOrRenew(now: Date): { outcome: 'expired' | 'renewed'; changedFields: string[] } {
    if (this.autoRenewEnabled) {
      let end = this.expiresAt ?? now;
      while (end <= now) end = Listing.lifetimeEnd(end);
      this.expiresAt = end;
      this.touch(now);
      return { outcome: 'renewed', changedFields: ['expiresAt'] };
    }
    this.status = 'EXPIRED';
    this.touch(now);
    return { outcome: 'expired', changedFields: ['status'] };
  }

  /** Soft delete: reads answer 404 from now on. */
  remove(now: Date): string[] {
    this.deletedAt = now;
    this.touch(now);
    return ['deleted'];
  }

  private touch(now: Date): void {
    this.updatedAt = now;
    this.version += 1;
  }
}

const sameValue = (a: unknown, b: unknown): boolean => {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    return JSON.stringify(a) === JSON.stringify(b);
  }
  return a === b;
};
