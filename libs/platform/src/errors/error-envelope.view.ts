import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { STATUS_OF } from './error-codes';

class ErrorView {
  @ApiProperty({ enum: Object.keys(STATUS_OF), description: 'Branch on this; the message can change.' })
  code: string;
  @ApiProperty()
  message: string;
  @ApiProperty()
  status: number;
  @ApiPropertyOptional({
    description: '`missing` for scope errors; `issues` ([{path, message}]) for validation errors',
    type: 'object',
    additionalProperties: true,
  })
  details?: Record<string, unknown>;
}

/** `{ error: { code, message, status, details? }, requestId }` */
export class ErrorEnvelopeView {
  @ApiProperty({ type: ErrorView })
  error: ErrorView;
  @ApiProperty({ description: 'Same value as the X-Request-Id header' })
  requestId: string;
}
