import { Entity, EntityRepositoryType, PrimaryKey, Property } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';
import { UserRepository } from './user.repository';

export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** A person who signs in. Email unique whatever its case; password stored as an Argon2id hash. */
@Entity({ tableName: 'users', repository: () => UserRepository })
export class User {
  [EntityRepositoryType]?: UserRepository;

  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  @Property({ type: 'text' })
  email: string;

  @Property({ type: 'text', hidden: true, lazy: true })
  passwordHash: string;

  @Property({ type: 'text' })
  firstName: string;

  @Property({ type: 'text' })
  lastName: string;

  @Property({ type: 'text', nullable: true })
  imageUrl: string | null = null;

  @Property({ type: 'datetime' })
  createdAt: Date;

  @Property({ type: 'datetime' })
  updatedAt: Date;

  constructor(
    props: { email: string; passwordHash: string; firstName: string; lastName: string },
    now: Date,
  ) {
    this.email = normalizeEmail(props.email);
    this.passwordHash = props.passwordHash;
    this.firstName = props.firstName;
    this.lastName = props.lastName;
    this.createdAt = now;
    this.updatedAt = now;
  }

  /** Back in an agency after leaving one: new password and name, same person id. */
  rejoin(props: { passwordHash: string; firstName: string; lastName: string }, now: Date): void {
    this.passwordHash = props.passwordHash;
    this.firstName = props.firstName;
    this.lastName = props.lastName;
    this.updatedAt = now;
  }

  get fullName(): string {
    return `${this.firstName} ${this.lastName}`.trim();
  }
}
