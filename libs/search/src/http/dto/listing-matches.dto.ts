import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, IsUUID, Length } from 'class-validator';
import { IsOmittable } from '@app/platform';
import { SearchWindowDto } from './search.dto';

/** The portal countries (`ListingRef.country`). */
const COUNTRIES = ['es', 'it', 'pt'];
const ONE_FORM = 'Send either `propertyListingId`, or `source` with `listingId`; both or neither → 400.';

/** `POST /v1/listing-matches`: one listing, by id or by reference, and search's window. */
export class ListingMatchesDto extends SearchWindowDto {
  @ApiPropertyOptional({
    format: 'uuid',
    description: `An own listing, or another agency's on the network. ${ONE_FORM}`,
  })
  @IsOmittable()
  @IsUUID('all', { message: 'propertyListingId must be a UUID' })
  propertyListingId?: string;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 50,
    example: 'demoportal',
    description: `The listing's source as property search names it: \`internal\`, a feed (\`kyero\`, \`redsp\`, \`jsonfeed\`) or a portal. ${ONE_FORM}`,
  })
  @IsOmittable()
  @IsString()
  @Length(1, 50)
  source?: string;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 200,
    example: 'dp-es-0001',
    description: 'The listing id within `source`, exactly as property search gives it.',
  })
  @IsOmittable()
  @IsString()
  @Length(1, 200)
  listingId?: string;

  @ApiPropertyOptional({
    enum: COUNTRIES,
    description:
      'With `source` only: required for a portal; a portal read counts toward the daily allowance.',
  })
  @IsOmittable()
  @IsIn(COUNTRIES, { message: 'country must be one of es, it, pt' })
  country?: string;
}
