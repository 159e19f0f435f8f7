import { Entity, EntityRepositoryType, PrimaryKey, Property } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';
import { AgentRepository } from './agent.repository';

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
}
