import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { Clock, conflict, notFound, Principal } from '@app/platform';
import { IntegrationKey } from '../domain/integration-key.entity';
import { IntegrationKeyRepository } from '../domain/integration-key.repository';
import {
  createdIntegrationKey,
  CreatedIntegrationKeyJson,
  integrationKeyRow,
  IntegrationKeyListJson,
} from '../views/integration-key.view';
import { KeyDoor } from './key-door';

export const ACTIVE_INTEGRATION_KEYS_PER_ORGANIZATION = 20;

/** Integration keys for the dashboard (admin session routes): issue, list, revoke. */
@Injectable()
export class IntegrationKeysService {
  constructor(
    private readonly em: EntityManager,
    private readonly keys: IntegrationKeyRepository,
    private readonly door: KeyDoor,
    private readonly clock: Clock,
  ) {}

  async issue(
    actor: Principal,
    input: { name: string; connector: string },
  ): Promise<CreatedIntegrationKeyJson> {
    const key = IntegrationKey.issue(
      {
        organizationId: actor.organizationId,
        name: input.name,
        connector: input.connector,
        createdById: actor.userId,
      },
      this.clock.now(),
    );
    await this.em.transactional(async (em) => {
      await this.keys.serializeIssuesInOrg(actor.organizationId);
      if (
        (await this.keys.countActiveInOrg(actor.organizationId)) >= ACTIVE_INTEGRATION_KEYS_PER_ORGANIZATION
      )
        throw conflict('The organization already has 20 active integration keys.');
      em.persist(key);
    });
    return createdIntegrationKey(key);
  }

  async list(actor: Principal): Promise<IntegrationKeyListJson> {
    const keys = await this.keys.newestFirstInOrg(actor.organizationId);
    return { data: keys.map(integrationKeyRow), hasMore: false };
  }

  /** Refused at the door at once: the door forgets the key here and, with Redis, in every process. */
  async revoke(actor: Principal, keyId: string): Promise<{ success: true }> {
    const key = await this.keys.findInOrg(actor.organizationId, { id: keyId });
    if (!key) throw notFound('Integration key');
    key.revoke(this.clock.now());
    await this.em.flush();
    await this.door.keyChanged(key.id);
    return { success: true };
  }
}
