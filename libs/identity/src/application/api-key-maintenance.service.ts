import { CreateRequestContext, MikroORM } from '@mikro-orm/core';
import { Injectable } from '@nestjs/common';
import { Clock, isUuid, JobName, MINUTE, notFound, Periodic } from '@app/platform';
import { ApiKeyRepository } from '../domain/api-key.repository';
import { KeyDoor } from './key-door';

/** Key work that is not the dashboard's: operators' limits, and keys whose owner left. */
@Injectable()
export class ApiKeyMaintenanceService {
  constructor(
    // CreateRequestContext finds the ORM here
    private readonly orm: MikroORM,
    private readonly keys: ApiKeyRepository,
    private readonly door: KeyDoor,
    private readonly clock: Clock,
  ) {}

  /** Operators raise (or reset with null) a key's per-minute limit; the other windows scale. */
  @CreateRequestContext()
  async setRateLimit(keyId: string, perMinute: number | null) {
    const key = isUuid(keyId) ? await this.keys.findAcrossAgenciesForOperator(keyId) : null;
    if (!key) throw notFound('API key');
    key.setRateLimit(perMinute, this.clock.now());
    await this.orm.em.flush();
    await this.door.keyChanged(key.id);
    return { id: key.id, rateLimitPerMinute: key.rateLimitPerMinute };
  }

  /**
   * Spec rule 6: an owner who leaves the agency stops their keys, for good (they stay dead if the
   * person is invited back). Runs in the caller's transaction when there is one, and the caller
   * tells the key door once it commits; the number marked.
   */
  async ownerLeft(organizationId: string, ownerId: string, now: Date): Promise<number> {
    return (await this.keys.markOwnerLeft(organizationId, ownerId, now)).length;
  }

  /** Catches owners who left without the members route (`ownerState` left); the door refuses them already. */
  @Periodic(JobName.CheckKeyOwners, MINUTE)
  @CreateRequestContext()
  async stopKeysOfDepartedOwners(now: Date): Promise<{ marked: number }> {
    let marked = 0;
    for (const { organizationId, ownerId } of await this.keys.departedOwnersAcrossAgencies()) {
      marked += await this.ownerLeft(organizationId, ownerId, now);
      await this.door.ownerChanged(ownerId); // their MCP keys too
    }
    return { marked };
  }
}
