import { z } from 'zod';
import { OffersService, PreviewQueueDto, QueuePreviewService, QueuesService } from '@app/queues';
import { LEAD_ID } from './schemas';
import { offerListOutput, queueListOutput, queuePreviewInput, queuePreviewOutput } from './queues.schemas';
import { asDto } from './dto';
import { defineTool } from './tool';

/** Queues and their offers: the sidebar list, a preview, a lead's offers (all reads). */
export const QUEUE_TOOLS = [
  defineTool({
    name: 'list_queues',
    title: 'List queues',
    description:
      'The calling queues of the sidebar: the system queue ("My calls"), then the caller’s own queues, then ' +
      'those shared with them, each group by name, with each queue’s definition and a summary in words.',
    route: 'GET /v1/queues',
    input: z.object({}),
    output: queueListOutput,
    annotations: { readOnlyHint: true },
    run: ({ principal, get }) => get(QueuesService).list(principal),
  }),
  defineTool({
    name: 'preview_queue',
    title: 'Preview a queue',
    description:
      'A stored queue (`queueId`) or an unsaved definition over the leads the caller reaches: lane counts, ' +
      'the rest, leads cooling down, offer-rule counts and the first 10 leads of each lane in order, each ' +
      'with the reason it is there. NOT_FOUND for a queue the caller cannot open (another agency’s, a ' +
      'colleague’s private one). Gives up after 5 s.',
    route: 'POST /v1/queues/preview',
    input: z.object(queuePreviewInput),
    output: queuePreviewOutput,
    annotations: { readOnlyHint: true },
    run: async ({ principal, input, get }) =>
      get(QueuePreviewService).preview(principal, await asDto(PreviewQueueDto, 'body', input)),
  }),
  defineTool({
    name: 'list_lead_offers',
    title: 'List a lead’s offers',
    description:
      'What the offer rules of the agency’s queues proposed for a lead (set a status, add or remove a tag, ' +
      'assign, follow up): open offers and those decided in the last 7 days, newest first (at most 100). ' +
      'NOT_FOUND when the lead is out of reach.',
    route: 'GET /v1/leads/{leadId}/offers',
    input: z.object({ leadId: LEAD_ID }),
    output: offerListOutput,
    annotations: { readOnlyHint: true },
    run: ({ principal, input, get }) => get(OffersService).list(principal, input.leadId),
  }),
];
