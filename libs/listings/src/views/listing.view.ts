import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiNullable } from '@app/platform';
import type { Agent } from '@app/identity';
import {
  AREA_UNITS,
  ENERGY_RATINGS,
  FURNISHED_STATES,
  LISTING_CONDITIONS,
  LISTING_OPERATIONS,
  LISTING_STATUSES,
  PROPERTY_TYPES,
  RENT_PERIODS,
  type AreaUnit,
  type EnergyRating,
  type Furnished,
  type ListingCondition,
  type ListingOperation,
  type ListingStatus,
  type PropertyType,
  type RentPeriod,
} from '../domain/listing-catalogue';
import type { ListingHistory } from '../domain/listing-history.entity';
import type { Listing } from '../domain/listing.entity';
import { showsAgentContact, showsCommission, showsExactLocation } from '../domain/network-view';
import { CoordinatesView, imageUrlOf, ListingRefView, type ListingRef } from './listing-summary';
import { MediaVariantView, type MediaVariantJson } from './media.view';

/** The listing's agent as a record shows it; email and numbers only where the network rules allow. */
export class ListingAgentView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiNullable(String) firstName: string | null;
  @ApiNullable(String) lastName: string | null;
  @ApiNullable(String, { format: 'uri' }) avatarUrl: string | null;
  @ApiNullable(String, { description: "Null on another agency's listing unless its agent shares contact." })
  displayEmail: string | null;
  @ApiNullable(String, { description: "Null on another agency's listing unless its agent shares contact." })
  phoneNumber: string | null;
  @ApiNullable(String, { description: "Null on another agency's listing unless its agent shares contact." })
  whatsappNumber: string | null;
}

export class ListingImageView {
  @ApiNullable(String, { format: 'uuid', description: 'The uploaded photo; null for a feed’s own image.' })
  mediaId: string | null;
  @ApiProperty({
    format: 'uri',
    example: 'https://api.example.com/media/0190a0a0-0000-7000-8000-000000000001.jpg',
  })
  url: string;
  @ApiNullable(String) caption: string | null;
  @ApiProperty({
    type: [MediaVariantView],
    description:
      'The uploaded photo’s stored variants (320, 1024 and 2048 px wide, never wider than the photo; WebP ' +
      'and JPEG), narrowest first; `[]` for a feed’s own image or a photo stored before variants.',
  })
  variants: MediaVariantView[];
}

/** Inline schemas of the nullable objects (a nullable `$ref` cannot carry `type` in OpenAPI 3.0). */
export const COORDINATES_SCHEMA = {
  lat: { type: 'number', minimum: -90, maximum: 90 },
  lon: { type: 'number', minimum: -180, maximum: 180 },
} as const;

const CONTACT = "Null on another agency's listing unless its agent shares contact.";
const AGENT_SCHEMA = {
  id: { type: 'string', format: 'uuid' },
  firstName: { type: 'string', nullable: true },
  lastName: { type: 'string', nullable: true },
  avatarUrl: { type: 'string', format: 'uri', nullable: true },
  displayEmail: { type: 'string', nullable: true, description: CONTACT },
  phoneNumber: { type: 'string', nullable: true, description: CONTACT },
  whatsappNumber: { type: 'string', nullable: true, description: CONTACT },
} as const;

/**
 * A listing record (`GET /properties/{id}`, the answer of every write): the payload's fields plus
 * `id`, `ref`, the agent summary, image URLs and timestamps. `commission` is on own listings only
 * (the key is absent on another agency's); coordinates of another agency's listing only with
 * `showExactLocation`.
 */
export class ListingRecordView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({
    type: ListingRefView,
    description: '`{source: "internal", id}` for own and network listings.',
  })
  ref: ListingRefView;
  @ApiProperty({ minLength: 1, maxLength: 200 }) title: string;
  @ApiNullable(String, { maxLength: 50 }) reference: string | null;
  @ApiNullable(String) description: string | null;
  @ApiProperty({ enum: LISTING_OPERATIONS }) operation: ListingOperation;
  @ApiProperty({ enum: PROPERTY_TYPES }) propertyType: PropertyType;
  @ApiProperty({ enum: LISTING_STATUSES }) status: ListingStatus;
  @ApiProperty({ example: '350000.00', description: 'Decimal string.' }) price: string;
  @ApiProperty({ example: 'EUR' }) currency: string;
  @ApiProperty({ enum: RENT_PERIODS, nullable: true }) rentPeriod: RentPeriod | null;
  @ApiProperty({ example: 'ES' }) countryCode: string;
  @ApiNullable(String) region: string | null;
  @ApiProperty() city: string;
  @ApiNullable(String) community: string | null;
  @ApiNullable(String) postalCode: string | null;
  @ApiNullable(String) addressLine1: string | null;
  @ApiNullable(String) addressLine2: string | null;
  @ApiProperty({
    type: 'object',
    nullable: true,
    properties: COORDINATES_SCHEMA,
    required: ['lat', 'lon'],
    description: "Another agency's listing shows them only with `showExactLocation`.",
  })
  coordinates: CoordinatesView | null;
  @ApiProperty() showExactLocation: boolean;
  @ApiProperty({ type: 'integer', nullable: true }) bedrooms: number | null;
  @ApiNullable(Number, { description: 'One decimal.' }) bathrooms: number | null;
  @ApiProperty({ enum: AREA_UNITS }) areaUnit: AreaUnit;
  @ApiNullable(Number, { description: 'In `areaUnit`.' }) livingArea: number | null;
  @ApiNullable(Number, { description: 'In `areaUnit`.' }) plotArea: number | null;
  @ApiNullable(String) floor: string | null;
  @ApiProperty({ type: 'integer', nullable: true }) yearBuilt: number | null;
  @ApiProperty({ type: 'integer', nullable: true }) parkingSpaces: number | null;
  @ApiProperty({ enum: FURNISHED_STATES, nullable: true }) furnished: Furnished | null;
  @ApiProperty({ enum: LISTING_CONDITIONS, nullable: true }) condition: ListingCondition | null;
  @ApiProperty({ enum: ENERGY_RATINGS, nullable: true }) energyRating: EnergyRating | null;
  @ApiNullable(String) energyRatingDetails: string | null;
  @ApiNullable(Number, { description: 'kWh per m² per year.' }) energyConsumptionKwh: number | null;
  @ApiNullable(Number, { description: 'kg per m² per year.' }) co2Emissions: number | null;
  @ApiProperty({ type: [String], description: 'Amenity slugs.' }) features: string[];
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true })
  additionalFeatures: Record<string, unknown> | null;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: '3.00',
    description: 'Private commission percent (decimal string): present on own listings only.',
  })
  commission?: string | null;
  @ApiNullable(String, { example: '1.50', description: 'Percent offered to the network (decimal string).' })
  sharedCommission: string | null;
  @ApiNullable(String, { description: 'Decimal string, in `currency`.' }) communityFeesPerYear: string | null;
  @ApiNullable(String, { description: 'Decimal string, in `currency`.' }) basuraPerYear: string | null;
  @ApiNullable(String, { format: 'date' }) availableFrom: string | null;
  @ApiNullable(String, { format: 'date' }) completionDate: string | null;
  @ApiProperty({ type: [ListingImageView] }) images: ListingImageView[];
  @ApiNullable(String, { format: 'uri', description: 'The first image.' }) mainImageUrl: string | null;
  @ApiProperty({ type: 'integer' }) imageCount: number;
  @ApiNullable(String, { format: 'uri' }) videoUrl: string | null;
  @ApiNullable(String, { format: 'uri' }) virtualTourUrl: string | null;
  @ApiProperty() networkVisible: boolean;
  @ApiProperty() autoRenewEnabled: boolean;
  @ApiNullable(String, { format: 'date-time' }) expiresAt: string | null;
  @ApiProperty({
    type: 'object',
    nullable: true,
    properties: AGENT_SCHEMA,
    required: Object.keys(AGENT_SCHEMA),
    description: 'The listing’s agent (null when it has none).',
  })
  agent: ListingAgentView | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class ListingHistoryEntryView {
  @ApiProperty({ format: 'date-time' }) at: string;
  @ApiProperty({
    example: 'apikey:0190a0a0-0000-7000-8000-000000000001',
    description: '`apikey:<keyId>` or `system:expiry`.',
  })
  source: string;
  @ApiNullable(String, { format: 'uuid', description: 'The key’s person; null for the service.' })
  changedBy: string | null;
  @ApiProperty({ type: [String], example: ['price', 'status'] }) changedFields: string[];
}

export class ListingHistoryView {
  @ApiProperty({ type: [ListingHistoryEntryView], description: 'The newest 100 changes, newest first.' })
  data: ListingHistoryEntryView[];
}

/** Where a record is read from: the owner (`own`) or another agency on the network. */
export interface RecordContext {
  own: boolean;
  publicBaseUrl: string;
  /** The variants of the listing's uploaded photos by media id (none given: `[]` each). */
  variants?: ReadonlyMap<string, MediaVariantJson[]>;
}

const num = (value: string | null): number | null => (value === null ? null : Number(value));
const iso = (value: Date | null): string | null => (value ? value.toISOString() : null);
/** A `date` column as `YYYY-MM-DD` (MikroORM may give a string or a Date). */
const day = (value: string | Date | null): string | null =>
  value === null
    ? null
    : value instanceof Date
      ? value.toISOString().slice(0, 10)
      : String(value).slice(0, 10);

const agentOf = (agent: Agent, own: boolean): ListingAgentView => {
  const contact = showsAgentContact(own, agent);
  return {
    id: agent.id,
    firstName: agent.firstName,
    lastName: agent.lastName,
    avatarUrl: agent.avatarUrl,
    displayEmail: contact ? agent.displayEmail : null,
    phoneNumber: contact ? agent.phoneNumber : null,
    whatsappNumber: contact ? agent.whatsappNumber : null,
  };
};

/** The record of `listing` as `context` may see it (network rules in `network-view.ts`). */
export function toListingRecord(
  listing: Listing,
  agent: Agent | null,
  context: RecordContext,
): ListingRecordView {
  const { own, publicBaseUrl } = context;
  const images = listing.images.map((image) => ({
    mediaId: image.mediaId,
    url: imageUrlOf(image, publicBaseUrl),
    caption: image.caption,
    variants: (image.mediaId && context.variants?.get(image.mediaId)) || [],
  }));
  const ref: ListingRef = { source: listing.source, id: listing.id };
  const coordinates =
    listing.lat !== null && listing.lon !== null && showsExactLocation(own, listing)
      ? { lat: listing.lat, lon: listing.lon }
      : null;
  const record: ListingRecordView = {
    id: listing.id,
    ref,
    title: listing.title,
    reference: listing.reference,
    description: listing.description,
    operation: listing.operation,
    propertyType: listing.propertyType,
    status: listing.status,
    price: listing.price,
    currency: listing.currency,
    rentPeriod: listing.rentPeriod,
    countryCode: listing.countryCode,
    region: listing.region,
    city: listing.city,
    community: listing.community,
    postalCode: listing.postalCode,
    addressLine1: listing.addressLine1,
    addressLine2: listing.addressLine2,
    coordinates,
    showExactLocation: listing.showExactLocation,
    bedrooms: listing.bedrooms,
    bathrooms: num(listing.bathrooms),
    areaUnit: listing.areaUnit,
    livingArea: num(listing.livingArea),
    plotArea: num(listing.plotArea),
    floor: listing.floor,
    yearBuilt: listing.yearBuilt,
    parkingSpaces: listing.parkingSpaces,
    furnished: listing.furnished,
    condition: listing.condition,
    energyRating: listing.energyRating,
    energyRatingDetails: listing.energyRatingDetails,
    energyConsumptionKwh: num(listing.energyConsumptionKwh),
    co2Emissions: num(listing.co2Emissions),
    features: [...listing.features],
    additionalFeatures: listing.additionalFeatures,
    sharedCommission: listing.sharedCommission,
    communityFeesPerYear: listing.communityFeesPerYear,
    basuraPerYear: listing.basuraPerYear,
    availableFrom: day(listing.availableFrom),
    completionDate: day(listing.completionDate),
    images,
    mainImageUrl: images[0]?.url ?? null,
    imageCount: images.length,
    videoUrl: listing.videoUrl,
    virtualTourUrl: listing.virtualTourUrl,
    networkVisible: listing.networkVisible,
    autoRenewEnabled: listing.autoRenewEnabled,
    expiresAt: iso(listing.expiresAt),
    agent: agent ? agentOf(agent, own) : null,
    createdAt: listing.createdAt.toISOString(),
    updatedAt: listing.updatedAt.toISOString(),
  };
  if (showsCommission(own)) record.commission = listing.commission;
  return record;
}

export const toHistoryEntry = (row: ListingHistory): ListingHistoryEntryView => ({
  at: row.at.toISOString(),
  source: row.source,
  changedBy: row.changedBy,
  changedFields: [...row.changedFields],
});
