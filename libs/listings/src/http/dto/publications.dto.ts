import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { IsOmittable } from '@app/platform';
import {
  DESCRIPTION_LANGUAGES,
  DESCRIPTION_LIMITS,
  DESCRIPTION_TONES,
  type DescriptionLanguage,
  type DescriptionTone,
} from '../../domain/description-templates';

/** Portals named in one `PUT /properties/{id}/publications`. */
export const PUBLICATION_PORTALS_MAX = 20;

export class PortalPublicationDto {
  @ApiProperty({
    example: 'demoportal',
    description: 'A portal name (`GET /property-sources`, kind `portal`).',
  })
  @IsString()
  @MinLength(1)
  @MaxLength(50)
  portal: string;

  @ApiProperty({ description: 'true: publish (ACTIVE listings only); false: take it off the portal.' })
  @IsBoolean()
  enabled: boolean;
}

export class ReplacePublicationsDto {
  @ApiProperty({
    type: [PortalPublicationDto],
    maxItems: PUBLICATION_PORTALS_MAX,
    description: 'Each portal at most once; portals not named keep their state.',
  })
  @IsArray()
  @ArrayMaxSize(PUBLICATION_PORTALS_MAX)
  @ValidateNested({ each: true })
  @Type(() => PortalPublicationDto)
  portals: PortalPublicationDto[];
}

export class GenerateDescriptionDto {
  @ApiProperty({ enum: DESCRIPTION_LANGUAGES })
  @IsIn(DESCRIPTION_LANGUAGES, { message: `language must be one of ${DESCRIPTION_LANGUAGES.join(', ')}` })
  language: DescriptionLanguage;

  @ApiPropertyOptional({ enum: DESCRIPTION_TONES, default: 'neutral' })
  @IsOmittable()
  @IsIn(DESCRIPTION_TONES, { message: `tone must be one of ${DESCRIPTION_TONES.join(', ')}` })
  tone?: DescriptionTone;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: DESCRIPTION_LIMITS.min,
    maximum: DESCRIPTION_LIMITS.max,
    default: DESCRIPTION_LIMITS.default,
  })
  @IsOmittable()
  @IsInt()
  @Min(DESCRIPTION_LIMITS.min)
  @Max(DESCRIPTION_LIMITS.max)
  maxLength?: number;

  @ApiPropertyOptional({
    default: false,
    description: 'true: also store it as the listing’s `description` (a history row, `version` + 1).',
  })
  @IsOmittable()
  @IsBoolean()
  apply?: boolean;
}
