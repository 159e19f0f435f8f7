import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ApiLegacyBadRequestErrors,
  ApiLegacyNotFoundError,
  ApiLegacyPayloadTooLargeError,
  CurrentPrincipal,
  ListingWriteRoute,
  Principal,
  UuidParam,
} from '@app/platform';
import { ListingDescriptionService } from '../application/publications-description.service';
import { DescriptionView } from '../views/description.view';
import { GenerateDescriptionDto } from './dto/publications.dto';

@ApiTags('properties')
@Controller('properties')
export class ListingDescriptionController {
  constructor(private readonly descriptions: ListingDescriptionService) {}

  @Post(':id/description')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Generate a listing description',
    description:
      'A description from fixed templates (no external model; the same listing and options give the same ' +
      'text), in `language` (en, es, it, pt, de, fr) and `tone` (neutral, warm, luxury; default neutral), ' +
      'made of the property type, operation, city and community, bedrooms, bathrooms, living and plot ' +
      'area with their unit, features, energy rating and price; at most `maxLength` characters (200-5000, ' +
      'default 1000), cut after a whole sentence (else a whole word). `apply` true also stores it as the ' +
      'listing’s `description` (a history row `apikey:<keyId>` with `changedFields` `["description"]`, ' +
      '`version` + 1; an identical text changes nothing). Own listings only.',
  })
  @ListingWriteRoute('properties:write')
  @ApiOkResponse({ type: DescriptionView })
  @ApiLegacyBadRequestErrors()
  @ApiLegacyNotFoundError('Listing', 'when it is absent, deleted or another agency’s')
  @ApiLegacyPayloadTooLargeError('the body is larger than 5 MB.')
  generate(
    @CurrentPrincipal() actor: Principal,
    @Param('id', UuidParam) id: string,
    @Body() body: GenerateDescriptionDto,
  ) {
    return this.descriptions.generate(actor, id, {
      language: body.language,
      tone: body.tone,
      maxLength: body.maxLength,
      apply: body.apply,
    });
  }
}
