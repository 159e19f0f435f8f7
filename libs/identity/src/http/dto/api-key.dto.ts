import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  Length,
  Max,
  Min,
  ValidateIf,
} from 'class-validator';
import {
  IsOmittable,
  RESERVED_SCOPE,
  SCOPES_GRANTABLE,
  type GrantableScope,
  type Scope,
} from '@app/platform';

export class CreateApiKeyDto {
  @ApiProperty({ minLength: 1, maxLength: 255 })
  @IsString()
  @Length(1, 255)
  name: string;

  @ApiPropertyOptional({
    enum: SCOPES_GRANTABLE,
    isArray: true,
    description:
      'No repeats. Without scopes: properties:read and sources:read (admins also properties:write, media:write).',
  })
  @IsOptional()
  @IsArray()
  @ArrayUnique({ message: 'scopes must not repeat' })
  @IsIn(SCOPES_GRANTABLE, { each: true, message: `each scope must be one of ${SCOPES_GRANTABLE.join(', ')}` })
  scopes?: GrantableScope[];

  @ApiPropertyOptional({ type: [String], maxItems: 20, example: ['https://www.agency.example'] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  allowedOrigins?: string[];

  @ApiPropertyOptional({ minimum: 1, maximum: 3650, description: 'Without it the key never expires.' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(3650)
  expiresInDays?: number;
}

export class UpdateApiKeyDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 255 })
  @IsOmittable()
  @IsString()
  @Length(1, 255)
  name?: string;

  @ApiPropertyOptional({
    enum: SCOPES_GRANTABLE,
    isArray: true,
    description: 'The full new set; at least one.',
  })
  @IsOmittable()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayUnique({ message: 'scopes must not repeat' })
  // agents:read passes here and is refused by the service with API_KEY_SCOPE_RESERVED
  @IsIn([...SCOPES_GRANTABLE, RESERVED_SCOPE], {
    each: true,
    message: `each scope must be one of ${SCOPES_GRANTABLE.join(', ')}`,
  })
  scopes?: Scope[];

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Future, at most 3650 days ahead; null removes.',
  })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsISO8601({ strict: true })
  expiresAt?: string | null;

  @ApiPropertyOptional({
    type: [String],
    maxItems: 20,
    description: 'The full list; [] removes every website.',
  })
  @IsOmittable()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  allowedOrigins?: string[];
}

export class CreatedApiKeyView {
  @ApiProperty() id: string;
  @ApiProperty({ description: 'The secret; shown only once.' }) key: string;
  @ApiProperty() prefixHint: string;
  @ApiProperty({ type: [String] }) scopes: string[];
}

export class RotatedApiKeyView {
  @ApiProperty() id: string;
  @ApiProperty({ description: 'The new secret; shown only once.' }) key: string;
  @ApiProperty() prefixHint: string;
  @ApiProperty() rotatedFromId: string;
  @ApiProperty({ format: 'date-time' }) previousKeyValidUntil: string;
}

export class ApiKeyRowView {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: ['active', 'revoked', 'expired', 'rotated'] }) status: string;
  @ApiProperty({ nullable: true, type: String }) prefixHint: string | null;
  @ApiProperty() legacy: boolean;
  @ApiProperty() system: boolean;
  @ApiProperty({ type: [String] }) scopes: string[];
  @ApiProperty({ type: [String] }) allowedOrigins: string[];
  @ApiProperty({ nullable: true, type: Number }) rateLimitPerMinute: number | null;
  @ApiProperty({ nullable: true, type: String }) createdById: string | null;
  @ApiProperty() mine: boolean;
  @ApiProperty({ enum: ['member', 'left', 'unknown'] }) ownerState: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) lastUsedAt: string | null;
  @ApiProperty({ nullable: true, type: String }) lastUsedIp: string | null;
  @ApiProperty({ nullable: true, type: String }) lastUsedUserAgent: string | null;
  @ApiProperty() usageCount: number;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) expiresAt: string | null;
  @ApiProperty({ nullable: true, type: String }) rotatedFromId: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) graceUntil: string | null;
}

export class RevokedApiKeyView {
  @ApiProperty({ enum: [true], description: 'Always true; revoking an already revoked key changes nothing.' })
  success: true;
}
