import { ArrayType, Entity, EntityRepositoryType, PrimaryKey, Property } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';
import type { QueueDefinition, QueuePeople, QueueScope } from './queue-definition';
import { QueueRepository } from './queue.repository';
import { SYSTEM_QUEUE_DEFINITION } from './system-queue';

/** What `definition` (jsonb) keeps: the definition without the columns name, icon and scope. */
export type StoredDefinition = Omit<QueueDefinition, 'name' | 'icon' | 'scope'>;

const stored = (definition: QueueDefinition): StoredDefinition => ({
  root: definition.root,
  lanes: definition.lanes,
  rest: definition.rest,
  sort: definition.sort,
  calling: definition.calling,
  rules: definition.rules,
});

/**
 * A queue (spec "Queue"): a saved call view of its creator, private or shared, or the system
 * queue every organization has. Who may open, change or share it is decided here
 * (INTERFACES.md "Queues" → Routes).
 */
@Entity({ tableName: 'queues', repository: () => QueueRepository })
export class Queue {
  [EntityRepositoryType]?: QueueRepository;

  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  @Property({ type: 'uuid' })
  organizationId: string;

  /** Null for the system queue. */
  @Property({ type: 'uuid', nullable: true })
  createdBy: string | null;

  @Property({ type: 'text' })
  name: string;

  @Property({ type: 'text' })
  icon: string;

  @Property({ type: 'text' })
  scope: QueueScope;

  @Property({ type: 'boolean' })
  system: boolean = false;

  @Property({ type: 'json' })
  definition: StoredDefinition;

  @Property({ type: ArrayType })
  audienceUserIds: string[] = [];

  @Property({ type: ArrayType })
  audienceTeamIds: string[] = [];

  @Property({ type: 'datetime' })
  createdAt: Date;

  @Property({ type: 'datetime' })
  updatedAt: Date;

  constructor(organizationId: string, createdBy: string, definition: QueueDefinition, now: Date) {
    this.organizationId = organizationId;
    this.createdBy = createdBy;
    this.createdAt = now;
    this.apply(definition, now);
  }

  /** The whole definition, name, icon and scope included (the system queue's from code). */
  get fullDefinition(): QueueDefinition {
    if (this.system) return SYSTEM_QUEUE_DEFINITION;
    return { name: this.name, icon: this.icon, scope: this.scope, ...this.definition };
  }

  /** A new (validated) definition replaces the old; a queue made private loses its audience. */
  apply(definition: QueueDefinition, now: Date): void {
    this.name = definition.name;
    this.icon = definition.icon;
    this.scope = definition.scope;
    this.definition = stored(definition);
    if (definition.scope === 'private') {
      this.audienceUserIds = [];
      this.audienceTeamIds = [];
    }
    this.updatedAt = now;
  }

  setAudience(audience: QueuePeople, now: Date): void {
    this.audienceUserIds = audience.userIds;
    this.audienceTeamIds = audience.teamIds;
    this.updatedAt = now;
  }

  isOwnedBy(userId: string): boolean {
    return this.createdBy === userId;
  }

  /**
   * Who opens it: the system queue everyone; a private queue only its creator (admins included);
   * a shared one its creator and its audience (empty lists = the whole agency). `teamIds`: the
   * live teams the person is in.
   */
  isOpenableBy(userId: string, teamIds: readonly string[]): boolean {
    if (this.system || this.isOwnedBy(userId)) return true;
    if (this.scope !== 'shared') return false;
    if (this.audienceUserIds.length === 0 && this.audienceTeamIds.length === 0) return true;
    return this.audienceUserIds.includes(userId) || this.audienceTeamIds.some((id) => teamIds.includes(id));
  }

  /** A team pool's people: named directly or through one of their teams. */
  isInCallingTeam(userId: string, teamIds: readonly string[]): boolean {
    const people = this.definition.calling.pool === 'team' ? this.definition.calling.people : null;
    if (!people) return false;
    return people.userIds.includes(userId) || people.teamIds.some((id) => teamIds.includes(id));
  }
}
