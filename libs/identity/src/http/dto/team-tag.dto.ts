import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOmittable, ApiNullable } from '@app/platform';
import {
  ArrayMaxSize,
  IsArray,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  Matches,
  ValidateIf,
} from 'class-validator';

export const HEX_COLOR = /^#[0-9A-Fa-f]{6}$/;
const colorMessage = { message: 'color must be a hex color like #1E88E5' };

export class CreateTeamDto {
  @ApiProperty({ maxLength: 80 })
  @IsString()
  @Length(1, 80)
  name: string;

  @ApiNullable(String, { example: '#1E88E5' })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @Matches(HEX_COLOR, colorMessage)
  color?: string | null;

  @ApiPropertyOptional({ type: [String], description: 'User ids of members of the organization' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(500)
  @IsUUID('all', { each: true })
  memberIds?: string[];
}

/** `name` may be left out, never nulled; null clears `color`. */
export class UpdateTeamDto {
  @ApiPropertyOptional({ maxLength: 80 })
  @IsOmittable()
  @IsString()
  @Length(1, 80)
  name?: string;

  @ApiNullable(String, { example: '#1E88E5' })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @Matches(HEX_COLOR, colorMessage)
  color?: string | null;

  @ApiPropertyOptional({ type: [String], description: 'User ids of members of the organization' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(500)
  @IsUUID('all', { each: true })
  memberIds?: string[];
}

export class CreateTagDto {
  @ApiProperty({ maxLength: 50 })
  @IsString()
  @Length(1, 50)
  name: string;

  @ApiPropertyOptional({ example: '#6B7280' })
  @IsOptional()
  @Matches(HEX_COLOR, colorMessage)
  color?: string;
}

export class UpdateTagDto {
  @ApiPropertyOptional({ maxLength: 50 })
  @IsOmittable()
  @IsString()
  @Length(1, 50)
  name?: string;

  @ApiPropertyOptional({ example: '#6B7280' })
  @IsOmittable()
  @Matches(HEX_COLOR, colorMessage)
  color?: string;
}

export class ListTagsQueryDto {
  @ApiPropertyOptional({ enum: ['true', 'false'], description: 'Include archived tags' })
  @IsOptional()
  @Matches(/^(true|false)$/)
  includeArchived?: string;
}
