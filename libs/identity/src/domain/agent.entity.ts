import { Entity, EntityRepositoryType, PrimaryKey, Property } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';
import { AgentRepository } from './agent.repository';

/** The account behind a member's row (a User, as the roster reads it). */
export interface AgentAccount {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  imageUrl: string | null;
}

/** The public fields of a row: a member sets their own, an admin any row's. */
export interface AgentPublicFields {
  displayEmail?: string | null;
  phoneNumber?: string | null;
  whatsappNumber?: string | null;
  description?: string | null;
  title?: string | null;
  avatarUrl?: string | null;
  avatarThumbnailUrl?: string | null;
  shareContactOnNetwork?: boolean;
}

/** What an admin sets on any row (names and `isActive` of a standalone row only). */
export interface AgentChanges extends AgentPublicFields {
  firstName?: string | null;
  lastName?: string | null;
  additionalInfo?: Record<string, unknown> | null;
  isActive?: boolean;
}

export const AGENT_PUBLIC_FIELDS = [
  'displayEmail',
  'phoneNumber',
  'whatsappNumber',
  'description',
  'title',
  'avatarUrl',
  'avatarThumbnailUrl',
  'shareContactOnNetwork',
] as const satisfies readonly (keyof AgentPublicFields)[];

const AGENT_CHANGEABLE_FIELDS = [
  ...AGENT_PUBLIC_FIELDS,
  'firstName',
  'lastName',
  'additionalInfo',
  'isActive',
] as const satisfies readonly (keyof AgentChanges)[];

/**
 * A row of the agent roster (spec "Agent"): one per member of the agency (`clerkUserId` the
 * person's id, names kept in step, inactive once they leave) plus standalone agents an admin adds.
 * A listing names its agent by this row's `id`.
 */
@Entity({ tableName: 'agents', repository: () => AgentRepository })
export class Agent {
  [EntityRepositoryType]?: AgentRepository;

  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  @Property({ type: 'uuid' })
  organizationId: string;

  /** The member behind the row; null for a standalone agent (field name is the spec's). */
  @Property({ type: 'uuid', nullable: true })
  clerkUserId: string | null = null;

  @Property({ type: 'text', nullable: true })
  firstName: string | null = null;

  @Property({ type: 'text', nullable: true })
  lastName: string | null = null;

  @Property({ type: 'text', nullable: true })
  avatarUrl: string | null = null;

  @Property({ type: 'text', nullable: true })
  avatarThumbnailUrl: string | null = null;

  @Property({ type: 'text', nullable: true })
  displayEmail: string | null = null;

  @Property({ type: 'text', nullable: true })
  phoneNumber: string | null = null;

  @Property({ type: 'text', nullable: true })
  whatsappNumber: string | null = null;

  @Property({ type: 'text', nullable: true })
  description: string | null = null;

  @Property({ type: 'text', nullable: true })
  title: string | null = null;

  @Property({ type: 'boolean' })
  isActive: boolean = true;

  @Property({ type: 'boolean' })
  shareContactOnNetwork: boolean = false;

  @Property({ type: 'json', nullable: true })
  additionalInfo: Record<string, unknown> | null = null;

  @Property({ type: 'datetime' })
  createdAt: Date;

  @Property({ type: 'datetime' })
  updatedAt: Date;

  constructor(organizationId: string, now: Date) {
    this.organizationId = organizationId;
    this.createdAt = now;
    this.updatedAt = now;
  }

  get isClerkLinked(): boolean {
    return this.clerkUserId !== null;
  }

  /** A member's row, made with the membership: their account's names, email and picture. */
  static ofMember(organizationId: string, account: AgentAccount, now: Date): Agent {
    const agent = new Agent(organizationId, now);
    agent.clerkUserId = account.id;
    agent.firstName = account.firstName;
    agent.lastName = account.lastName;
    agent.displayEmail = account.email;
    agent.avatarUrl = account.imageUrl;
    return agent;
  }

  /** A standalone agent an admin adds (no account behind it). */
  static standalone(organizationId: string, changes: AgentChanges, now: Date): Agent {
    const agent = new Agent(organizationId, now);
    agent.change(changes, now);
    return agent;
  }

  /** The person left the agency: the row stays (listings may name it) but leaves the pickers. */
  memberLeft(now: Date): void {
    if (!this.isActive) return;
    this.isActive = false;
    this.updatedAt = now;
  }

  /** The person is back in the agency: active again, names from the account; public fields kept. */
  memberBack(account: AgentAccount, now: Date): void {
    this.isActive = true;
    this.accountNamed(account, now);
  }

  /** A linked row's names are always its account's. */
  accountNamed(account: Pick<AgentAccount, 'firstName' | 'lastName'>, now: Date): void {
    this.firstName = account.firstName;
    this.lastName = account.lastName;
    this.updatedAt = now;
  }

  /** Sets the fields given (`undefined` keeps); the caller has checked who may change what. */
  change(changes: AgentChanges, now: Date): void {
    for (const field of AGENT_CHANGEABLE_FIELDS) {
      const value = changes[field];
      if (value !== undefined) Object.assign(this, { [field]: value });
    }
    this.updatedAt = now;
  }
}
