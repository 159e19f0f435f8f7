import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ListingRoute } from '@app/platform';
import { BROCHURE_THEMES, FEATURE_CATALOGUE } from '../domain/listing-catalogue';
import { FeatureListView, ThemeListView } from '../views/catalogue.view';

@ApiTags('properties')
@Controller('properties')
export class ListingCatalogueController {
  @Get('themes')
  @ApiOperation({
    summary: 'List brochure themes',
    description:
      'The six brochure themes, each with its name, label and accent colour; brochures take `themeName` from here.',
  })
  @ListingRoute('properties:read')
  @ApiOkResponse({ type: ThemeListView })
  themes(): ThemeListView {
    return { data: BROCHURE_THEMES.map((theme) => ({ ...theme })) };
  }

  @Get('features')
  @ApiOperation({
    summary: 'List amenity features',
    description: 'The amenity slug catalogue a listing’s `features` take their values from.',
  })
  @ListingRoute('properties:read')
  @ApiOkResponse({ type: FeatureListView })
  features(): FeatureListView {
    return { data: FEATURE_CATALOGUE.map((feature) => ({ ...feature })) };
  }
}
