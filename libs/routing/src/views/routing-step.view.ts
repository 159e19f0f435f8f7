import { ApiProperty } from '@nestjs/swagger';
import {
  SKIP_REASONS,
  STEP_OUTCOMES,
  type RoutingStep,
  type SkipReason,
  type StepOutcome,
} from '../domain/routing-engine';

export class SkippedPersonView {
  @ApiProperty({ format: 'uuid' }) userId: string;
  @ApiProperty({
    enum: SKIP_REASONS,
    description:
      '`away` (away now), `daily_cap` (reached the route’s cap today), `not_member` (left the agency).',
  })
  reason: SkipReason;
}

/** One step of a routing decision (INTERFACES.md "Lead routing"). */
export class RoutingStepView implements RoutingStep {
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The route; null for the step after the routes (Smart routing or Unassigned).',
  })
  ruleId: string | null;
  @ApiProperty({
    enum: STEP_OUTCOMES,
    description:
      '`assigned`, `no_match` (conditions false), `paused`, `closed` (outside its schedule), `nobody_available` ' +
      '(everyone skipped), `smart_routing` (Smart routing took the lead), `unassigned`.',
  })
  outcome: StepOutcome;
  @ApiProperty({ type: [SkippedPersonView], description: 'Everyone of the pool left out, with the reason.' })
  skipped: SkippedPersonView[];
}
