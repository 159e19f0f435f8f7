import { Injectable } from '@nestjs/common';
import {
  INTEGRATION_KEY_PATTERN,
  integrationActor,
  IntegrationKeyAuthenticator,
  IntegrationPrincipal,
} from '@app/platform';
import { IntegrationKeyFacts, IntegrationKeyRepository } from '../domain/integration-key.repository';
import { KeyDoor, OrganizationKeyKind } from './key-door';
import { KeyUsageRecorder } from './key-usage.recorder';

/**
 * Integration keys through the key door (`/integrations/v1`): malformed, unknown or revoked → 401;
 * a disabled organization → 403 ORG_DISABLED. The key is the organization's, with no person;
 * `lastUsedAt` is gathered and written in batches.
 */
@Injectable()
export class DbIntegrationKeyAuthenticator extends IntegrationKeyAuthenticator {
  private readonly kind: OrganizationKeyKind<IntegrationKeyFacts, void, IntegrationPrincipal>;

  constructor(
    private readonly door: KeyDoor,
    keys: IntegrationKeyRepository,
    usage: KeyUsageRecorder,
  ) {
    super();
    this.kind = {
      noun: 'integration key',
      pattern: INTEGRATION_KEY_PATTERN,
      actsAs: 'organization',
      read: (keyHash) => keys.doorFactsByKeyHash(keyHash),
      admit: (key) => ({
        kind: 'integration',
        organizationId: key.organizationId,
        organizationName: key.organizationName,
        keyId: key.id,
        keyName: key.name,
        connector: key.connector,
        prefixHint: key.prefixHint,
        actor: integrationActor(key.id),
      }),
      used: (key, _none, now) => usage.recordIntegration(key.id, now),
    };
  }

  authenticate(secret: string): Promise<IntegrationPrincipal> {
    return this.door.open(this.kind, secret, undefined);
  }
}
