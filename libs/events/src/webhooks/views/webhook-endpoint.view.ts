import { ApiProperty } from '@nestjs/swagger';
import { ApiNullable } from '@app/platform';
import type { DeliveryStatus, DisabledReason, EndpointStatus } from '../domain/webhook-rules';

/** A stored endpoint row (snake_case, as the database answers). */
export interface EndpointRow {
  id: string;
  organization_id: string;
  url: string;
  description: string | null;
  events: string[];
  status: EndpointStatus;
  disabled_reason: DisabledReason | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_valid_until: Date | string | null;
  failing_since: Date | string | null;
  relay_from_sequence: string;
  version: number;
  created_at: Date | string;
  updated_at: Date | string;
}

export interface DeliveryRow {
  id: string;
  organization_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  status: DeliveryStatus;
  response_status: number | null;
  duration_ms: number | null;
  error: string | null;
  created_at: Date | string;
  next_attempt_at: Date | string | null;
}

const iso = (value: Date | string): string => new Date(value).toISOString();
const isoOrNull = (value: Date | string | null): string | null => (value === null ? null : iso(value));

const STATUSES = ['enabled', 'disabled'];
const REASONS = ['failing', 'gone', 'manual'];
const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'];

export interface WebhookEndpointJson {
  id: string;
  url: string;
  description: string | null;
  events: string[];
  status: EndpointStatus;
  disabledReason: DisabledReason | null;
  createdAt: string;
}

export const toEndpointJson = (row: EndpointRow): WebhookEndpointJson => ({
  id: row.id,
  url: row.url,
  description: row.description,
  events: row.events,
  status: row.status,
  disabledReason: row.disabled_reason,
  createdAt: iso(row.created_at),
});

export interface DeliveryJson {
  id: string;
  eventId: string;
  eventType: string;
  attempt: number;
  status: DeliveryStatus;
  responseStatus: number | null;
  durationMs: number | null;
  error: string | null;
  createdAt: string;
  nextAttemptAt: string | null;
}

export const toDeliveryJson = (row: DeliveryRow): DeliveryJson => ({
  id: row.id,
  eventId: row.event_id,
  eventType: row.event_type,
  attempt: row.attempt,
  status: row.status,
  responseStatus: row.response_status,
  durationMs: row.duration_ms,
  error: row.error,
  createdAt: iso(row.created_at),
  nextAttemptAt: row.status === 'pending' ? isoOrNull(row.next_attempt_at) : null,
});

/** An endpoint (INTERFACES.md "Webhook endpoints"); never its secret. */
export class WebhookEndpointView implements WebhookEndpointJson {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({
    format: 'uri',
    example: 'https://example.com/webhooks/estate',
    description: '`https://` (the host must resolve to public addresses).',
  })
  url: string;
  @ApiNullable(String, { maxLength: 255 }) description: string | null;
  @ApiProperty({
    type: [String],
    example: ['lead.created', 'deal.*'],
    description: 'Catalogued event types, `<kind>.*` or `*`.',
  })
  events: string[];
  @ApiProperty({ enum: STATUSES }) status: EndpointStatus;
  @ApiProperty({
    type: String,
    enum: REASONS,
    nullable: true,
    description:
      'Why it is disabled: `failing` (no successful delivery for 3 days), `gone` (the receiver answered ' +
      '410), `manual` (`enabled: false`); null while enabled.',
  })
  disabledReason: DisabledReason | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

/** The answer of the create: the endpoint and its signing secret, shown only here and on rotation. */
export class CreatedWebhookEndpointView extends WebhookEndpointView {
  @ApiProperty({
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    description: '`whsec_` + base64 of 32 random bytes. Shown only in this answer and on rotation.',
  })
  secret: string;
}

export class WebhookEndpointListView {
  @ApiProperty({ type: [WebhookEndpointView] }) data: WebhookEndpointView[];
  @ApiProperty({ description: 'Always false: an organization holds at most 10 endpoints.' }) hasMore: boolean;
}

export class RotatedWebhookSecretView {
  @ApiProperty({ description: 'The new signing secret (shown only here).' }) secret: string;
  @ApiProperty({
    format: 'date-time',
    description: 'Until then deliveries carry a second signature made with the previous secret.',
  })
  previousSecretValidUntil: string;
}

/** One event for one endpoint (INTERFACES.md "Webhook endpoints", deliveries). */
export class WebhookDeliveryView implements DeliveryJson {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({
    example: 'evt_01936f4e-5c3a-7b2e-9d41-3f6a2b1c0d9e',
    description: 'The `webhook-id` header.',
  })
  eventId: string;
  @ApiProperty({ example: 'lead.created' }) eventType: string;
  @ApiProperty({ type: 'integer', minimum: 0, maximum: 10, description: 'Attempts made (or under way).' })
  attempt: number;
  @ApiProperty({ enum: DELIVERY_STATUSES }) status: DeliveryStatus;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: "The receiver's HTTP status at the last attempt.",
  })
  responseStatus: number | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'How long the last attempt took.' })
  durationMs: number | null;
  @ApiNullable(String, { description: 'Why the last attempt failed (a timeout, a refused address, …).' })
  error: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiNullable(String, { format: 'date-time', description: 'When a pending delivery is tried next.' })
  nextAttemptAt: string | null;
}

export class WebhookDeliveryPageView {
  @ApiProperty({ type: [WebhookDeliveryView] }) data: WebhookDeliveryView[];
  @ApiProperty() hasMore: boolean;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'The `offset` of the next page; null on the last.',
  })
  nextOffset: number | null;
}
