import { Entity, EntityRepositoryType, PrimaryKey, Property } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';
import { HOUR } from '@app/platform/core';
import { SessionRepository } from './session.repository';

export const SESSION_LIFETIME_MS = 12 * HOUR;

/** A dashboard sign-in. The token is random and stored only as its SHA-256. */
@Entity({ tableName: 'sessions', repository: () => SessionRepository })
export class Session {
  [EntityRepositoryType]?: SessionRepository;

  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  @Property({ type: 'text' })
  tokenHash: string;

  @Property({ type: 'uuid' })
  userId: string;

  @Property({ type: 'uuid' })
  organizationId: string;

  @Property({ type: 'datetime' })
  expiresAt: Date;

  @Property({ type: 'datetime', nullable: true })
  revokedAt: Date | null = null;

  @Property({ type: 'datetime' })
  createdAt: Date;

  constructor(props: { tokenHash: string; userId: string; organizationId: string }, now: Date) {
    this.tokenHash = props.tokenHash;
    this.userId = props.userId;
    this.organizationId = props.organizationId;
    this.createdAt = now;
    this.expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS);
  }

  revoke(now: Date): void {
    this.revokedAt ??= now;
  }
}
