import { ApiProperty } from '@nestjs/swagger';
import type { ListingCard } from '@app/listings';
import {
  OPEN_HOUSE_STATUSES,
  OPEN_HOUSE_VISIBILITIES,
  type OpenHouseStatus,
  type OpenHouseVisibility,
  RSVP_STATUSES,
  type RsvpStatus,
} from '../domain/open-house.entity';

/** The agency holding the open house. */
export class OpenHouseHostView {
  @ApiProperty({ format: 'uuid' }) organizationId: string;
  @ApiProperty({ description: 'The agency’s name.' }) name: string;
}

export class OpenHouseListingRefView {
  @ApiProperty({ enum: ['internal'], description: 'Open houses are held on an agency’s own listings.' })
  source: 'internal';

  @ApiProperty({ format: 'uuid' }) id: string;
}

/** The listing summary of an open house (never the owner’s private commission). */
export class OpenHouseListingView {
  @ApiProperty() title: string;
  @ApiProperty({ type: String, nullable: true, description: 'The agency’s reference number.' })
  reference: string | null;

  @ApiProperty() propertyType: string;
  @ApiProperty() city: string;
  @ApiProperty({ type: Number, nullable: true, description: 'Living area.' }) area: number | null;
  @ApiProperty({ description: 'Decimal string.', example: '350000.00' }) price: string;
  @ApiProperty({ example: 'EUR' }) currency: string;
  @ApiProperty({ type: 'integer', nullable: true }) bedrooms: number | null;
  @ApiProperty({ type: Number, nullable: true }) bathrooms: number | null;
  @ApiProperty({ type: String, nullable: true }) mainImageUrl: string | null;
}

export class OpenHouseInvitationView {
  @ApiProperty({ type: String, nullable: true, maxLength: 2000 }) message: string | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'How many may answer `going`.' })
  capacity: number | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'RSVPs close then.' })
  rsvpDeadline: string | null;
}

/** An open house as the page read selects it (with the host's name and RSVP counts). */
export interface OpenHouseRow {
  id: string;
  organization_id: string;
  organization_name: string;
  slug: string;
  property_listing_id: string;
  starts_at: Date | string;
  ends_at: Date | string;
  timezone: string;
  status: 'scheduled' | 'cancelled';
  visibility: 'network' | 'agency';
  host_user_id: string;
  commission_notes: string | null;
  contact_name: string | null;
  contact_phone: string | null;
  invitation: { message?: string | null; capacity?: number | null; rsvpDeadline?: string | null };
  going_count: string;
  my_rsvp: 'going' | 'maybe' | 'not_going' | null;
}

export interface OpenHouseRowJson {
  id: string;
  status: OpenHouseStatus;
  visibility: OpenHouseVisibility;
  startsAt: string;
  endsAt: string;
  timezone: string;
  host: OpenHouseHostView;
  isHost: boolean;
  commissionOffer: string | null;
  commissionNotes: string | null;
  goingCount: number;
  myRsvp: RsvpStatus | null;
  listingRef: OpenHouseListingRefView;
  listing: OpenHouseListingView;
}

export interface OpenHouseJson extends OpenHouseRowJson {
  slug: string;
  disclosedAddress: string | null;
  mapUrl: string | null;
  contactName: string | null;
  contactPhone: string | null;
  hostUserId: string;
  invitation: OpenHouseInvitationView;
}

/** An open house in a list. */
export class OpenHouseRowView implements OpenHouseRowJson {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: OPEN_HOUSE_STATUSES, description: '`ended` once `endsAt` has passed.' })
  status: OpenHouseStatus;

  @ApiProperty({ enum: OPEN_HOUSE_VISIBILITIES, description: '`network`: other agencies see it too.' })
  visibility: OpenHouseVisibility;

  @ApiProperty({ format: 'date-time', description: 'UTC.' }) startsAt: string;
  @ApiProperty({ format: 'date-time', description: 'UTC.' }) endsAt: string;
  @ApiProperty({ example: 'Europe/Madrid', description: 'IANA zone of the event.' }) timezone: string;
  @ApiProperty({ type: OpenHouseHostView }) host: OpenHouseHostView;
  @ApiProperty({ description: 'The caller’s agency holds it.' }) isHost: boolean;
  @ApiProperty({
    type: String,
    nullable: true,
    example: '2.50',
    description: 'The percent the listing offers to the network (decimal string), or null.',
  })
  commissionOffer: string | null;

  @ApiProperty({ type: String, nullable: true, maxLength: 500 }) commissionNotes: string | null;
  @ApiProperty({ type: 'integer', description: 'RSVPs answering `going`.' }) goingCount: number;
  @ApiProperty({ enum: RSVP_STATUSES, nullable: true, description: 'The caller’s answer, or null.' })
  myRsvp: RsvpStatus | null;

  @ApiProperty({ type: OpenHouseListingRefView }) listingRef: OpenHouseListingRefView;
  @ApiProperty({ type: OpenHouseListingView }) listing: OpenHouseListingView;
}

/** An open house with its address, contact and invitation. */
export class OpenHouseView extends OpenHouseRowView implements OpenHouseJson {
  @ApiProperty({ description: 'Random base32.' }) slug: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The listing’s street address while the listing is `ACTIVE`, else null.',
  })
  disclosedAddress: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'A map link, only when the listing shows its exact location.',
  })
  mapUrl: string | null;

  @ApiProperty({ type: String, nullable: true }) contactName: string | null;
  @ApiProperty({ type: String, nullable: true }) contactPhone: string | null;
  @ApiProperty({ format: 'uuid', description: 'The person hosting it.' }) hostUserId: string;
  @ApiProperty({ type: OpenHouseInvitationView }) invitation: OpenHouseInvitationView;
}

export class OpenHouseListView {
  @ApiProperty({ type: [OpenHouseRowView] }) data: OpenHouseRowView[];
  @ApiProperty({ description: 'More events match: narrow the filters.' }) hasMore: boolean;
}

const iso = (value: Date | string): string => new Date(value).toISOString();

/** A row as `/v1` shows it to the viewer (the card is the listing as the viewer may read it). */
export function toOpenHouseRowJson(
  row: OpenHouseRow,
  card: ListingCard,
  viewerOrganizationId: string,
  now: Date,
): OpenHouseRowJson {
  const endsAt = new Date(row.ends_at);
  return {
    id: row.id,
    status: row.status === 'scheduled' && endsAt.getTime() <= now.getTime() ? 'ended' : row.status,
    visibility: row.visibility,
    startsAt: iso(row.starts_at),
    endsAt: endsAt.toISOString(),
    timezone: row.timezone,
    host: { organizationId: row.organization_id, name: row.organization_name },
    isHost: row.organization_id === viewerOrganizationId,
    commissionOffer: card.sharedCommission,
    commissionNotes: row.commission_notes,
    goingCount: Number(row.going_count),
    myRsvp: row.my_rsvp,
    listingRef: { source: 'internal', id: row.property_listing_id },
    listing: {
      title: card.title,
      reference: card.reference,
      propertyType: card.propertyType,
      city: card.city,
      area: card.livingArea,
      price: card.price,
      currency: card.currency,
      bedrooms: card.bedrooms,
      bathrooms: card.bathrooms,
      mainImageUrl: card.mainImageUrl,
    },
  };
}

/** The detail: adds slug, address while ACTIVE, a map link only with `showExactLocation`, contact, invitation. */
export function toOpenHouseJson(
  row: OpenHouseRow,
  card: ListingCard,
  viewerOrganizationId: string,
  now: Date,
): OpenHouseJson {
  const located = card.showExactLocation && card.coordinates !== null;
  return {
    ...toOpenHouseRowJson(row, card, viewerOrganizationId, now),
    slug: row.slug,
    disclosedAddress: card.status === 'ACTIVE' ? card.addressLine1 : null,
    mapUrl: located
      ? `https://www.openstreetmap.org/?mlat=${card.coordinates!.lat}&mlon=${card.coordinates!.lon}`
      : null,
    contactName: row.contact_name,
    contactPhone: row.contact_phone,
    hostUserId: row.host_user_id,
    invitation: {
      message: row.invitation.message ?? null,
      capacity: row.invitation.capacity ?? null,
      rsvpDeadline: row.invitation.rsvpDeadline ?? null,
    },
  };
}
