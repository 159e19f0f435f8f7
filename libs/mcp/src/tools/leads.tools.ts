import { z } from 'zod';
import {
  CRM_STATUSES,
  DEAL_STAGES,
  DEAL_STATUSES,
  LeadsQueries,
  LeadsService,
  TimelineQueries,
} from '@app/crm';
import { task } from './notes-tasks.tools';
import { defineTool } from './tool';
import { ISO_TIME, LEAD_ID, offsetInput, pageInput, pageOf, UUID } from './schemas';
import type { UntrustedText } from './untrusted';

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
  defineTool({
    name: 'get_lead_timeline',
    title: "Read a lead's timeline",
    description:
      'What happened on a lead, newest first, offset paging: notes, tasks, deals, status changes, calls, ' +
      'messages, emails, inquiries, viewings, documents, brochures… (`tasksById`, `dealsById` and other ' +
      '`<name>ById` maps hold the records entries name). Customer-written texts (inquiry messages, inbound ' +
      'message previews, inbound email subjects) come wrapped as untrusted content.',
    route: 'GET /v1/leads/{leadId}/timeline',
    input: z.object({ leadId: LEAD_ID, ...offsetInput(100, 20) }),
    output: z.looseObject({
      data: z.array(z.looseObject({ type: z.string(), date: ISO_TIME })),
      hasMore: z.boolean(),
      nextOffset: z.number().int().nullable(),
      total: z.number().int(),
      totalIsExact: z.boolean(),
      tasksById: z.record(z.string(), task),
      dealsById: z.record(
        z.string(),
        z.object({
          id: z.string(),
          title: z.string(),
          status: z.enum(DEAL_STATUSES),
          stage: z.enum(DEAL_STAGES),
          amount: z.string().nullable(),
          currency: z.string(),
        }),
      ),
    }),
    annotations: { readOnlyHint: true },
    // the page's `<name>ById` maps are a template index the schema states as extra keys
    run: ({ principal, input, get }) =>
      get(TimelineQueries).page(principal, input.leadId, input.offset, input.limit) as Promise<never>,
    untrusted: (page) => timelineUntrusted(page.data as Record<string, unknown>[]),
  }),
  defineTool({
    name: 'set_lead_status',
    title: "Change a lead's CRM status",
    description: "Sets the lead's CRM status; the change goes on its timeline. Answers the lead.",
    route: 'PUT /v1/leads/{leadId}/status',
    input: z.object({ leadId: LEAD_ID, crmStatus: z.enum(CRM_STATUSES) }),
    output: lead,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    run: ({ principal, input, get }) =>
      get(LeadsService).changeStatus(principal, input.leadId, input.crmStatus),
  }),
];

/** The customer-written strings of timeline entries. */
function timelineUntrusted(entries: Record<string, unknown>[]): UntrustedText[] {
  const texts: UntrustedText[] = [];
  entries.forEach((entry, i) => {
    const inquiry = entry.inquiry as { message?: unknown } | undefined;
    if (entry.type === 'inquiry' && typeof inquiry?.message === 'string') {
      texts.push({ path: ['data', i, 'inquiry', 'message'], source: `timeline entry ${i} inquiry message` });
    }
    const message = entry.message as { direction?: unknown; messageId?: unknown } | undefined;
    if (entry.type === 'message' && message?.direction === 'inbound') {
      texts.push({
        path: ['data', i, 'message', 'preview'],
        source: `inbound message ${String(message.messageId)} preview`,
      });
    }
    const email = entry.email as { direction?: unknown; emailId?: unknown } | undefined;
    if (entry.type === 'email' && email?.direction === 'inbound') {
      texts.push({
        path: ['data', i, 'email', 'subject'],
        source: `inbound email ${String(email.emailId)} subject`,
      });
    }
  });
  return texts;
}
