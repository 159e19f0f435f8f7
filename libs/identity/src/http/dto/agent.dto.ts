import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional, ApiProperty } from '@nestjs/swagger';
import {
  IsBoolean,
  IsEmail,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  Length,
  MaxLength,
  ValidateBy,
  ValidateIf,
} from 'class-validator';
import { ApiNullable, IsOmittable, OffsetQueryDto } from '@app/platform';
import {
  AGENT_ACTIVE_FILTERS,
  type AgentActiveFilter,
  type AgentListQuery,
} from '../../application/agent-list.sql';

/** INTERFACES.md "Agent roster": `q` up to 100 characters. */
export const AGENT_QUERY_MAX = 100;
/** `additionalInfo`, as JSON, up to 10,000 characters. */
export const AGENT_INFO_MAX = 10_000;

export class AgentListQueryDto extends OffsetQueryDto({ max: 200, default: 100 }) implements AgentListQuery {
  @ApiPropertyOptional({
    enum: AGENT_ACTIVE_FILTERS,
    default: 'true',
    description: '`true`: active agents only (the default); `false`: inactive only; `all`: both.',
  })
  @IsOptional()
  @IsIn(AGENT_ACTIVE_FILTERS, { message: `active must be one of ${AGENT_ACTIVE_FILTERS.join(', ')}` })
  active: AgentActiveFilter = 'true';

  @ApiPropertyOptional({
    maxLength: AGENT_QUERY_MAX,
    description: 'Case- and accent-insensitive contains on the names and `displayEmail`.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(AGENT_QUERY_MAX)
  q?: string;
}

/** Optional; null clears. */
const ClearableText = (max: number, description?: string) =>
  applyDecorators(
    ApiNullable(String, { maxLength: max, description }),
    IsOptional(),
    ValidateIf((_, value) => value !== null),
    IsString(),
    MaxLength(max),
  );

const ClearableHttpsUrl = (description: string) =>
  applyDecorators(
    ApiNullable(String, { maxLength: 2000, format: 'uri', description }),
    IsOptional(),
    ValidateIf((_, value) => value !== null),
    IsString(),
    MaxLength(2000),
    IsUrl(
      { protocols: ['https'], require_protocol: true, require_tld: false },
      { message: '$property must be an https URL' },
    ),
  );

/** A JSON object of at most 10,000 characters. */
const FreeFormObject = () =>
  applyDecorators(
    ApiPropertyOptional({
      type: 'object',
      additionalProperties: true,
      nullable: true,
      description: `Free-form; up to ${AGENT_INFO_MAX.toLocaleString('en')} characters as JSON. null clears.`,
    }),
    IsOptional(),
    ValidateIf((_, value) => value !== null),
    IsObject(),
    ValidateBy({
      name: 'jsonSize',
      validator: {
        validate: (value: unknown) => JSON.stringify(value).length <= AGENT_INFO_MAX,
        defaultMessage: () => `additionalInfo must be at most ${AGENT_INFO_MAX} characters as JSON`,
      },
    }),
  );

/** The public fields of a row: a member changes these (and `shareContactOnNetwork`) on their own row. */
class AgentPublicFieldsDto {
  @ApiNullable(String, {
    maxLength: 320,
    format: 'email',
    description: 'Public email on listings and brochures.',
  })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsString()
  @MaxLength(320)
  @IsEmail({}, { message: 'displayEmail must be an email address' })
  displayEmail?: string | null;

  @ClearableText(50, 'Public phone number.') phoneNumber?: string | null;
  @ClearableText(50, 'Public WhatsApp number.') whatsappNumber?: string | null;
  @ClearableText(2000, 'Short biography.') description?: string | null;
  @ClearableText(100, 'Job title.') title?: string | null;
  @ClearableHttpsUrl('Picture URL (https).') avatarUrl?: string | null;
  @ClearableHttpsUrl('Small picture URL (https).') avatarThumbnailUrl?: string | null;

  @ApiPropertyOptional({
    description: 'Show email, phone and WhatsApp to other agencies on network listings.',
  })
  @IsOmittable()
  @IsBoolean()
  shareContactOnNetwork?: boolean;
}

/** `POST /organization/agents`: a standalone agent. */
export class CreateAgentDto extends AgentPublicFieldsDto {
  @ApiProperty({ minLength: 1, maxLength: 100 })
  @IsString()
  @Length(1, 100)
  firstName: string;

  @ClearableText(100) lastName?: string | null;

  @FreeFormObject() additionalInfo?: Record<string, unknown> | null;

  @ApiPropertyOptional({ default: true, description: 'Inactive agents are hidden from listing pickers.' })
  @IsOmittable()
  @IsBoolean()
  isActive?: boolean;
}

/**
 * `PATCH /organization/agents/{id}`: the fields sent change. A member may send only the public
 * fields and `shareContactOnNetwork`, on their own row. The names and `isActive` of a member's
 * row follow their account and membership: sending a different value is 400.
 */
export class UpdateAgentDto extends AgentPublicFieldsDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 100, description: 'Standalone rows only.' })
  @IsOmittable()
  @IsString()
  @Length(1, 100)
  firstName?: string;

  @ClearableText(100, 'Standalone rows only.') lastName?: string | null;

  @FreeFormObject() additionalInfo?: Record<string, unknown> | null;

  @ApiPropertyOptional({ description: 'Standalone rows only (admin).' })
  @IsOmittable()
  @IsBoolean()
  isActive?: boolean;
}
