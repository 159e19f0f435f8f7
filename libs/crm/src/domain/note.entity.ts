import { EntityRepositoryType, BigIntType, Entity, PrimaryKey, Property } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';
import { NoteRepository } from './note.repository';

@Entity({ tableName: 'notes', repository: () => NoteRepository })
export class Note {
  [EntityRepositoryType]?: NoteRepository;

  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  @Property({ type: 'uuid' })
  organizationId: string;

  @Property({ type: new BigIntType('number') })
  leadId: number;

  @Property({ type: 'uuid' })
  authorId: string;

  @Property({ type: 'text' })
  content: string;

  @Property({ type: 'boolean' })
  isPinned: boolean = false;

  @Property({ type: 'datetime', nullable: true })
  occurredAt: Date | null = null;

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
    props: { organizationId: string; leadId: number; authorId: string; content: string },
    now: Date,
  ) {
    this.organizationId = props.organizationId;
    this.leadId = props.leadId;
    this.authorId = props.authorId;
    this.content = props.content;
    this.createdAt = now;
    this.updatedAt = now;
  }

  edit(content: string, now: Date): void {
    this.content = content;
    this.updatedAt = now;
  }

  /** Spec: a member deletes only own notes, an admin any. */
  isDeletableBy(userId: string, admin: boolean): boolean {
    return admin || this.authorId === userId;
  }
}
