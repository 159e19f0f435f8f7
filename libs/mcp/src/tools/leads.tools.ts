import { z } from 'zod';
import { CRM_STATUSES, LeadsQueries } from '@app/crm';
import { defineTool } from './tool';
import { ISO_TIME, LEAD_ID, pageInput, pageOf, UUID } from './schemas';

const tag = z.object({ id: UUID, name: z.string(), color: z.string(), leadCount: z.number().int() });

/** A row of `GET /v1/leads`. */
export const leadListItem = z.object({
  id: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phoneNumber: z.string(),
  language: z.string().nullable(),
  companyName: z.string().nullable(),
  crmStatus: z.enum(CRM_STATUSES),
  assigneeIds: z.array(UUID),
  purchasedAt: ISO_TIME,
  totalCalls: z.number().int(),
  lastCallAt: ISO_TIME.nullable(),
  pendingTasks: z.number().int(),
  nextTaskDueAt: ISO_TIME.nullable(),
  leadGroup: z.string().nullable(),
  tags: z.array(tag),
});

/** `GET /v1/leads/{leadId}`. */
export const lead = leadListItem.extend({
  source: z.string(),
  leadType: z.string().nullable(),
  createdAt: ISO_TIME,
  channels: z.array(z.string()),
  origin: z.string().nullable(),
  consent: z
    .object({
      contact: z.boolean(),
      marketing: z.boolean(),
      capturedAt: z.string(),
      wording: z.string().nullable(),
    })
    .nullable(),
});

/** Leads: the list (page mode) and one lead. */
export const LEAD_TOOLS = [
  defineTool({
    name: 'list_leads',
    title: 'List leads',
    description:
      'Leads newest first, a page at a time with an exact total. A member sees only the leads assigned to ' +
      'them; `assigneeIds` is for admins (ORG_ADMIN_REQUIRED otherwise).',
    route: 'GET /v1/leads',
    input: z.object({
      ...pageInput(100, 25),
      search: z.string().max(200).optional().describe('First name, last name, full name, email or phone.'),
      crmStatus: z.enum(CRM_STATUSES).optional(),
      assigneeIds: z.array(UUID).min(1).max(100).optional().describe('Admin only.'),
    }),
    output: pageOf(leadListItem),
    annotations: { readOnlyHint: true },
    run: ({ principal, input, get }) => get(LeadsQueries).list(principal, input),
  }),
  defineTool({
    name: 'get_lead',
    title: 'Read a lead',
    description:
      'One lead with its source, type, channels, origin and consent (NOT_FOUND when out of reach).',
    route: 'GET /v1/leads/{leadId}',
    input: z.object({ leadId: LEAD_ID }),
    output: lead,
    annotations: { readOnlyHint: true },
    run: ({ principal, input, get }) => get(LeadsQueries).get(principal, input.leadId),
  }),
];
