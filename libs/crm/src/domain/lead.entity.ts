import { EntityRepositoryType, ArrayType, BigIntType, Entity, PrimaryKey, Property } from '@mikro-orm/core';
import { phoneKey } from './contact-keys';
import { LeadRepository } from './lead.repository';

export const CRM_STATUSES = ['lead', 'potential', 'bad_timing', 'client', 'unqualified'] as const;
export type CrmStatus = (typeof CRM_STATUSES)[number];

export type LeadContactField = 'firstName' | 'lastName' | 'email' | 'phoneNumber' | 'companyName';

export const LEAD_TYPES = ['buyer', 'seller', 'tenant', 'landlord', 'investor', 'other'] as const;

/** What the person agreed to when their details were captured (lead intake). */
export interface LeadConsent {
  contact: boolean;
  marketing: boolean;
  capturedAt: string;
  wording: string | null;
}

/** What a lead intake knows of a person; a matched lead takes only what it lacks. */
export interface IntakeDetails {
  firstName?: string;
  lastName?: string;
  email?: string;
  phoneNumber?: string;
  language?: string;
  leadType?: string;
  origin: string;
  country?: string;
  growthAreaId?: string;
  consent?: LeadConsent;
}

/** A person the agency works with. Integer id; a member reaches it only while assigned. */
@Entity({ tableName: 'leads', repository: () => LeadRepository })
export class Lead {
  [EntityRepositoryType]?: LeadRepository;

  @PrimaryKey({ type: new BigIntType('number'), autoincrement: true })
  id: number;

  @Property({ type: 'uuid' })
  organizationId: string;

  @Property({ type: 'text' })
  firstName: string;

  @Property({ type: 'text' })
  lastName: string;

  @Property({ type: 'text' })
  email: string;

  @Property({ type: 'text' })
  phoneNumber: string;

  @Property({ type: 'text', nullable: true })
  language: string | null = null;

  @Property({ type: 'text', nullable: true })
  companyName: string | null = null;

  @Property({ type: 'text' })
  crmStatus: CrmStatus;

  @Property({ type: ArrayType })
  assigneeIds: string[] = [];

  @Property({ type: ArrayType })
  tagIds: string[] = [];

  @Property({ type: 'text' })
  source: string = 'api';

  @Property({ type: 'text', nullable: true })
  leadType: string | null = null;

  @Property({ type: 'text', nullable: true })
  leadGroup: string | null = null;

  @Property({ type: 'datetime' })
  purchasedAt: Date;

  /** The phone's match key (contact-keys.ts): E.164, or the digits of a number that does not parse. */
  @Property({ type: 'text', nullable: true })
  phoneKey: string | null = null;

  /** How the lead reached the agency: `portal:idealista`, `other:<connector>`; null for leads made on `/v1`. */
  @Property({ type: 'text', nullable: true })
  origin: string | null = null;

  @Property({ type: 'json', nullable: true })
  consent: LeadConsent | null = null;

  /** ISO 3166-1 alpha-2, as an intake gave it (a routing fact). */
  @Property({ type: 'text', nullable: true })
  country: string | null = null;

  @Property({ type: 'uuid', nullable: true })
  growthAreaId: string | null = null;

  /**
   * 1 on create, +1 per change (an event's `recordVersion`, issue 19): raised in SQL by the CRM's
   * events (`version = version + 1`), so this copy is the value as loaded.
   */
  @Property({ type: 'integer' })
  version: number = 1;

  @Property({ type: 'datetime' })
  createdAt: Date;

  @Property({ type: 'datetime' })
  updatedAt: Date;

  constructor(
    props: {
      organizationId: string;
      firstName: string;
      lastName: string;
      email: string;
      phoneNumber: string;
      crmStatus: CrmStatus;
      companyName?: string | null;
      language?: string | null;
      assigneeIds: string[];
    },
    now: Date,
  ) {
    this.organizationId = props.organizationId;
    this.firstName = props.firstName;
    this.lastName = props.lastName;
    this.email = props.email;
    this.phoneNumber = props.phoneNumber;
    this.phoneKey = phoneKey(props.phoneNumber);
    this.crmStatus = props.crmStatus;
    this.companyName = props.companyName ?? null;
    this.language = props.language ?? null;
    this.assigneeIds = [...new Set(props.assigneeIds)];
    this.purchasedAt = now;
    this.createdAt = now;
    this.updatedAt = now;
  }

  /** null or "" clears (INTERFACES.md); names, email and phone clear to "" since they are never null. */
  changeContact(changes: Partial<Record<LeadContactField, string | null>>, now: Date): void {
    for (const [field, value] of Object.entries(changes) as [LeadContactField, string | null | undefined][]) {
      if (value === undefined) continue;
      if (field === 'companyName') this.companyName = value ? value : null;
      else this[field] = value ?? '';
    }
    this.phoneKey = phoneKey(this.phoneNumber);
    this.updatedAt = now;
  }

  /** A new lead from a connector's intake: status `lead`, unassigned until routing decides. */
  static fromIntake(organizationId: string, source: string, details: IntakeDetails, now: Date): Lead {
    const lead = new Lead(
      {
        organizationId,
        firstName: details.firstName ?? '',
        lastName: details.lastName ?? '',
        email: details.email ?? '',
        phoneNumber: details.phoneNumber ?? '',
        crmStatus: 'lead',
        language: details.language ?? null,
        assigneeIds: [],
      },
      now,
    );
    lead.source = source;
    lead.leadType = details.leadType ?? null;
    lead.origin = details.origin;
    lead.country = details.country ?? null;
    lead.growthAreaId = details.growthAreaId ?? null;
    lead.consent = details.consent ?? null;
    return lead;
  }

  /**
   * A later intake of the same person: only the lead's empty fields are filled (owners, status and
   * everything set stay); a consent captured later than the stored one replaces it. Returns the
   * fields it filled.
   */
  fillFromIntake(details: IntakeDetails, now: Date): string[] {
    const filled: string[] = [];
    const fill = <K extends 'firstName' | 'lastName' | 'email' | 'phoneNumber'>(field: K) => {
      const value = details[field];
      if (value && !this[field]) {
        this[field] = value;
        filled.push(field);
      }
    };
    (['firstName', 'lastName', 'email', 'phoneNumber'] as const).forEach(fill);
    const fillNullable = <K extends 'language' | 'leadType' | 'origin' | 'country' | 'growthAreaId'>(
      field: K,
    ) => {
      const value = details[field];
      if (value && this[field] === null) {
        this[field] = value;
        filled.push(field);
      }
    };
    (['language', 'leadType', 'origin', 'country', 'growthAreaId'] as const).forEach(fillNullable);
    if (details.consent && (!this.consent || details.consent.capturedAt > this.consent.capturedAt)) {
      this.consent = details.consent;
      filled.push('consent');
    }
    if (filled.length > 0) {
      this.phoneKey = phoneKey(this.phoneNumber);
      this.updatedAt = now;
    }
    return filled;
  }

  /** Returns the previous status; no restriction on which status may follow which. */
  changeStatus(status: CrmStatus, now: Date): CrmStatus {
    const from = this.crmStatus;
    this.crmStatus = status;
    this.updatedAt = now;
    return from;
  }

  setTags(tagIds: string[], now: Date): void {
    this.tagIds = [...new Set(tagIds)];
    this.updatedAt = now;
  }

  /** Replaces the owners; returns who was added and removed. */
  replaceAssignees(userIds: string[], now: Date): { added: string[]; removed: string[] } {
    const next = [...new Set(userIds)];
    const added = next.filter((id) => !this.assigneeIds.includes(id));
    const removed = this.assigneeIds.filter((id) => !next.includes(id));
    this.assigneeIds = next;
    this.updatedAt = now;
    return { added, removed };
  }

  addAssignees(userIds: string[], now: Date): { added: string[]; removed: string[] } {
    return this.replaceAssignees([...this.assigneeIds, ...userIds], now);
  }
}
