import { ApiProperty } from '@nestjs/swagger';

export type DeduplicatedBy = 'externalId' | 'email' | 'phone';

/** The answer of a lead intake: 201 when the lead is new, 200 when an existing one matched. */
export interface IntakeResultJson {
  leadId: number;
  created: boolean;
  deduplicatedBy: DeduplicatedBy | null;
  assigneeIds: string[];
}

export class IntakeResultView implements IntakeResultJson {
  @ApiProperty({ type: 'integer', example: 1042 }) leadId: number;
  @ApiProperty({ description: 'True when this intake made the lead (201); false when it matched one (200).' })
  created: boolean;

  @ApiProperty({
    enum: ['externalId', 'email', 'phone'],
    nullable: true,
    type: String,
    description: 'What matched the existing lead, in that order of precedence; null for a new lead.',
  })
  deduplicatedBy: DeduplicatedBy | null;

  @ApiProperty({ type: [String], description: 'The lead’s owners after the intake; [] when unassigned.' })
  assigneeIds: string[];
}
