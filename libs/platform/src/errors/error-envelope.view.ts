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

/**
 * The legacy shape of the listing families (`/properties/*`, `/property-sources/*`):
 * `{ statusCode, code, message, missingScopes, requiredScopes }`, both arrays always present.
 */
export class LegacyErrorView {
  @ApiProperty({ type: 'integer', example: 403 })
  statusCode: number;
  @ApiProperty({
    enum: [
      ...new Set([...Object.keys(STATUS_OF), 'PROPERTY_PORTAL_QUOTA_EXHAUSTED', 'MEDIA_TYPE_NOT_ALLOWED']),
    ],
    description: 'Branch on this; the message can change.',
  })
  code: string;
  @ApiProperty({ description: 'For a validation error, names the first issue.' })
  message: string;
  @ApiProperty({ type: [String], description: 'The route scopes the key lacks; empty otherwise.' })
  missingScopes: string[];
  @ApiProperty({ type: [String], description: "The route's scopes." })
  requiredScopes: string[];
}
