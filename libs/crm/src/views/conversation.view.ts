import { ApiProperty } from '@nestjs/swagger';
import { CHANNELS, DIRECTIONS, MESSAGE_KINDS, MESSAGE_STATUSES, UNTRUSTED_NOTE } from '../domain/records';

/** A chat message as the conversation shows it (spec: Chat message). */
export interface ChatMessageJson {
  id: string;
  channel: string;
  kind: string;
  direction: string;
  status: string;
  at: string;
  body: string;
  truncated: boolean;
  files: string[];
  sentBy: string | null;
}

export interface ConversationJson {
  leadId: number;
  messages: ChatMessageJson[];
  hasMore: boolean;
  untrusted: true;
  untrustedNote: string;
}

/** A row of `conversationStatement` (records.sql.ts). */
export interface ChatMessageRow {
  id: string;
  channel: string;
  kind: string;
  direction: string;
  status: string;
  at: Date | string;
  body: string;
  truncated: boolean;
  files: string[];
  sent_by: string | null;
}

export const toChatMessageJson = (row: ChatMessageRow): ChatMessageJson => ({
  id: row.id,
  channel: row.channel,
  kind: row.kind,
  direction: row.direction,
  status: row.status,
  at: new Date(row.at).toISOString(),
  body: row.body,
  truncated: row.truncated,
  files: row.files,
  sentBy: row.sent_by,
});

export const conversationJson = (
  leadId: number,
  messages: ChatMessageJson[],
  hasMore: boolean,
): ConversationJson => ({ leadId, messages, hasMore, untrusted: true, untrustedNote: UNTRUSTED_NOTE });

export class ChatMessageView implements ChatMessageJson {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: CHANNELS }) channel: string;
  @ApiProperty({ enum: MESSAGE_KINDS }) kind: string;
  @ApiProperty({ enum: DIRECTIONS }) direction: string;
  @ApiProperty({ enum: MESSAGE_STATUSES }) status: string;
  @ApiProperty({ format: 'date-time' }) at: string;
  @ApiProperty({ maxLength: 1000, description: 'Cut at 1,000 characters (`truncated` says so).' })
  body: string;
  @ApiProperty() truncated: boolean;
  @ApiProperty({ type: [String], description: 'File names only.' }) files: string[];

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The member who sent it; null for the customer’s messages or an unknown sender.',
  })
  sentBy: string | null;
}

export class ConversationView implements ConversationJson {
  @ApiProperty({ type: 'integer' }) leadId: number;

  @ApiProperty({
    type: [ChatMessageView],
    description:
      'Newest first. A page never ends inside a group of messages sharing one `at` (the group moves to ' +
      'the next page) unless that group alone exceeds `limit`.',
  })
  messages: ChatMessageView[];

  @ApiProperty({ description: 'While true, send the last message’s `at` as `before`.' }) hasMore: boolean;
  @ApiProperty({ enum: [true] }) untrusted: true;
  @ApiProperty({ example: UNTRUSTED_NOTE }) untrustedNote: string;
}
