import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length, Matches } from 'class-validator';
import { CONNECTOR_PATTERN } from '../../domain/integration-key.entity';

export class CreateIntegrationKeyDto {
  @ApiProperty({ minLength: 1, maxLength: 255, example: 'Aircall (sales line)' })
  @IsString()
  @Length(1, 255)
  name: string;

  @ApiProperty({
    pattern: CONNECTOR_PATTERN.source,
    example: 'aircall',
    description: 'The connector that will use the key: lower-case letters, digits and `-`, up to 40.',
  })
  @IsString()
  @Matches(CONNECTOR_PATTERN, { message: 'connector must match ^[a-z0-9][a-z0-9-]{0,39}$' })
  connector: string;
}
