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
import { ADMIN_ONLY_SCOPES } from '../../domain/api-key.rules';

export class CreateApiKeyDto {
  @ApiProperty({ minLength: 1, maxLength: 255 })
  @IsString()
  @Length(1, 255)
  name: string;

  @ApiPropertyOptional({
    enum: SCOPES_GRANTABLE,
    isArray: true,
    description: `No repeats. Without scopes: properties:read and sources:read (admins also ${ADMIN_ONLY_SCOPES.join(', ')}).`,
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
