import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Max,
  Min,
} from 'class-validator';
import { OffsetQueryDto, SCOPES_GRANTABLE, type GrantableScope } from '@app/platform';

export class CreateMcpKeyDto {
  @ApiProperty({ minLength: 1, maxLength: 255 })
  @IsString()
  @Length(1, 255)
  name: string;

  @ApiProperty({
    enum: SCOPES_GRANTABLE,
    isArray: true,
    minItems: 1,
    description:
      'Required, no repeats; the grant rules of API keys (properties:write and media:write from an admin only). ' +
      "A tool needs its `/v1` route's scopes.",
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayUnique({ message: 'scopes must not repeat' })
  @IsIn(SCOPES_GRANTABLE, { each: true, message: `each scope must be one of ${SCOPES_GRANTABLE.join(', ')}` })
  scopes: GrantableScope[];

  @ApiPropertyOptional({ minimum: 1, maximum: 3650, description: 'Without it the key never expires.' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(3650)
  expiresInDays?: number;
}

export class ListMcpKeysQueryDto extends OffsetQueryDto({ max: 100, default: 50 }) {}
