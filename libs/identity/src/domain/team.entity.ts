import { ArrayType, Entity, EntityRepositoryType, PrimaryKey, Property } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';
import { TeamRepository } from './team.repository';

/** A group of members; deleting archives it (hidden from `/v1/teams`). */
@Entity({ tableName: 'teams', repository: () => TeamRepository })
export class Team {
  [EntityRepositoryType]?: TeamRepository;

  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  @Property({ type: 'uuid' })
  organizationId: string;

  @Property({ type: 'text' })
  name: string;

  @Property({ type: 'text', nullable: true })
  color: string | null = null;

  @Property({ type: ArrayType })
  memberIds: string[] = [];

  @Property({ type: 'datetime', nullable: true })
  archivedAt: Date | null = null;

  @Property({ type: 'datetime' })
  createdAt: Date;

  @Property({ type: 'datetime' })
  updatedAt: Date;

  constructor(
    props: { organizationId: string; name: string; color?: string | null; memberIds?: string[] },
    now: Date,
  ) {
    this.organizationId = props.organizationId;
    this.name = props.name;
    this.color = props.color ?? null;
    this.memberIds = [...new Set(props.memberIds ?? [])];
    this.createdAt = now;
    this.updatedAt = now;
  }

  change(props: { name?: string; color?: string | null; memberIds?: string[] }, now: Date): void {
    if (props.name !== undefined) this.name = props.name;
    if (props.color !== undefined) this.color = props.color;
    if (props.memberIds !== undefined) this.memberIds = [...new Set(props.memberIds)];
    this.updatedAt = now;
  }

  removeMember(userId: string, now: Date): void {
    if (!this.memberIds.includes(userId)) return;
    this.memberIds = this.memberIds.filter((id) => id !== userId);
    this.updatedAt = now;
  }

  archive(now: Date): void {
    if (this.archivedAt) return;
    this.archivedAt = now;
    this.updatedAt = now;
  }
}
