import { ApiProperty } from '@nestjs/swagger';
import type { IntegrationPrincipal } from '@app/platform';
import type { IntegrationKey, IntegrationKeyStatus } from '../domain/integration-key.entity';

/** A key as `POST /integration-keys` answers it: the only time `key` is shown. */
export interface CreatedIntegrationKeyJson {
  id: string;
  name: string;
  connector: string;
  key: string;
  prefixHint: string;
  createdAt: string;
}

/** A key as `GET /integration-keys` lists it; never its secret. */
export interface IntegrationKeyRowJson {
  id: string;
  name: string;
  connector: string;
  prefixHint: string;
  status: IntegrationKeyStatus;
  createdById: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface IntegrationKeyListJson {
  data: IntegrationKeyRowJson[];
  hasMore: false;
}

/** `GET /integrations/v1/me`: the connector's organization and key. */
export interface IntegrationMeJson {
  organization: { id: string; name: string };
  key: { id: string; name: string; connector: string; prefixHint: string };
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

export function createdIntegrationKey(key: IntegrationKey): CreatedIntegrationKeyJson {
  return {
    id: key.id,
    name: key.name,
    connector: key.connector,
    key: key.secret!,
    prefixHint: key.prefixHint,
    createdAt: key.createdAt.toISOString(),
  };
}

export function integrationKeyRow(key: IntegrationKey): IntegrationKeyRowJson {
  return {
    id: key.id,
    name: key.name,
    connector: key.connector,
    prefixHint: key.prefixHint,
    status: key.status,
    createdById: key.createdById,
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: iso(key.lastUsedAt),
    revokedAt: iso(key.revokedAt),
  };
}

export function integrationMe(caller: IntegrationPrincipal): IntegrationMeJson {
  return {
    organization: { id: caller.organizationId, name: caller.organizationName },
    key: {
      id: caller.keyId,
      name: caller.keyName,
      connector: caller.connector,
      prefixHint: caller.prefixHint,
    },
  };
}

export class CreatedIntegrationKeyView implements CreatedIntegrationKeyJson {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ maxLength: 255 }) name: string;
  @ApiProperty({ example: 'aircall', pattern: '^[a-z0-9][a-z0-9-]{0,39}$' }) connector: string;

  @ApiProperty({
    example: 'svc_int_0123456789abcdef0123456789abcdef',
    description: 'The secret: `svc_int_` + 32 lower-case hex characters. Shown only here; store it now.',
  })
  key: string;

  @ApiProperty({ example: 'svc_int_0123', description: 'The first 12 characters of the key.' })
  prefixHint: string;

  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class IntegrationKeyRowView implements IntegrationKeyRowJson {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ example: 'aircall' }) connector: string;
  @ApiProperty({ example: 'svc_int_0123' }) prefixHint: string;
  @ApiProperty({ enum: ['active', 'revoked'] }) status: IntegrationKeyStatus;
  @ApiProperty({ description: 'The admin who issued it (the key does not act as them).' })
  createdById: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'May lag about 30 seconds.',
  })
  lastUsedAt: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true }) revokedAt: string | null;
}

export class IntegrationKeyListView implements IntegrationKeyListJson {
  @ApiProperty({ type: [IntegrationKeyRowView], description: 'Every key, revoked ones too, newest first.' })
  data: IntegrationKeyRowView[];

  @ApiProperty({ enum: [false] }) hasMore: false;
}

export class IntegrationOrganizationView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
}

export class IntegrationKeySummaryView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ example: 'aircall' }) connector: string;
  @ApiProperty({ example: 'svc_int_0123' }) prefixHint: string;
}

export class IntegrationMeView implements IntegrationMeJson {
  @ApiProperty({ type: IntegrationOrganizationView }) organization: IntegrationOrganizationView;
  @ApiProperty({ type: IntegrationKeySummaryView }) key: IntegrationKeySummaryView;
}
