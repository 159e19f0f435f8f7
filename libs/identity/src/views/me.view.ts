import { ApiProperty } from '@nestjs/swagger';
import {
  RESERVED_SCOPE,
  ROLES,
  SCOPES_GRANTABLE,
  type ApiKeyPrincipal,
  type Role,
  type Scope,
} from '@app/platform';
import { OrganizationSummaryJson, OrganizationSummaryView } from './organization.view';

export interface MeUserJson {
  id: string;
  name: string;
  email: string;
}

export interface MeKeyJson {
  id: string;
  name: string;
  prefixHint: string | null;
  scopes: Scope[];
  expiresAt: string | null;
}

/** `GET /v1/me`: the key's person, agency, role, plan and the key itself. */
export interface MeJson {
  user: MeUserJson;
  organization: OrganizationSummaryJson;
  role: Role;
  entitled: boolean;
  key: MeKeyJson;
}

/** The person's and agency's names as read for `/v1/me`. */
export interface MeRow {
  first_name: string;
  last_name: string;
  email: string;
  org_name: string;
}

export const meView = (actor: ApiKeyPrincipal, row: MeRow): MeJson => ({
  user: { id: actor.userId, name: `${row.first_name} ${row.last_name}`.trim(), email: row.email },
  organization: { id: actor.organizationId, name: row.org_name },
  role: actor.role,
  entitled: actor.planActive,
  key: {
    id: actor.keyId,
    name: actor.keyName,
    prefixHint: actor.prefixHint,
    scopes: actor.scopes,
    expiresAt: actor.expiresAt?.toISOString() ?? null,
  },
});

export class MeUserView implements MeUserJson {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ description: 'First and last name.' }) name: string;
  @ApiProperty({ format: 'email' }) email: string;
}

export class MeKeyView implements MeKeyJson {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: String, nullable: true, description: 'First 12 characters of the key.' })
  prefixHint: string | null;
  @ApiProperty({ enum: [...SCOPES_GRANTABLE, RESERVED_SCOPE], isArray: true }) scopes: Scope[];
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) expiresAt: string | null;
}

/** `GET /v1/me`: the key's person, agency, role, plan and the key itself. */
export class MeView implements MeJson {
  @ApiProperty({ type: MeUserView }) user: MeUserView;
  @ApiProperty({ type: OrganizationSummaryView }) organization: OrganizationSummaryView;
  @ApiProperty({ enum: ROLES }) role: Role;
  @ApiProperty({ description: 'False when the organization has no active plan.' }) entitled: boolean;
  @ApiProperty({ type: MeKeyView }) key: MeKeyView;
}
