import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { Clock, DomainError, notFound, Principal, validationFailed } from '@app/platform';
import { ApiKey, ApiKeyChange, NewApiKey } from '../domain/api-key.entity';
import { ApiKeyRepository } from '../domain/api-key.repository';
import { MembershipRepository } from '../domain/membership.repository';
import {
  apiKeyRow,
  ApiKeyRowJson,
  createdApiKey,
  CreatedApiKeyJson,
  RevokedApiKeyJson,
  rotatedApiKey,
  RotatedApiKeyJson,
} from '../views/api-key.view';
import { KeyDoor } from './key-door';

export const ACTIVE_KEYS_PER_PERSON = 10;
export const ACTIVE_KEYS_PER_ORGANIZATION = 50;

/** Key management for the dashboard: create, list, change, rotate, revoke. */
@Injectable()
export class ApiKeysService {
  constructor(
    private readonly em: EntityManager,
    private readonly keys: ApiKeyRepository,
    private readonly memberships: MembershipRepository,
    private readonly door: KeyDoor,
    private readonly clock: Clock,
  ) {}

  async create(actor: Principal, input: NewApiKey): Promise<CreatedApiKeyJson> {
    const now = this.clock.now();
    const key = ApiKey.issue(actor, input, now);
    await this.em.transactional(async (em) => {
      await this.keys.serializeCreatesInOrg(actor.organizationId);
      const [mine, all] = await Promise.all([
        this.keys.countActiveInOrg(actor.organizationId, now, actor.userId),
        this.keys.countActiveInOrg(actor.organizationId, now),
      ]);
      if (mine >= ACTIVE_KEYS_PER_PERSON)
        throw new DomainError('API_KEY_LIMIT_REACHED', 'You already have 10 active keys.');
      if (all >= ACTIVE_KEYS_PER_ORGANIZATION) {
        throw new DomainError('API_KEY_LIMIT_REACHED', 'The organization already has 50 active keys.');
      }
      em.persist(key);
    });
    return createdApiKey(key);
  }

  /** Every key of the agency, every status, newest first. */
  async list(actor: Principal): Promise<ApiKeyRowJson[]> {
    const keys = await this.keys.newestFirstInOrg(actor.organizationId);
    const stillIn = await this.ownersStillIn(actor.organizationId, keys);
    const now = this.clock.now();
    return keys.map((key) => apiKeyRow(actor, key, now, stillIn));
  }

  async update(actor: Principal, keyId: string, input: ApiKeyChange): Promise<ApiKeyRowJson> {
    if (Object.values(input).every((value) => value === undefined)) {
      throw validationFailed([
        { path: '', message: 'send at least one of name, scopes, expiresAt, allowedOrigins' },
      ]);
    }
    const now = this.clock.now();
    const key = await this.findManageable(actor, keyId);
    key.change(actor, input, now);
    await this.em.flush();
    await this.door.keyChanged(key.id); // a narrowed key loses the scope on its next call, on every process
    return apiKeyRow(actor, key, now, await this.ownersStillIn(actor.organizationId, [key]));
  }

  async rotate(actor: Principal, keyId: string): Promise<RotatedApiKeyJson> {
    const now = this.clock.now();
    const key = await this.findManageable(actor, keyId);
    const successor = key.rotate(actor.userId, now);
    await this.em.persist(successor).flush();
    await this.door.keyChanged(key.id); // the cached entry is read again, with its grace end
    return rotatedApiKey(key, successor);
  }

  async revoke(actor: Principal, keyId: string): Promise<RevokedApiKeyJson> {
    const key = await this.findManageable(actor, keyId);
    key.revoke(this.clock.now());
    await this.em.flush();
    await this.door.keyChanged(key.id);
    return { success: true };
  }

  /** Owner or admin; a member on a colleague's key gets 403, another agency's key 404. */
  private async findManageable(actor: Principal, keyId: string): Promise<ApiKey> {
    const key = await this.keys.findInOrg(actor.organizationId, { id: keyId });
    if (!key) throw notFound('API key');
    key.assertManageableBy(actor);
    return key;
  }

  private ownersStillIn(organizationId: string, keys: ApiKey[]): Promise<Set<string>> {
    const ids = [...new Set(keys.map((k) => k.createdById).filter((id): id is string => id !== null))];
    return this.memberships.memberIdsAmong(organizationId, ids);
  }
}
