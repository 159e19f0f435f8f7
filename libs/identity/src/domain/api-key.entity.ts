import { ArrayType, Entity, EntityRepositoryType, PrimaryKey, Property } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';
import {
  DAY,
  DomainError,
  randomAlphanumeric,
  RESERVED_SCOPE,
  sha256,
  type GrantableScope,
  type Role,
  type Scope,
} from '@app/platform/core';
import { ApiKeyRepository } from './api-key.repository';
import {
  acceptsCallsAt,
  assertGrantable,
  assertNotReserved,
  defaultScopes,
  isLegacyKey,
  keyStatusAt,
  parseAllowedOrigins,
  parseExpiry,
  refuseWebsitesWithServerScopes,
  rotationGraceEndsAt,
  type ApiKeyStatus,
} from './api-key.rules';

export const PREFIX_HINT_LENGTH = 12;

/** Who acts on a key: the person and their current role in the agency. */
export interface KeyActor {
  organizationId: string;
  userId: string;
  role: Role;
}

/** A key as the dashboard asks for it. */
export interface NewApiKey {
  name: string;
  scopes?: GrantableScope[];
  allowedOrigins?: string[];
  expiresInDays?: number;
}

/** A change of a key as sent; every field optional, `expiresAt: null` removes the expiry. */
export interface ApiKeyChange {
  name?: string;
  scopes?: Scope[];
  expiresAt?: string | null;
  allowedOrigins?: string[];
}

const keyNotYours = () => new DomainError('API_KEY_NOT_YOURS', 'Only the key owner can do this.');

const newSecret = (): string => `svc_pk_${randomAlphanumeric(32)}`;

/**
 * An integrator's key. It acts as the person who made it; the secret is kept only as a SHA-256
 * plus its first 12 characters and is shown once, on creation or rotation.
 */
@Entity({ tableName: 'api_keys', repository: () => ApiKeyRepository })
export class ApiKey {
  [EntityRepositoryType]?: ApiKeyRepository;

  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  @Property({ type: 'uuid' })
  organizationId: string;

  @Property({ type: 'text' })
  name: string;

  @Property({ type: 'text', hidden: true })
  secretHash: string;

  @Property({ type: 'text', nullable: true })
  prefixHint: string | null;

  @Property({ type: 'boolean' })
  legacy: boolean = false;

  @Property({ type: 'boolean' })
  system: boolean = false;

  @Property({ type: ArrayType })
  scopes: Scope[];

  @Property({ type: ArrayType })
  allowedOrigins: string[] = [];

  @Property({ type: 'integer', nullable: true })
  rateLimitPerMinute: number | null = null;

  /** The owner; null for a key nobody owns (refused on `/v1`). */
  @Property({ type: 'uuid', nullable: true })
  createdById: string | null;

  @Property({ type: 'datetime' })
  createdAt: Date;

  @Property({ type: 'datetime' })
  lineageCreatedAt: Date;

  @Property({ type: 'datetime', nullable: true })
  expiresAt: Date | null = null;

  @Property({ type: 'datetime', nullable: true })
  revokedAt: Date | null = null;

  @Property({ type: 'uuid', nullable: true })
  rotatedToId: string | null = null;

  @Property({ type: 'uuid', nullable: true })
  rotatedFromId: string | null = null;

  @Property({ type: 'datetime', nullable: true })
  graceUntil: Date | null = null;

  @Property({ type: 'datetime', nullable: true })
  ownerLeftAt: Date | null = null;

  @Property({ type: 'datetime', nullable: true })
  lastUsedAt: Date | null = null;

  @Property({ type: 'text', nullable: true })
  lastUsedIp: string | null = null;

  @Property({ type: 'text', nullable: true })
  lastUsedUserAgent: string | null = null;

  @Property({ type: 'bigint', nullable: false })
  usageCount: string | number = 0;

  @Property({ type: 'datetime' })
  updatedAt: Date;

  private constructor(
    props: {
      organizationId: string;
      name: string;
      scopes: Scope[];
      allowedOrigins: string[];
      createdById: string | null;
      expiresAt: Date | null;
      lineageCreatedAt?: Date;
    },
    readonly secret: string,
    now: Date,
  ) {
    this.organizationId = props.organizationId;
    this.name = props.name;
    this.scopes = props.scopes;
    this.allowedOrigins = props.allowedOrigins;
    this.createdById = props.createdById;
    this.expiresAt = props.expiresAt;
    this.secretHash = sha256(secret);
    this.prefixHint = secret.slice(0, PREFIX_HINT_LENGTH);
    this.createdAt = now;
    this.lineageCreatedAt = props.lineageCreatedAt ?? now;
    this.updatedAt = now;
  }

  /** A new key; `secret` is readable on the returned object only, never stored. */
  static create(
    props: {
      organizationId: string;
      ownerId: string;
      name: string;
      scopes: Scope[];
      allowedOrigins: string[];
      expiresInDays?: number;
    },
    now: Date,
  ): ApiKey {
    const expiresAt = props.expiresInDays ? new Date(now.getTime() + props.expiresInDays * DAY) : null;
    return new ApiKey({ ...props, createdById: props.ownerId, expiresAt }, newSecret(), now);
  }

  /**
   * A key the actor asks for, owned by them: their role's default scopes when none are sent, the
   * admin-only scopes only from an admin, websites only on a key without server scopes.
   */
  static issue(owner: KeyActor, input: NewApiKey, now: Date): ApiKey {
    const scopes: Scope[] = input.scopes?.length ? input.scopes : defaultScopes(owner.role);
    assertGrantable(owner.role, scopes);
    const allowedOrigins = parseAllowedOrigins(input.allowedOrigins ?? []);
    refuseWebsitesWithServerScopes(scopes, allowedOrigins);
    return ApiKey.create(
      {
        organizationId: owner.organizationId,
        ownerId: owner.userId,
        name: input.name,
        scopes,
        allowedOrigins,
        expiresInDays: input.expiresInDays,
      },
      now,
    );
  }

  statusAt(now: Date): ApiKeyStatus {
    return keyStatusAt(this, now);
  }

  /** Whether the secret still opens anything: active, or rotated and inside its 24-hour grace. */
  acceptsCallsAt(now: Date): boolean {
    return acceptsCallsAt(this, now);
  }

  get isLegacy(): boolean {
    return isLegacyKey(this);
  }

  isOwnedBy(userId: string): boolean {
    return this.createdById === userId;
  }

  /** Its owner or an admin manages a key; a member on a colleague's key is refused. */
  assertManageableBy(actor: Pick<KeyActor, 'userId' | 'role'>): void {
    if (!this.isOwnedBy(actor.userId) && actor.role !== 'admin') throw keyNotYours();
  }

  /**
   * Spec: a live key changes by its owner or an admin; only the owner widens its scopes (within
   * their role) or removes every website. Every check passes before anything changes.
   */
  change(actor: Pick<KeyActor, 'userId' | 'role'>, input: ApiKeyChange, now: Date): void {
    this.assertChangeable(now);
    const mine = this.isOwnedBy(actor.userId);
    let scopes = this.scopes;
    if (input.scopes) {
      assertNotReserved(input.scopes);
      const held: Scope[] = this.scopes.filter((scope) => scope !== RESERVED_SCOPE);
      const widens = input.scopes.some((scope) => !held.includes(scope));
      if (widens && !mine) throw keyNotYours();
      if (widens) assertGrantable(actor.role, input.scopes);
      scopes = input.scopes;
    }
    let origins = this.allowedOrigins;
    if (input.allowedOrigins) {
      origins = parseAllowedOrigins(input.allowedOrigins);
      if (origins.length === 0 && this.allowedOrigins.length > 0 && !mine) throw keyNotYours();
    }
    refuseWebsitesWithServerScopes(scopes, origins);
    const expiresAt = input.expiresAt !== undefined ? parseExpiry(input.expiresAt, now) : this.expiresAt;

    if (input.name !== undefined) this.rename(input.name, now);
    if (input.scopes) this.setScopes(scopes as GrantableScope[], now);
    if (input.allowedOrigins) this.setAllowedOrigins(origins, now);
    if (input.expiresAt !== undefined) this.setExpiry(expiresAt, now);
  }

  /** Changes and rotation need a live key; a service-set key is never changed from outside. */
  assertChangeable(now: Date): void {
    if (this.system)
      throw new DomainError('FORBIDDEN', 'This key is managed by the service and cannot be changed.');
    if (this.statusAt(now) !== 'active')
      throw new DomainError('API_KEY_NOT_ACTIVE', 'Only an active key can be changed.');
  }

  rename(name: string, now: Date): void {
    this.name = name;
    this.updatedAt = now;
  }

  /** The reserved scope stays where it was; it can be neither added nor sent. */
  setScopes(scopes: GrantableScope[], now: Date): void {
    this.scopes = this.scopes.includes(RESERVED_SCOPE) ? [...scopes, RESERVED_SCOPE] : [...scopes];
    this.updatedAt = now;
  }

  setAllowedOrigins(origins: string[], now: Date): void {
    this.allowedOrigins = origins;
    this.updatedAt = now;
  }

  setExpiry(expiresAt: Date | null, now: Date): void {
    this.expiresAt = expiresAt;
    this.updatedAt = now;
  }

  setRateLimit(perMinute: number | null, now: Date): void {
    this.rateLimitPerMinute = perMinute;
    this.updatedAt = now;
  }

  /**
   * A successor with the same name, scopes, websites, rate limit, expiry and owner (an ownerless
   * key gets the rotating person); this key keeps working for 24 hours.
   */
  rotate(actorId: string, now: Date): ApiKey {
    if (this.system)
      throw new DomainError('FORBIDDEN', 'This key is managed by the service and cannot be rotated.');
    if (this.rotatedToId) throw new DomainError('API_KEY_ALREADY_ROTATED', 'This key was already rotated.');
    if (this.statusAt(now) !== 'active')
      throw new DomainError('API_KEY_NOT_ACTIVE', 'Only an active key can be rotated.');
    const successor = new ApiKey(
      {
        organizationId: this.organizationId,
        name: this.name,
        scopes: [...this.scopes],
        allowedOrigins: [...this.allowedOrigins],
        createdById: this.createdById ?? actorId,
        expiresAt: this.expiresAt,
        lineageCreatedAt: this.lineageCreatedAt,
      },
      newSecret(),
      now,
    );
    successor.legacy = this.legacy;
    successor.rateLimitPerMinute = this.rateLimitPerMinute;
    successor.rotatedFromId = this.id;
    this.rotatedToId = successor.id;
    this.graceUntil = rotationGraceEndsAt(now);
    this.updatedAt = now;
    return successor;
  }

  /** Immediate and irreversible; revoking twice changes nothing. */
  revoke(now: Date): void {
    if (this.system)
      throw new DomainError('FORBIDDEN', 'This key is managed by the service and cannot be revoked.');
    if (this.revokedAt) return;
    this.revokedAt = now;
    this.updatedAt = now;
  }
}
