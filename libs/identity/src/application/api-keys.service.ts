import { EntityManager } from '@mikro-orm/postgresql';
import { MikroORM, CreateRequestContext } from '@mikro-orm/core';
import { Injectable } from '@nestjs/common';
import {
  Clock,
  DAY,
  DomainError,
  JobName,
  MINUTE,
  notFound,
  Periodic,
  Principal,
  RESERVED_SCOPE,
  validationFailed,
  type GrantableScope,
  type Scope,
} from '@app/platform';
import { parseAllowedOrigin } from '../domain/allowed-origin';
import {
  ADMIN_ONLY_SCOPES,
  ApiKey,
  defaultScopes,
  isServerScope,
  MAX_EXPIRY_DAYS,
} from '../domain/api-key.entity';
import { Membership } from '../domain/membership.entity';
import { ApiKeyCache } from './api-key-cache';

export const ACTIVE_KEYS_PER_PERSON = 10;
export const ACTIVE_KEYS_PER_ORGANIZATION = 50;

export interface CreateApiKey {
  name: string;
  scopes?: GrantableScope[];
  allowedOrigins?: string[];
  expiresInDays?: number;
}

export interface UpdateApiKey {
  name?: string;
  scopes?: Scope[];
  expiresAt?: string | null;
  allowedOrigins?: string[];
}

export interface ApiKeyRow {
  id: string;
  name: string;
  status: string;
  prefixHint: string | null;
  legacy: boolean;
  system: boolean;
  scopes: Scope[];
  allowedOrigins: string[];
  rateLimitPerMinute: number | null;
  createdById: string | null;
  mine: boolean;
  ownerState: 'member' | 'left' | 'unknown';
  createdAt: string;
  lastUsedAt: string | null;
  lastUsedIp: string | null;
  lastUsedUserAgent: string | null;
  usageCount: number;
  expiresAt: string | null;
  rotatedFromId: string | null;
  graceUntil: string | null;
}

const notYours = () => new DomainError('API_KEY_NOT_YOURS', 'Only the key owner can do this.');
const keyNotFound = () => notFound('API key');
const iso = (date: Date | null) => date?.toISOString() ?? null;

/** Key management for the dashboard: create, list, change, rotate, revoke. */
@Injectable()
export class ApiKeysService {
  constructor(
    private readonly em: EntityManager,
    private readonly orm: MikroORM,
    private readonly cache: ApiKeyCache,
    private readonly clock: Clock,
  ) {}

  async create(actor: Principal, input: CreateApiKey) {
    const now = this.clock.now();
    const scopes: Scope[] = input.scopes?.length ? input.scopes : defaultScopes(actor.role);
    if (
      actor.role !== 'admin' &&
      scopes.some((scope) => ADMIN_ONLY_SCOPES.includes(scope as GrantableScope))
    ) {
      throw new DomainError(
        'API_KEY_SCOPE_NOT_GRANTABLE',
        'Only an admin can grant properties:write or media:write.',
      );
    }
    const allowedOrigins = this.parseOrigins(input.allowedOrigins ?? []);
    this.refuseWebsitesWithServerScopes(scopes, allowedOrigins);

    const key = ApiKey.create(
      {
        organizationId: actor.organizationId,
        ownerId: actor.userId,
        name: input.name,
        scopes,
        allowedOrigins,
        expiresInDays: input.expiresInDays,
      },
      now,
    );
    await this.em.transactional(async (em) => {
      // serialise creates per agency so two requests cannot both pass the limits
      await em
        .getConnection()
        .execute(
          'select pg_advisory_xact_lock(hashtextextended(?, 0))',
          [actor.organizationId],
          'all',
          em.getTransactionContext(),
        );
      const [mine, all] = await Promise.all([
        em.count(ApiKey, {
          ...this.activeWhere(now),
          organizationId: actor.organizationId,
          createdById: actor.userId,
        }),
        em.count(ApiKey, { ...this.activeWhere(now), organizationId: actor.organizationId }),
      ]);
      if (mine >= ACTIVE_KEYS_PER_PERSON)
        throw new DomainError('API_KEY_LIMIT_REACHED', 'You already have 10 active keys.');
      if (all >= ACTIVE_KEYS_PER_ORGANIZATION) {
        throw new DomainError('API_KEY_LIMIT_REACHED', 'The organization already has 50 active keys.');
      }
      em.persist(key);
    });
    return { id: key.id, key: key.secret, prefixHint: key.prefixHint!, scopes: key.scopes };
  }

  /** Every key of the agency, every status, newest first. */
  async list(actor: Principal): Promise<ApiKeyRow[]> {
    const keys = await this.em.find(
      ApiKey,
      { organizationId: actor.organizationId },
      { orderBy: { createdAt: 'desc', id: 'desc' } },
    );
    const ownerIds = [
      ...new Set(keys.map((key) => key.createdById).filter((id): id is string => id !== null)),
    ];
    const members = ownerIds.length
      ? await this.em.find(
          Membership,
          { organizationId: actor.organizationId, userId: { $in: ownerIds } },
          { fields: ['userId'] },
        )
      : [];
    const stillIn = new Set(members.map((m) => m.userId));
    const now = this.clock.now();
    return keys.map((key) => this.row(actor, key, now, stillIn));
  }

  async update(actor: Principal, keyId: string, input: UpdateApiKey): Promise<ApiKeyRow> {
    if (Object.values(input).every((value) => value === undefined)) {
      throw validationFailed([
        { path: '', message: 'send at least one of name, scopes, expiresAt, allowedOrigins' },
      ]);
    }
    const now = this.clock.now();
    const key = await this.findManageable(actor, keyId);
    key.assertChangeable(now);
    const mine = key.isOwnedBy(actor.userId);

    let scopes = key.scopes;
    if (input.scopes) {
      if (input.scopes.includes(RESERVED_SCOPE)) {
        throw new DomainError('API_KEY_SCOPE_RESERVED', 'agents:read is reserved and cannot be added.');
      }
      const held: Scope[] = key.scopes.filter((scope) => scope !== RESERVED_SCOPE);
      const widens = input.scopes.some((scope) => !held.includes(scope as GrantableScope));
      // spec: only the owner widens, within their own role
      if (widens && !mine) throw notYours();
      if (
        widens &&
        actor.role !== 'admin' &&
        input.scopes.some((s) => ADMIN_ONLY_SCOPES.includes(s as GrantableScope))
      ) {
        throw new DomainError(
          'API_KEY_SCOPE_NOT_GRANTABLE',
          'Only an admin can grant properties:write or media:write.',
        );
      }
      scopes = input.scopes;
    }
    let origins = key.allowedOrigins;
    if (input.allowedOrigins) {
      origins = this.parseOrigins(input.allowedOrigins);
      if (origins.length === 0 && key.allowedOrigins.length > 0 && !mine) throw notYours();
    }
    this.refuseWebsitesWithServerScopes(scopes, origins);
    let expiresAt = key.expiresAt;
    if (input.expiresAt !== undefined) expiresAt = this.parseExpiry(input.expiresAt, now);

    if (input.name !== undefined) key.rename(input.name, now);
    if (input.scopes) key.setScopes(scopes as GrantableScope[], now);
    if (input.allowedOrigins) key.setAllowedOrigins(origins, now);
    if (input.expiresAt !== undefined) key.setExpiry(expiresAt, now);
    await this.em.flush();
    this.cache.invalidateKey(key.id); // a narrowed key loses the scope on its next call
    return this.row(actor, key, now, await this.ownersStillIn(actor.organizationId, [key]));
  }

  async rotate(actor: Principal, keyId: string) {
    const now = this.clock.now();
    const key = await this.findManageable(actor, keyId);
    const successor = key.rotate(actor.userId, now);
    await this.em.persist(successor).flush();
    this.cache.invalidateKey(key.id);
    return {
      id: successor.id,
      key: successor.secret,
      prefixHint: successor.prefixHint!,
      rotatedFromId: key.id,
      previousKeyValidUntil: key.graceUntil!.toISOString(),
    };
  }

  async revoke(actor: Principal, keyId: string): Promise<{ success: true }> {
    const key = await this.findManageable(actor, keyId);
    key.revoke(this.clock.now());
    await this.em.flush();
    this.cache.invalidateKey(key.id);
    return { success: true };
  }

  /** Operators raise (or reset with null) a key's per-minute limit; the other windows scale. */
  @CreateRequestContext()
  async setRateLimit(keyId: string, perMinute: number | null) {
    const key = /^[0-9a-f-]{36}$/i.test(keyId) ? await this.orm.em.findOne(ApiKey, keyId) : null;
    if (!key) throw keyNotFound();
    key.setRateLimit(perMinute, this.clock.now());
    await this.orm.em.flush();
    this.cache.invalidateKey(key.id);
    return { id: key.id, rateLimitPerMinute: key.rateLimitPerMinute };
  }

  /** Marks keys whose owner left the agency (`ownerState` left); the door refuses them already. */
  @Periodic(JobName.CheckKeyOwners, MINUTE)
  @CreateRequestContext()
  async markOwnersLeft(now: Date): Promise<{ marked: number }> {
    const rows = await this.orm.em.getConnection().execute<{ id: string }[]>(
      `update api_keys k set owner_left_at = ?, updated_at = ?
        where k.owner_left_at is null and k.created_by_id is not null
          and not exists (select 1 from memberships m where m.user_id = k.created_by_id and m.organization_id = k.organization_id)
        returning k.id`,
      [now, now],
    );
    rows.forEach((row: { id: string }) => this.cache.invalidateKey(row.id));
    return { marked: rows.length };
  }

  /** Owner or admin; a member on a colleague's key gets 403, another agency's key 404. */
  private async findManageable(actor: Principal, keyId: string): Promise<ApiKey> {
    const key = await this.em.findOne(ApiKey, { id: keyId, organizationId: actor.organizationId });
    if (!key) throw keyNotFound();
    if (!key.isOwnedBy(actor.userId) && actor.role !== 'admin') throw notYours();
    return key;
  }

  private activeWhere(now: Date) {
    return {
      system: false,
      revokedAt: null,
      rotatedToId: null,
      $or: [{ expiresAt: null }, { expiresAt: { $gt: now } }],
    };
  }

  private parseOrigins(values: string[]): string[] {
    const issues: { path: string; message: string }[] = [];
    const origins = values.map((value, index) => {
      const origin = parseAllowedOrigin(value);
      if (!origin) {
        issues.push({
          path: `allowedOrigins.${index}`,
          message: 'must be scheme://host[:port] with no path or wildcard; plain http only for localhost',
        });
      }
      return origin ?? '';
    });
    if (issues.length > 0) throw validationFailed(issues);
    if (new Set(origins).size !== origins.length)
      throw validationFailed([{ path: 'allowedOrigins', message: 'must not repeat' }]);
    return origins;
  }

  private refuseWebsitesWithServerScopes(scopes: Scope[], origins: string[]): void {
    if (origins.length > 0 && scopes.some(isServerScope)) {
      throw new DomainError(
        'API_KEY_ORIGINS_NOT_ALLOWED_FOR_SERVER_SCOPES',
        'A key with crm, brochures or documents scopes cannot list allowed websites.',
      );
    }
  }

  private parseExpiry(value: string | null, now: Date): Date | null {
    if (value === null) return null;
    const at = new Date(value);
    if (Number.isNaN(at.getTime()) || at <= now || at.getTime() > now.getTime() + MAX_EXPIRY_DAYS * DAY) {
      throw validationFailed([
        { path: 'expiresAt', message: 'must be a future date at most 3650 days ahead' },
      ]);
    }
    return at;
  }

  private async ownersStillIn(organizationId: string, keys: ApiKey[]): Promise<Set<string>> {
    const ids = keys.map((k) => k.createdById).filter((id): id is string => id !== null);
    if (ids.length === 0) return new Set();
    const members = await this.em.find(
      Membership,
      { organizationId, userId: { $in: ids } },
      { fields: ['userId'] },
    );
    return new Set(members.map((m) => m.userId));
  }

  private row(actor: Principal, key: ApiKey, now: Date, ownersStillIn: Set<string>): ApiKeyRow {
    const status = key.statusAt(now);
    const mine = key.isOwnedBy(actor.userId);
    // a member sees where and how colleagues' keys were used only as null
    const seesUsage = mine || actor.role === 'admin';
    const ownerState =
      status !== 'active' || !key.createdById
        ? 'unknown'
        : ownersStillIn.has(key.createdById) && !key.ownerLeftAt
          ? 'member'
          : 'left';
    return {
      id: key.id,
      name: key.name,
      status,
      prefixHint: key.prefixHint,
      legacy: key.isLegacy,
      system: key.system,
      scopes: key.scopes,
      allowedOrigins: key.allowedOrigins,
      rateLimitPerMinute: key.rateLimitPerMinute,
      createdById: key.createdById,
      mine,
      ownerState,
      createdAt: key.createdAt.toISOString(),
      lastUsedAt: iso(key.lastUsedAt),
      lastUsedIp: seesUsage ? key.lastUsedIp : null,
      lastUsedUserAgent: seesUsage ? key.lastUsedUserAgent : null,
      usageCount: Number(key.usageCount),
      expiresAt: iso(key.expiresAt),
      rotatedFromId: key.rotatedFromId,
      graceUntil: iso(key.graceUntil),
    };
  }
}
