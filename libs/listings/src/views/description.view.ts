import { ApiProperty } from '@nestjs/swagger';
import { DESCRIPTION_LANGUAGES, type DescriptionLanguage } from '../domain/description-templates';

/** A generated listing description (`POST /properties/{id}/description`). */
export interface DescriptionJson {
  description: string;
  language: DescriptionLanguage;
  generatedBy: 'template';
}

export class DescriptionView implements DescriptionJson {
  @ApiProperty({
    maxLength: 5000,
    description: 'At most `maxLength` characters, cut at a sentence or word end.',
  })
  description: string;

  @ApiProperty({ enum: DESCRIPTION_LANGUAGES })
  language: DescriptionLanguage;

  @ApiProperty({ enum: ['template'], description: 'Always `template`: fixed templates, no external model.' })
  generatedBy: 'template';
}
