import { ApiProperty } from '@nestjs/swagger';
import type { Principal, Scope } from '@app/platform';
import type { ApiKey } from '../domain/api-key.entity';
import type { ApiKeyStatus } from '../domain/api-key.rules';

type OwnerState = 'member' | 'left' | 'unknown';

/** A key as the dashboard lists it; never its secret. */
export interface ApiKeyRowJson {
  id: string;
  name: string;
  status: ApiKeyStatus;
  prefixHint: string | null;
  legacy: boolean;
  system: boolean;
  scopes: Scope[];
  allowedOrigins: string[];
  rateLimitPerMinute: number | null;
  createdById: string | null;
  mine: boolean;
  ownerState: OwnerState;
  createdAt: string;
  lastUsedAt: string | null;
  lastUsedIp: string | null;
  lastUsedUserAgent: string | null;
  usageCount: number;
  expiresAt: string | null;
  rotatedFromId: string | null;
  graceUntil: string | null;
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** `ownersStillIn`: which of the keys' owners are still members of the agency. */
export function apiKeyRow(
  actor: Principal,
  key: ApiKey,
  now: Date,
  ownersStillIn: Set<string>,
): ApiKeyRowJson {
  const status = key.statusAt(now);
  const mine = key.isOwnedBy(actor.userId);
  // a member sees where and how colleagues' keys were used only as null
  const seesUsage = mine || actor.role === 'admin';
  const ownerState: OwnerState =
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

export class ApiKeyRowView implements ApiKeyRowJson {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: ['active', 'revoked', 'expired', 'rotated'] }) status: ApiKeyStatus;
  @ApiProperty({ nullable: true, type: String }) prefixHint: string | null;
  @ApiProperty() legacy: boolean;
  @ApiProperty() system: boolean;
  @ApiProperty({ type: [String] }) scopes: Scope[];
  @ApiProperty({ type: [String] }) allowedOrigins: string[];
  @ApiProperty({ nullable: true, type: Number }) rateLimitPerMinute: number | null;
  @ApiProperty({ nullable: true, type: String }) createdById: string | null;
  @ApiProperty() mine: boolean;
  @ApiProperty({ enum: ['member', 'left', 'unknown'] }) ownerState: OwnerState;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) lastUsedAt: string | null;
  @ApiProperty({ nullable: true, type: String }) lastUsedIp: string | null;
  @ApiProperty({ nullable: true, type: String }) lastUsedUserAgent: string | null;
  @ApiProperty() usageCount: number;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) expiresAt: string | null;
  @ApiProperty({ nullable: true, type: String }) rotatedFromId: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) graceUntil: string | null;
}

/** A new key: the secret is shown only here. */
export interface CreatedApiKeyJson {
  id: string;
  key: string;
  prefixHint: string;
  scopes: Scope[];
}

export const createdApiKey = (key: ApiKey): CreatedApiKeyJson => ({
  id: key.id,
  key: key.secret,
  prefixHint: key.prefixHint!,
  scopes: key.scopes,
});

export class CreatedApiKeyView implements CreatedApiKeyJson {
  @ApiProperty() id: string;
  @ApiProperty({ description: 'The secret; shown only once.' }) key: string;
  @ApiProperty() prefixHint: string;
  @ApiProperty({ type: [String] }) scopes: Scope[];
}

/** A rotated key's successor and its secret, and until when the old secret still works. */
export interface RotatedApiKeyJson {
  id: string;
  key: string;
  prefixHint: string;
  rotatedFromId: string;
  previousKeyValidUntil: string;
}

export const rotatedApiKey = (previous: ApiKey, successor: ApiKey): RotatedApiKeyJson => ({
  id: successor.id,
  key: successor.secret,
  prefixHint: successor.prefixHint!,
  rotatedFromId: previous.id,
  previousKeyValidUntil: previous.graceUntil!.toISOString(),
});

export class RotatedApiKeyView implements RotatedApiKeyJson {
  @ApiProperty() id: string;
  @ApiProperty({ description: 'The new secret; shown only once.' }) key: string;
  @ApiProperty() prefixHint: string;
  @ApiProperty() rotatedFromId: string;
  @ApiProperty({ format: 'date-time' }) previousKeyValidUntil: string;
}

export interface RevokedApiKeyJson {
  success: true;
}

export class RevokedApiKeyView implements RevokedApiKeyJson {
  @ApiProperty({ enum: [true], description: 'Always true; revoking an already revoked key changes nothing.' })
  success: true;
}
