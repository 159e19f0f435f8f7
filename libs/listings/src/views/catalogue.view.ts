import { ApiProperty } from '@nestjs/swagger';
import { BROCHURE_THEMES, FEATURE_CATALOGUE } from '../domain/listing-catalogue';

export class ThemeView {
  @ApiProperty({ enum: BROCHURE_THEMES.map((theme) => theme.name) }) name: string;
  @ApiProperty({ example: 'Classic' }) label: string;
  @ApiProperty({ pattern: '^#[0-9A-F]{6}$', example: '#1F3A5F' }) accentColor: string;
}

export class ThemeListView {
  @ApiProperty({ type: [ThemeView], description: 'The six brochure themes.' }) data: ThemeView[];
}

export class FeatureView {
  @ApiProperty({ enum: FEATURE_CATALOGUE.map((feature) => feature.slug) }) slug: string;
  @ApiProperty({ example: 'Swimming pool' }) label: string;
  @ApiProperty({ example: 'outdoor', description: 'A heading for pickers.' }) group: string;
}

export class FeatureListView {
  @ApiProperty({ type: [FeatureView], description: 'The amenity slug catalogue.' }) data: FeatureView[];
}
