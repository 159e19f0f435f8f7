import { ArrayType, Entity, PrimaryKey, Property } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';
import {
  DAY,
  DomainError,
  HOUR,
  randomAlphanumeric,
  RESERVED_SCOPE,
  sha256,
  type GrantableScope,
  type Role,
  type Scope,
} from '@app/platform';

export type ApiKeyStatus = 'active' | 'revoked' | 'expired' | 'rotated';

/** Spec rule 3: `/v1` takes only keys made on or after this day. */
export const V1_KEYS_SINCE = new Date('2026-10-04T00:00:00.000Z');
export const ROTATION_GRACE_MS = 24 * HOUR;
export const MAX_EXPIRY_DAYS = 3650;
export const PREFIX_HINT_LENGTH = 12;

/** Only an admin may grant these (403 API_KEY_SCOPE_NOT_GRANTABLE otherwise). */
export const ADMIN_ONLY_SCOPES: readonly GrantableScope[] = ['properties:write', 'media:write'];
/** Server scopes: such a key cannot list websites and is refused when sent with an Origin. */
export const isServerScope = (scope: Scope): boolean =>
  scope.startsWith('crm:') || scope.startsWith('brochures:') || scope.startsWith('documents:');

/** A key created without scopes (spec: Scopes). */
export const defaultScopes = (role: Role): Scope[] =>
  role === 'admin'
    ? ['properties:read', 'sources:read', 'properties:write', 'media:write', RESERVED_SCOPE]
    : ['properties:read', 'sources:read', RESERVED_SCOPE];

const newSecret = (): string => `svc_pk_${randomAlphanumeric(32)}`;

/**
 * An integrator's key. It acts as the person who made it; the secret is kept only as a SHA-256
 * plus its first 12 characters and is shown once, on creation or rotation.
 */
@Entity({ tableName: 'api_keys' })
export class ApiKey {
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

  statusAt(now: Date): ApiKeyStatus {
    if (this.revokedAt) return 'revoked';
    if (this.rotatedToId) return 'rotated';
    if (this.expiresAt && this.expiresAt <= now) return 'expired';
    return 'active';
  }

  /** Whether the secret still opens anything: active, or rotated and inside its 24-hour grace. */
  acceptsCallsAt(now: Date): boolean {
    if (this.revokedAt) return false;
    if (this.expiresAt && this.expiresAt <= now) return false;
    if (this.rotatedToId) return this.graceUntil !== null && this.graceUntil > now;
    return true;
  }

  /** Spec rule 3: made before 4 October 2026 (or descended from such a key), or flagged legacy. */
  get isLegacy(): boolean {
    return this.legacy || this.lineageCreatedAt < V1_KEYS_SINCE;
  }

  isOwnedBy(userId: string): boolean {
    return this.createdById === userId;
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
    this.graceUntil = new Date(now.getTime() + ROTATION_GRACE_MS);
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
