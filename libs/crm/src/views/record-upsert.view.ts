import { ApiProperty } from '@nestjs/swagger';

/** The answer of a connector's upsert: 201 on the first write, 200 afterwards. */
export interface UpsertResultJson {
  id: string;
  leadId: number;
  created: boolean;
}

export class UpsertResultView implements UpsertResultJson {
  @ApiProperty({
    format: 'uuid',
    description: 'The record’s id on `/v1` (a call’s: `/v1/calls/{id}/transcript`).',
  })
  id: string;

  @ApiProperty({ type: 'integer', example: 1042 }) leadId: number;

  @ApiProperty({
    description: 'True on the first write (201); false when an existing record was replaced (200).',
  })
  created: boolean;
}
