import { Entity, EntityRepositoryType, PrimaryKey, Property } from '@mikro-orm/core';
import { randomBytes } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { sha256 } from '@app/platform/core';
import { IntegrationKeyRepository } from './integration-key.repository';

export const INTEGRATION_PREFIX_HINT_LENGTH = 12;
/** A connector's slug: `aircall`, `idealista-portal`. */
export const CONNECTOR_PATTERN = /^[a-z0-9][a-z0-9-]{0,39}$/;

export type IntegrationKeyStatus = 'active' | 'revoked';

/** `svc_int_` + 32 lower-case hex characters (16 bytes from the CSPRNG). */
const newSecret = (): string => `svc_int_${randomBytes(16).toString('hex')}`;

/**
 * A connector's key. It belongs to the organization (no owner, scopes or plan) and opens only
 * `/integrations/v1`; the secret is kept as its SHA-256 plus its first 12 characters and shown once.
 */
@Entity({ tableName: 'integration_keys', repository: () => IntegrationKeyRepository })
export class IntegrationKey {
  [EntityRepositoryType]?: IntegrationKeyRepository;

  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  @Property({ type: 'uuid' })
  organizationId: string;

  @Property({ type: 'text' })
  name: string;

  @Property({ type: 'text' })
  connector: string;

  @Property({ type: 'text', hidden: true })
  keyHash: string;

  @Property({ type: 'text' })
  prefixHint: string;

  /** Who issued it (an admin); the key does not act as them. */
  @Property({ type: 'uuid' })
  createdById: string;

  @Property({ type: 'datetime' })
  createdAt: Date;

  @Property({ type: 'datetime', nullable: true })
  lastUsedAt: Date | null = null;

  @Property({ type: 'datetime', nullable: true })
  revokedAt: Date | null = null;

  /** The secret, readable on a just-issued key only; never stored. */
  readonly secret?: string;

  private constructor(
    props: { organizationId: string; name: string; connector: string; createdById: string },
    secret: string,
    now: Date,
  ) {
    this.organizationId = props.organizationId;
    this.name = props.name;
    this.connector = props.connector;
    this.createdById = props.createdById;
    this.keyHash = sha256(secret);
    this.prefixHint = secret.slice(0, INTEGRATION_PREFIX_HINT_LENGTH);
    this.createdAt = now;
    this.secret = secret;
  }

  static issue(
    props: { organizationId: string; name: string; connector: string; createdById: string },
    now: Date,
  ): IntegrationKey {
    return new IntegrationKey(props, newSecret(), now);
  }

  get status(): IntegrationKeyStatus {
    return this.revokedAt ? 'revoked' : 'active';
  }

  /** Revoking twice keeps the first date. */
  revoke(now: Date): void {
    this.revokedAt ??= now;
  }
}
