import { Entity, EntityRepositoryType, PrimaryKey, PrimaryKeyProp, Property } from '@mikro-orm/core';
import { ExternalIdRepository } from './external-id.repository';

/** The kinds of record a connector writes by its own id. */
export type ExternalKind = 'lead' | 'call' | 'message' | 'email' | 'viewing';

/**
 * A connector's id of a record (`PUT /integrations/v1/<kind>/{externalId}`): unique per
 * organization, connector and kind, pointing at our record (and its lead). Written only by
 * `ExternalIdRepository.remember` (INSERT … ON CONFLICT), never constructed.
 */
@Entity({ tableName: 'integration_external_ids', repository: () => ExternalIdRepository })
export class ExternalId {
  [EntityRepositoryType]?: ExternalIdRepository;
  [PrimaryKeyProp]?: ['organizationId', 'connector', 'kind', 'externalId'];

  @PrimaryKey({ type: 'uuid' })
  organizationId: string;

  @PrimaryKey({ type: 'text' })
  connector: string;

  @PrimaryKey({ type: 'text' })
  kind: ExternalKind;

  @PrimaryKey({ type: 'text' })
  externalId: string;

  @Property({ type: 'text' })
  recordId: string;

  @Property({ type: 'bigint', nullable: true })
  leadId: number | null = null;

  @Property({ type: 'datetime' })
  createdAt: Date;
}
