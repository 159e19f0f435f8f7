import { ArrayType, Entity, EntityRepositoryType, PrimaryKey, Property } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';
import {
  assertGrantable,
  DAY,
  DomainError,
  randomAlphanumeric,
  sha256,
  type GrantableScope,
  type Role,
} from '@app/platform/core';
import { McpKeyRepository } from './mcp-key.repository';

export const MCP_KEY_PREFIX = 'svc_mcp_';
export const MCP_PREFIX_HINT_LENGTH = 12;
export const ACTIVE_MCP_KEYS_PER_PERSON = 10;

export type McpKeyStatus = 'active' | 'revoked' | 'expired';

/** Who manages a key: the person and their current role. */
export interface McpKeyActor {
  organizationId: string;
  userId: string;
  role: Role;
}

export interface NewMcpKey {
  name: string;
  scopes: GrantableScope[];
  expiresInDays?: number;
}

/**
 * A person's key for the MCP server (`POST /mcp`). It acts as its owner with the owner's current
 * role; the secret is kept only as its SHA-256 and first 12 characters, shown once on creation.
 */
@Entity({ tableName: 'mcp_keys', repository: () => McpKeyRepository })
export class McpKey {
  [EntityRepositoryType]?: McpKeyRepository;

  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  @Property({ type: 'uuid' })
  organizationId: string;

  @Property({ type: 'uuid' })
  ownerId: string;

  @Property({ type: 'text' })
  name: string;

  @Property({ type: 'text', hidden: true })
  secretHash: string;

  @Property({ type: 'text' })
  prefixHint: string;

  @Property({ type: ArrayType })
  scopes: GrantableScope[];

  @Property({ type: 'datetime' })
  createdAt: Date;

  @Property({ type: 'datetime', nullable: true })
  expiresAt: Date | null = null;

  @Property({ type: 'datetime', nullable: true })
  revokedAt: Date | null = null;

  @Property({ type: 'datetime', nullable: true })
  lastUsedAt: Date | null = null;

  /** Readable on a new key only; never stored. */
  readonly secret?: string;

  private constructor(owner: McpKeyActor, input: NewMcpKey, secret: string, now: Date) {
    this.organizationId = owner.organizationId;
    this.ownerId = owner.userId;
    this.name = input.name;
    this.scopes = [...input.scopes];
    this.secretHash = sha256(secret);
    this.prefixHint = secret.slice(0, MCP_PREFIX_HINT_LENGTH);
    this.createdAt = now;
    this.expiresAt = input.expiresInDays ? new Date(now.getTime() + input.expiresInDays * DAY) : null;
    this.secret = secret;
  }

  /** A key the person asks for: the admin-only scopes only from an admin (the API keys' grant rule). */
  static issue(owner: McpKeyActor, input: NewMcpKey, now: Date): McpKey {
    assertGrantable(owner.role, input.scopes);
    return new McpKey(owner, input, `${MCP_KEY_PREFIX}${randomAlphanumeric(32)}`, now);
  }

  statusAt(now: Date): McpKeyStatus {
    if (this.revokedAt) return 'revoked';
    if (this.expiresAt && this.expiresAt <= now) return 'expired';
    return 'active';
  }

  isOwnedBy(userId: string): boolean {
    return this.ownerId === userId;
  }

  /** Its owner or an admin; a member on a colleague's key gets 403 API_KEY_NOT_YOURS. */
  assertManageableBy(actor: Pick<McpKeyActor, 'userId' | 'role'>): void {
    if (!this.isOwnedBy(actor.userId) && actor.role !== 'admin') {
      throw new DomainError('API_KEY_NOT_YOURS', 'Only the key owner can do this.');
    }
  }

  /** Revoked at once, for good; revoking twice is a no-op. */
  revoke(now: Date): void {
    this.revokedAt ??= now;
  }
}
