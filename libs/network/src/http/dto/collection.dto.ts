import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsString, IsUUID, Length, MaxLength, MinLength } from 'class-validator';
import { IsOmittable } from '@app/platform';
import { COLLECTION_LIMITS } from '../../domain/collection';

/** Session routes of collections (INTERFACES.md "Brochures and network"). */

export class CollectionNameDto {
  @ApiProperty({ minLength: 1, maxLength: COLLECTION_LIMITS.name })
  @IsString()
  @Length(1, COLLECTION_LIMITS.name)
  name: string;
}

export class AddCollectionItemDto {
  @ApiProperty({
    example: 'internal',
    description: '`internal`, a feed (`kyero`, `redsp`, `jsonfeed`) or a portal.',
  })
  @IsString()
  @Length(1, COLLECTION_LIMITS.source)
  source: string;

  @ApiProperty({ description: 'The home’s id within its source (as property search gives it).' })
  @IsString()
  @MinLength(1)
  @MaxLength(COLLECTION_LIMITS.sourceId)
  id: string;

  @ApiPropertyOptional({ example: 'es', description: 'Portal homes only: one of the portal’s countries.' })
  @IsOmittable()
  @IsString()
  @MaxLength(10)
  country?: string;
}

export class CollectionMembersDto {
  @ApiProperty({
    type: [String],
    maxItems: COLLECTION_LIMITS.members,
    description: 'People of the caller’s organization; they replace the members (the creator always stays).',
  })
  @IsArray()
  @ArrayMaxSize(COLLECTION_LIMITS.members)
  @IsUUID('all', { each: true })
  userIds: string[];
}
