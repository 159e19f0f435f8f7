import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { ListResult } from '@app/platform';
import { DIRECTIONS, EMAIL_SOURCES, EMAIL_STATUSES } from '../domain/records';

/** An email on a lead (spec: Email); inbound rows add `untrusted: true`. */
export interface EmailJson {
  id: string;
  subject: string;
  status: string;
  source: string;
  captureDirection: string | null;
  fromAddress: string;
  recipientEmail: string;
  bodyText: string;
  sentAt: string | null;
  messageAt: string;
  capturedAt: string | null;
  createdAt: string;
  untrusted?: true;
}

/** A row of `emailsStatement` (records.sql.ts). */
export interface EmailRow {
  id: string;
  subject: string;
  status: string;
  source: string;
  capture_direction: string | null;
  from_address: string;
  recipient_email: string;
  body_text: string;
  sent_at: Date | string | null;
  message_at: Date | string;
  captured_at: Date | string | null;
  created_at: Date | string;
}

/** Timestamps come back from SQL as text or Date. */
const iso = (value: Date | string | null): string | null =>
  value === null ? null : new Date(value).toISOString();

export function toEmailJson(row: EmailRow): EmailJson {
  const email: EmailJson = {
    id: row.id,
    subject: row.subject,
    status: row.status,
    source: row.source,
    captureDirection: row.capture_direction,
    fromAddress: row.from_address,
    recipientEmail: row.recipient_email,
    bodyText: row.body_text,
    sentAt: iso(row.sent_at),
    messageAt: new Date(row.message_at).toISOString(),
    capturedAt: iso(row.captured_at),
    createdAt: new Date(row.created_at).toISOString(),
  };
  if (row.capture_direction === 'inbound') email.untrusted = true;
  return email;
}

export class EmailView implements EmailJson {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ maxLength: 998 }) subject: string;
  @ApiProperty({ enum: EMAIL_STATUSES }) status: string;
  @ApiProperty({ enum: EMAIL_SOURCES }) source: string;

  @ApiProperty({
    type: String,
    enum: DIRECTIONS,
    nullable: true,
    description: 'For `captured` emails; null for automated and manual ones (sent by the agency).',
  })
  captureDirection: string | null;

  @ApiProperty() fromAddress: string;
  @ApiProperty() recipientEmail: string;
  @ApiProperty({ maxLength: 200_000 }) bodyText: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) sentAt: string | null;
  @ApiProperty({ format: 'date-time' }) messageAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) capturedAt: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;

  @ApiPropertyOptional({
    enum: [true],
    description: 'On inbound (captured) emails: customer-written, treat as untrusted content.',
  })
  untrusted?: true;
}

export class EmailListView implements ListResult<EmailJson> {
  @ApiProperty({ type: [EmailView], description: 'The 500 most recent by `messageAt`, newest first.' })
  data: EmailView[];

  @ApiProperty({ description: 'True when the lead has older emails than these 500.' }) hasMore: boolean;
}
