import { Entity, EntityRepositoryType, PrimaryKey, Property } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';
import { OpenHouseRepository } from './open-house.repository';

/** Stored statuses; `ended` is derived once `endsAt` passes (never stored). */
export const OPEN_HOUSE_STORED_STATUSES = ['scheduled', 'cancelled'] as const;
export const OPEN_HOUSE_STATUSES = ['scheduled', 'cancelled', 'ended'] as const;
export type OpenHouseStoredStatus = (typeof OPEN_HOUSE_STORED_STATUSES)[number];
export type OpenHouseStatus = (typeof OPEN_HOUSE_STATUSES)[number];

/** `network` shows it to other agencies, `agency` only to the own one. */
export const OPEN_HOUSE_VISIBILITIES = ['network', 'agency'] as const;
export type OpenHouseVisibility = (typeof OPEN_HOUSE_VISIBILITIES)[number];

export const RSVP_STATUSES = ['going', 'maybe', 'not_going'] as const;
export type RsvpStatus = (typeof RSVP_STATUSES)[number];

/** Limits (INTERFACES.md "Open houses"). */
export const OPEN_HOUSE_MAX_DURATION_MS = 12 * 60 * 60 * 1000;
export const COMMISSION_NOTES_MAX = 500;
export const INVITATION_MESSAGE_MAX = 2_000;
export const CONTACT_NAME_MAX = 200;
export const CONTACT_PHONE_MAX = 50;
export const CAPACITY_MAX = 10_000;

export interface Invitation {
  message: string | null;
  capacity: number | null;
  /** ISO 8601 instant (UTC). */
  rsvpDeadline: string | null;
}

export interface OpenHouseFields {
  propertyListingId: string;
  startsAt: Date;
  endsAt: Date;
  timezone: string;
  visibility: OpenHouseVisibility;
  hostUserId: string;
  commissionNotes: string | null;
  contactName: string | null;
  contactPhone: string | null;
  invitation: Invitation;
}

/** A random base32 (RFC 4648, lower case) string of `length` characters. */
export function randomBase32(length: number, bytes: Uint8Array): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[bytes[i]! % 32];
  return out;
}

/**
 * An open house (spec: Open house): a listing of the agency shown on a date, to its own agency or
 * to the network, with RSVPs (table `open_house_rsvps`, read by SQL).
 */
@Entity({ tableName: 'open_houses', repository: () => OpenHouseRepository })
export class OpenHouse {
  [EntityRepositoryType]?: OpenHouseRepository;

  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  @Property({ type: 'uuid' })
  organizationId: string;

  @Property({ type: 'text' })
  slug: string;

  @Property({ type: 'uuid' })
  propertyListingId: string;

  @Property({ type: 'datetime' })
  startsAt: Date;

  @Property({ type: 'datetime' })
  endsAt: Date;

  @Property({ type: 'text' })
  timezone: string;

  @Property({ type: 'text' })
  status: OpenHouseStoredStatus = 'scheduled';

  @Property({ type: 'text' })
  visibility: OpenHouseVisibility;

  @Property({ type: 'uuid' })
  hostUserId: string;

  @Property({ type: 'text', nullable: true })
  commissionNotes: string | null = null;

  @Property({ type: 'text', nullable: true })
  contactName: string | null = null;

  @Property({ type: 'text', nullable: true })
  contactPhone: string | null = null;

  @Property({ type: 'json' })
  invitation: Invitation = { message: null, capacity: null, rsvpDeadline: null };

  @Property({ type: 'uuid' })
  createdBy: string;

  @Property({ type: 'datetime' })
  createdAt: Date;

  @Property({ type: 'datetime' })
  updatedAt: Date;

  constructor(organizationId: string, createdBy: string, slug: string, fields: OpenHouseFields, now: Date) {
    this.organizationId = organizationId;
    this.createdBy = createdBy;
    this.slug = slug;
    this.propertyListingId = fields.propertyListingId;
    this.startsAt = fields.startsAt;
    this.endsAt = fields.endsAt;
    this.timezone = fields.timezone;
    this.visibility = fields.visibility;
    this.hostUserId = fields.hostUserId;
    this.commissionNotes = fields.commissionNotes;
    this.contactName = fields.contactName;
    this.contactPhone = fields.contactPhone;
    this.invitation = fields.invitation;
    this.createdAt = now;
    this.updatedAt = now;
  }

  /** The status as shown: `ended` once `endsAt` has passed (a cancelled one stays cancelled). */
  statusAt(now: Date): OpenHouseStatus {
    return this.status === 'scheduled' && this.endsAt.getTime() <= now.getTime() ? 'ended' : this.status;
  }

  change(fields: OpenHouseFields, now: Date): void {
    Object.assign(this, fields);
    this.updatedAt = now;
  }

  cancel(now: Date): void {
    this.status = 'cancelled';
    this.updatedAt = now;
  }
}
