import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiNullable } from '@app/platform';
import {
  ENERGY_RATINGS,
  LISTING_CONDITIONS,
  PORTAL_COUNTRIES,
  RENT_PERIODS,
  type EnergyRating,
  type ListingCondition,
  type PortalCountry,
  type RentPeriod,
} from '../domain/listing-catalogue';
import { PORTAL_DAILY_ALLOWANCE, type AllowanceState } from '../domain/portal-allowance';
import { SOURCE_KINDS, type SourceKind } from '../domain/property-sources';
import { ListingSummaryView, type ListingSummary } from './listing-summary';

/** One property source of `GET /property-sources`. */
export interface PropertySource {
  source: string;
  kind: SourceKind;
  connected: boolean;
  countries: PortalCountry[];
  simulated: boolean;
}

export class PropertySourceView implements PropertySource {
  @ApiProperty({
    example: 'demoportal',
    description: '`internal`, `kyero`, `redsp`, `jsonfeed` or a portal.',
  })
  source: string;
  @ApiProperty({ enum: SOURCE_KINDS }) kind: SourceKind;
  @ApiProperty({
    description:
      '`internal` and portals: always; a feed: once an admin connected it (`/organization/property-feeds`).',
  })
  connected: boolean;
  @ApiProperty({
    enum: PORTAL_COUNTRIES,
    isArray: true,
    description: 'A portal’s countries (`country` of its search and listings); empty for the others.',
  })
  countries: PortalCountry[];
  @ApiProperty({
    description:
      'true: sample data, not a real portal (`demoportal`): its listings are made up, a search or read ' +
      'of it reaches no one, and a publication to it sends nothing (its status ends `simulated`, never ' +
      '`published`). false for `internal`, the feeds and real portals.',
  })
  simulated: boolean;
}

export class PropertySourceListView {
  @ApiProperty({ type: [PropertySourceView] }) data: PropertySourceView[];
}

export class AllowanceView implements AllowanceState {
  @ApiProperty({ type: 'integer', description: 'Upstream portal calls made today (UTC) by the agency.' })
  used: number;
  @ApiProperty({ type: 'integer', example: PORTAL_DAILY_ALLOWANCE }) limit: number;
  @ApiProperty({ format: 'date-time', description: 'The next midnight UTC.' }) resetsAt: string;
}

/** `POST /property-sources/{source}/search`. */
export interface SourceSearchPage {
  data: ListingSummary[];
  page: number;
  limit: number;
  total: number;
  hasMore: boolean;
  cached: boolean;
  simulated: boolean;
  allowance: AllowanceState;
}

export class SourceSearchPageView implements SourceSearchPage {
  @ApiProperty({
    type: [ListingSummaryView],
    description: 'Portal rows carry `ref {source, id, country}`: pass it as is to brochures and matches.',
  })
  data: ListingSummaryView[];
  @ApiProperty({ type: 'integer' }) page: number;
  @ApiProperty({ type: 'integer' }) limit: number;
  @ApiProperty({ type: 'integer', description: 'Exact.' }) total: number;
  @ApiProperty() hasMore: boolean;
  @ApiProperty({
    description:
      'A portal answer served from the shared cache (free); false for a fresh upstream call and for `internal` and feeds.',
  })
  cached: boolean;
  @ApiProperty({
    description:
      'true: the source is sample data (`demoportal`, `simulated` in `GET /property-sources`): the rows ' +
      'are made-up homes, not offers anyone can buy or rent.',
  })
  simulated: boolean;
  @ApiProperty({ type: AllowanceView, description: 'The agency’s daily portal allowance after this call.' })
  allowance: AllowanceView;
}

export class SourceListingImageView {
  @ApiProperty({ format: 'uri' }) url: string;
  @ApiNullable(String) caption: string | null;
}

/**
 * `GET /property-sources/{source}/listings/{id}`: for `internal` and feeds the listing record of
 * `GET /properties/{id}` (with the network rules for other agencies' listings); for a portal the
 * portal's record, `ref.country` set. The summary's fields are always there.
 */
export class SourceListingView extends ListingSummaryView {
  @ApiNullable(String) description?: string | null;
  @ApiPropertyOptional({ enum: RENT_PERIODS, nullable: true }) rentPeriod?: RentPeriod | null;
  @ApiPropertyOptional({ type: [String], description: 'Amenity slugs.' }) features?: string[];
  @ApiPropertyOptional({ enum: ENERGY_RATINGS, nullable: true }) energyRating?: EnergyRating | null;
  @ApiPropertyOptional({ enum: LISTING_CONDITIONS, nullable: true }) condition?: ListingCondition | null;
  @ApiNullable(String) region?: string | null;
  @ApiNullable(String) postalCode?: string | null;
  @ApiNullable(String, { description: 'A portal listing’s street address.' }) address?: string | null;
  @ApiPropertyOptional({ type: 'integer', nullable: true }) yearBuilt?: number | null;
  @ApiPropertyOptional({ type: [SourceListingImageView] }) images?: SourceListingImageView[];
  @ApiPropertyOptional({ description: 'A portal listing: the advertising agency.' }) agencyName?: string;
  @ApiPropertyOptional({ format: 'uri', description: 'A portal listing: its page on the portal.' })
  url?: string;
}
