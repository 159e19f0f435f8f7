import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { PORTAL_COUNTRIES, type PortalCountry } from '../../domain/listing-catalogue';
import { SOURCE_SEARCH_MAX_LIMIT } from '../../domain/property-sources';
import { ListingSearchDto } from './listing-search.dto';

const COUNTRY_MESSAGE = { message: `country must be one of ${PORTAL_COUNTRIES.join(', ')}` };

/**
 * `POST /property-sources/{source}/search`: the `/properties/search` body (its `scope` ignored:
 * a source is searched as it is), a page of at most 50, and `country` for portals.
 */
export class SourceSearchDto extends ListingSearchDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: SOURCE_SEARCH_MAX_LIMIT, default: 20 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(SOURCE_SEARCH_MAX_LIMIT)
  override limit?: number;

  @ApiPropertyOptional({
    enum: PORTAL_COUNTRIES,
    description: 'Required for a portal (`demoportal`): the country searched. Ignored by other sources.',
  })
  @IsOptional()
  @IsIn(PORTAL_COUNTRIES, COUNTRY_MESSAGE)
  country?: PortalCountry;
}

/** `GET /property-sources/{source}/listings/{id}?country=`. */
export class SourceListingQueryDto {
  @ApiPropertyOptional({
    enum: PORTAL_COUNTRIES,
    description: 'Required for a portal listing (its `ref.country`). Ignored by other sources.',
  })
  @IsOptional()
  @IsIn(PORTAL_COUNTRIES, COUNTRY_MESSAGE)
  country?: PortalCountry;
}
