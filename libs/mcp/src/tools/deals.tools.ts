import { z } from 'zod';
import { DEAL_STAGES, DEAL_STATUSES, DealsQueries, DealsService, ListDealsQueryDto } from '@app/crm';
import { asDto } from './dto';
import { defineTool } from './tool';
import { ISO_TIME, LEAD_ID, listOf, UUID_INPUT } from './schemas';

const MONEY = z.string().describe('Two-decimal string.');

export const deal = z.object({
  id: z.string(),
  leadId: z.number().int(),
  assigneeIds: z.array(z.string()),
  title: z.string(),
  status: z.enum(DEAL_STATUSES),
  stage: z.enum(DEAL_STAGES),
  amount: MONEY.nullable(),
  currency: z.string(),
  propertyListingId: z.string().nullable(),
  expectedCloseAt: ISO_TIME.nullable(),
  wonAt: ISO_TIME.nullable(),
  lostAt: ISO_TIME.nullable(),
  lostReason: z.string().nullable(),
  stageChangedAt: ISO_TIME,
  createdAt: ISO_TIME,
  updatedAt: ISO_TIME,
  participants: z.array(z.object({ userId: z.string(), role: z.string(), percent: z.string() })),
  commissionMode: z.string(),
  commissionAmount: MONEY.nullable(),
  commissionPercent: z.string().nullable(),
  invoiceNumber: z.string().nullable(),
  estimatedCollectionAt: ISO_TIME.nullable(),
  collectedAt: ISO_TIME.nullable(),
});

const DATE_BOUND = z
  .string()
  .optional()
  .describe('Inclusive; YYYY-MM-DD (its whole UTC day) or an ISO 8601 timestamp with offset.');
const AMOUNT_BOUND = z
  .string()
  .regex(/^\d{1,12}(\.\d{1,2})?$/)
  .optional()
  .describe('Raw amount, no currency conversion.');

/** Deals: the filtered list (its DTO's own rules) and one deal. */
export const DEAL_TOOLS = [
  defineTool({
    name: 'list_deals',
    title: 'List deals',
    description:
      "Without `leadId`: the deals the key's person is on (an admin's `assigneeIds` lists those people's " +
      'instead). With `leadId`: every deal of that lead. Most recently updated first, at most 1,000.',
    route: 'GET /v1/deals',
    input: z.object({
      leadId: LEAD_ID.optional(),
      status: z.enum(DEAL_STATUSES).optional(),
      stage: z.enum(DEAL_STAGES).optional(),
      stages: z
        .array(z.enum(DEAL_STAGES))
        .max(DEAL_STAGES.length * 2)
        .optional()
        .describe('Ignored with leadId.'),
      q: z.string().max(200).optional().describe('Title, lead first, last or full name, lead email.'),
      assigneeIds: z.array(UUID_INPUT).min(1).max(100).optional().describe('Admin only.'),
      propertyListingId: UUID_INPUT.optional(),
      amountMin: AMOUNT_BOUND,
      amountMax: AMOUNT_BOUND,
      expectedCloseFrom: DATE_BOUND,
      expectedCloseTo: DATE_BOUND,
      createdFrom: DATE_BOUND,
      createdTo: DATE_BOUND,
      closedFrom: DATE_BOUND,
      closedTo: DATE_BOUND,
      collectionState: z.enum(['invoiced_not_collected', 'collected']).optional(),
    }),
    output: listOf(deal),
    annotations: { readOnlyHint: true },
    run: async ({ principal, input, get }) => {
      const query = await asDto(ListDealsQueryDto, 'query', input);
      return get(DealsQueries).list(principal, query.filters());
    },
  }),
  defineTool({
    name: 'get_deal',
    title: 'Read a deal',
    description: 'One deal with its commission participants.',
    route: 'GET /v1/deals/{dealId}',
    input: z.object({ dealId: UUID_INPUT }),
    output: deal,
    annotations: { readOnlyHint: true },
    run: ({ principal, input, get }) => get(DealsService).get(principal, input.dealId),
  }),
];
