import { ApiProperty } from '@nestjs/swagger';
import { SCOPES_GRANTABLE, type GrantableScope } from '@app/platform';
import type { McpKey, McpKeyStatus } from '../domain/mcp-key.entity';

/** A key as `GET /mcp-keys` lists it; never its secret. */
export interface McpKeyJson {
  id: string;
  name: string;
  status: McpKeyStatus;
  prefixHint: string;
  scopes: GrantableScope[];
  ownerId: string;
  mine: boolean;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

export interface CreatedMcpKeyJson {
  id: string;
  key: string;
  prefixHint: string;
  scopes: GrantableScope[];
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

export const mcpKeyJson = (key: McpKey, actorId: string, now: Date): McpKeyJson => ({
  id: key.id,
  name: key.name,
  status: key.statusAt(now),
  prefixHint: key.prefixHint,
  scopes: key.scopes,
  ownerId: key.ownerId,
  mine: key.isOwnedBy(actorId),
  createdAt: key.createdAt.toISOString(),
  expiresAt: iso(key.expiresAt),
  revokedAt: iso(key.revokedAt),
  lastUsedAt: iso(key.lastUsedAt),
});

export const createdMcpKeyJson = (key: McpKey): CreatedMcpKeyJson => ({
  id: key.id,
  key: key.secret as string,
  prefixHint: key.prefixHint,
  scopes: key.scopes,
});

export class McpKeyView implements McpKeyJson {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: ['active', 'revoked', 'expired'] }) status: McpKeyStatus;
  @ApiProperty({ description: 'The first 12 characters of the key (`svc_mcp_` and 4 more).' })
  prefixHint: string;
  @ApiProperty({ enum: SCOPES_GRANTABLE, isArray: true }) scopes: GrantableScope[];
  @ApiProperty({ format: 'uuid', description: 'The person the key acts as.' }) ownerId: string;
  @ApiProperty({ description: "Whether it is the caller's own key." }) mine: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) expiresAt: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) revokedAt: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'Within about a minute.' })
  lastUsedAt: string | null;
}

export class McpKeyPageView {
  @ApiProperty({ type: [McpKeyView] }) data: McpKeyJson[];
  @ApiProperty() hasMore: boolean;
}

export class CreatedMcpKeyView implements CreatedMcpKeyJson {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ description: '`svc_mcp_` + 32 letters and digits; shown only in this answer.' }) key: string;
  @ApiProperty() prefixHint: string;
  @ApiProperty({ enum: SCOPES_GRANTABLE, isArray: true }) scopes: GrantableScope[];
}

export class McpKeyRevokedView {
  @ApiProperty({ enum: [true] }) success: true;
}
