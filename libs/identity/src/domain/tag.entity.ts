import { ArrayType, Entity, EntityRepositoryType, PrimaryKey, Property } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';
import { TagRepository } from './tag.repository';

export const DEFAULT_TAG_COLOR = '#6B7280';

/** A label for leads. Deleting archives it; archived tags leave `/v1/tags` and the pickers. */
@Entity({ tableName: 'tags', repository: () => TagRepository })
export class Tag {
  [EntityRepositoryType]?: TagRepository;

  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  @Property({ type: 'uuid' })
  organizationId: string;

  @Property({ type: 'text' })
  name: string;

  @Property({ type: 'text' })
  color: string;

  @Property({ type: 'uuid' })
  createdBy: string;

  @Property({ type: 'datetime', nullable: true })
  archivedAt: Date | null = null;

  @Property({ type: ArrayType })
  assigneeIds: string[] = [];

  @Property({ type: ArrayType })
  teamIds: string[] = [];

  @Property({ type: 'datetime' })
  createdAt: Date;

  @Property({ type: 'datetime' })
  updatedAt: Date;

  constructor(props: { organizationId: string; name: string; color?: string; createdBy: string }, now: Date) {
    this.organizationId = props.organizationId;
    this.name = props.name;
    this.color = props.color ?? DEFAULT_TAG_COLOR;
    this.createdBy = props.createdBy;
    this.createdAt = now;
    this.updatedAt = now;
  }

  change(props: { name?: string; color?: string }, now: Date): void {
    if (props.name !== undefined) this.name = props.name;
    if (props.color !== undefined) this.color = props.color;
    this.updatedAt = now;
  }

  archive(now: Date): void {
    if (this.archivedAt) return;
    this.archivedAt = now;
    this.updatedAt = now;
  }
}
