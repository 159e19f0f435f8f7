import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsString, IsUrl, Max, MaxLength, Min } from 'class-validator';
import { IsOmittable } from '@app/platform';
import { FEED_SOURCES, type FeedSource } from '../../domain/feeds/feed-parser';
import { FEED_REFRESH } from '../../domain/property-feed.entity';

const URL_RULE = {
  protocols: ['http', 'https'],
  require_protocol: true,
  require_tld: false,
  allow_underscores: true,
};
const URL_MESSAGE = { message: 'url must be an http or https URL' };

export class ConnectFeedDto {
  @ApiProperty({ enum: FEED_SOURCES, description: 'One feed per source and agency.' })
  @IsIn(FEED_SOURCES)
  source: FeedSource;

  @ApiProperty({ format: 'uri', maxLength: 2000, example: 'https://feeds.example.com/kyero.xml' })
  @IsString()
  @MaxLength(2000)
  @IsUrl(URL_RULE, URL_MESSAGE)
  url: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: FEED_REFRESH.min,
    maximum: FEED_REFRESH.max,
    default: FEED_REFRESH.default,
  })
  @IsOmittable()
  @IsInt()
  @Min(FEED_REFRESH.min)
  @Max(FEED_REFRESH.max)
  refreshMinutes?: number;
}

export class ChangeFeedDto {
  @ApiPropertyOptional({ format: 'uri', maxLength: 2000 })
  @IsOmittable()
  @IsString()
  @MaxLength(2000)
  @IsUrl(URL_RULE, URL_MESSAGE)
  url?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: FEED_REFRESH.min, maximum: FEED_REFRESH.max })
  @IsOmittable()
  @IsInt()
  @Min(FEED_REFRESH.min)
  @Max(FEED_REFRESH.max)
  refreshMinutes?: number;
}
