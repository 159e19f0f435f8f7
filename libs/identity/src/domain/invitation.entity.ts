import { Entity, EntityRepositoryType, PrimaryKey, Property } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';
import { DAY, DomainError, type Role } from '@app/platform/core';
import { normalizeEmail } from './user.entity';
import { InvitationRepository } from './invitation.repository';

export const INVITATION_LIFETIME_MS = 7 * DAY;

/** An admin's invitation to join the agency; the token works once, for 7 days. */
@Entity({ tableName: 'invitations', repository: () => InvitationRepository })
export class Invitation {
  [EntityRepositoryType]?: InvitationRepository;

  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  @Property({ type: 'uuid' })
  organizationId: string;

  @Property({ type: 'text' })
  email: string;

  @Property({ type: 'text' })
  role: Role;

  @Property({ type: 'text' })
  tokenHash: string;

  @Property({ type: 'uuid' })
  invitedById: string;

  @Property({ type: 'datetime' })
  expiresAt: Date;

  @Property({ type: 'datetime', nullable: true })
  acceptedAt: Date | null = null;

  @Property({ type: 'datetime' })
  createdAt: Date;

  constructor(
    props: { organizationId: string; email: string; role: Role; tokenHash: string; invitedById: string },
    now: Date,
  ) {
    this.organizationId = props.organizationId;
    this.email = normalizeEmail(props.email);
    this.role = props.role;
    this.tokenHash = props.tokenHash;
    this.invitedById = props.invitedById;
    this.createdAt = now;
    this.expiresAt = new Date(now.getTime() + INVITATION_LIFETIME_MS);
  }

  /** A used or expired invitation answers 410 (INTERFACES.md). */
  refuseIfEnded(now: Date): void {
    if (this.acceptedAt) throw new DomainError('GONE', 'This invitation was already used.');
    if (this.expiresAt <= now) throw new DomainError('GONE', 'This invitation has expired.');
  }

  accept(now: Date): void {
    this.refuseIfEnded(now);
    this.acceptedAt = now;
  }
}
