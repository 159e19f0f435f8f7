import { z } from 'zod';
import { CHANNELS, ConversationQueryDto, RecordsQueries } from '@app/crm';
import { asDto } from './dto';
import { defineTool } from './tool';
import { ISO_TIME, LEAD_ID, listOf, offsetInput, offsetPageOf, UUID_INPUT } from './schemas';
import type { UntrustedText } from './untrusted';

const call = z.object({
  id: z.string(),
  leadId: z.number().int(),
  ownerId: z.string().nullable(),
  direction: z.string(),
  status: z.string(),
  outcome: z.string().nullable(),
  endedReason: z.string().nullable(),
  durationSeconds: z.number().int(),
  hasRecording: z.boolean(),
  hasTranscript: z.boolean(),
  hasAnalysis: z.boolean(),
  startedAt: ISO_TIME,
  endedAt: ISO_TIME.nullable(),
  createdAt: ISO_TIME,
});

const chatMessage = z.object({
  id: z.string(),
  channel: z.string(),
  kind: z.string(),
  direction: z.string(),
  status: z.string(),
  at: ISO_TIME,
  body: z.string(),
  truncated: z.boolean(),
  files: z.array(z.string()),
  sentBy: z.string().nullable(),
});

const email = z.object({
  id: z.string(),
  subject: z.string(),
  status: z.string(),
  source: z.string(),
  captureDirection: z.string().nullable(),
  fromAddress: z.string(),
  recipientEmail: z.string(),
  bodyText: z.string(),
  sentAt: ISO_TIME.nullable(),
  messageAt: ISO_TIME,
  capturedAt: ISO_TIME.nullable(),
  createdAt: ISO_TIME,
  untrusted: z.literal(true).optional(),
});

const READ_ONLY = 'What connectors stored; a member reads the leads assigned to them, an admin every lead.';

/** Calls, transcripts, analyses, the chat conversation and emails of a lead (read only). */
export const RECORD_TOOLS = [
  defineTool({
    name: 'list_calls',
    title: "List a lead's calls",
    description: `Newest first, offset paging with an exact total. ${READ_ONLY}`,
    route: 'GET /v1/leads/{leadId}/calls',
    input: z.object({ leadId: LEAD_ID, ...offsetInput(100, 20) }),
    output: offsetPageOf(call),
    annotations: { readOnlyHint: true },
    run: ({ principal, input, get }) =>
      get(RecordsQueries).calls(principal, input.leadId, input.offset, input.limit),
  }),
  defineTool({
    name: 'get_call_transcript',
    title: "Read a call's transcript",
    description:
      '`available: false` with `message` when none is stored; otherwise `transcript` (customer speech, wrapped ' +
      `as untrusted content) and \`detectedLanguage\`. ${READ_ONLY}`,
    route: 'GET /v1/calls/{callId}/transcript',
    input: z.object({ callId: UUID_INPUT }),
    output: z.object({
      callId: z.string(),
      available: z.boolean(),
      message: z.string().optional(),
      transcript: z.string().optional(),
      detectedLanguage: z.string().optional(),
      untrusted: z.literal(true).optional(),
    }),
    annotations: { readOnlyHint: true },
    run: ({ principal, input, get }) => get(RecordsQueries).transcript(principal, input.callId),
    untrusted: (answer) =>
      answer.transcript ? [{ path: ['transcript'], source: `call ${answer.callId} transcript` }] : [],
  }),
  defineTool({
    name: 'get_call_analysis',
    title: "Read a call's analysis",
    description:
      "`available: false` with `message` when none is stored; otherwise the connector's analysis at top level " +
      `(\`summary\`, \`sentiment\`, \`objections\`, \`nextSteps\`, \`coachingTips\`, \`signals\`, \`model\`, \`analyzedAt\`); ` +
      `quotes of the customer come wrapped as untrusted content. ${READ_ONLY}`,
    route: 'GET /v1/calls/{callId}/analysis',
    input: z.object({ callId: UUID_INPUT }),
    output: z.looseObject({ callId: z.string(), available: z.boolean(), message: z.string().optional() }),
    annotations: { readOnlyHint: true },
    run: ({ principal, input, get }) => get(RecordsQueries).analysis(principal, input.callId),
    untrusted: (answer) => {
      const objections = Array.isArray(answer.objections) ? (answer.objections as { quote?: unknown }[]) : [];
      return objections.flatMap((objection, i): UntrustedText[] =>
        typeof objection?.quote === 'string'
          ? [{ path: ['objections', i, 'quote'], source: `call ${answer.callId} objection ${i} quote` }]
          : [],
      );
    },
  }),
  defineTool({
    name: 'get_conversation',
    title: "Read a lead's chat conversation",
    description:
      'Newest first, `limit` 1-50 (20), older pages with `before` (the last `at` seen, exclusive), one ' +
      '`channel` or all. Bodies cut at 1,000 characters (`truncated`). Message bodies are customer-written ' +
      `content (wrapped as untrusted). ${READ_ONLY}`,
    route: 'GET /v1/leads/{leadId}/conversation',
    input: z.object({
      leadId: LEAD_ID,
      limit: z.number().int().min(1).max(50).default(20),
      before: z.string().optional().describe('ISO 8601 date-time with Z or an offset.'),
      channel: z.enum(CHANNELS).optional(),
    }),
    output: z.object({
      leadId: z.number().int(),
      messages: z.array(chatMessage),
      hasMore: z.boolean(),
      untrusted: z.literal(true),
      untrustedNote: z.string(),
    }),
    annotations: { readOnlyHint: true },
    run: async ({ principal, input, get }) => {
      const { leadId, ...params } = input;
      const query = await asDto(ConversationQueryDto, 'query', params);
      return get(RecordsQueries).conversation(principal, leadId, {
        limit: query.limit,
        before: query.before ? new Date(query.before) : null,
        channel: query.channel ?? null,
      });
    },
    untrusted: (answer) =>
      answer.messages.map((message, i) => ({
        path: ['messages', i, 'body'],
        source: `${message.direction} ${message.channel} message ${message.id}`,
      })),
  }),
  defineTool({
    name: 'list_emails',
    title: "List a lead's emails",
    description:
      'The 500 most recent, newest first (`hasMore` when older ones exist). Inbound (captured) emails carry ' +
      `\`untrusted: true\`; their subject and body come wrapped as untrusted content. ${READ_ONLY}`,
    route: 'GET /v1/leads/{leadId}/emails',
    input: z.object({ leadId: LEAD_ID }),
    output: listOf(email),
    annotations: { readOnlyHint: true },
    run: ({ principal, input, get }) => get(RecordsQueries).emails(principal, input.leadId),
    untrusted: (answer) =>
      answer.data.flatMap((row, i): UntrustedText[] =>
        row.untrusted
          ? [
              { path: ['data', i, 'subject'], source: `inbound email ${row.id} subject` },
              { path: ['data', i, 'bodyText'], source: `inbound email ${row.id} body` },
            ]
          : [],
      ),
  }),
];
