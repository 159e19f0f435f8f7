import { EntityRepositoryType, ArrayType, BigIntType, Entity, PrimaryKey, Property } from '@mikro-orm/core';
import { LeadRepository } from './lead.repository';

export const CRM_STATUSES = ['lead', 'potential', 'bad_timing', 'client', 'unqualified'] as const;
export type CrmStatus = (typeof CRM_STATUSES)[number];

export type LeadContactField = 'firstName' | 'lastName' | 'email' | 'phoneNumber' | 'companyName';

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

  /** Kept by the calls context in the same transaction as each stored call. */
  @Property({ type: 'integer' })
  totalCalls: number = 0;

  @Property({ type: 'datetime', nullable: true })
  lastCallAt: Date | null = null;

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
    this.updatedAt = now;
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
