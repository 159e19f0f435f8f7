import { z } from 'zod';
import { NotesService, TASK_STATUSES, TasksService } from '@app/crm';
import { defineTool } from './tool';
import { ISO_TIME, LEAD_ID, listOf, UUID_INPUT } from './schemas';

const NOTE_MAX = 100_000;

export const note = z.object({
  id: z.string(),
  leadId: z.number().int(),
  authorId: z.string(),
  content: z.string(),
  isPinned: z.boolean(),
  occurredAt: ISO_TIME.nullable(),
  createdAt: ISO_TIME,
  updatedAt: ISO_TIME,
});

export const task = z.object({
  id: z.string(),
  leadId: z.number().int(),
  assigneeIds: z.array(z.string()),
  createdBy: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  dueDate: ISO_TIME.nullable(),
  status: z.enum(TASK_STATUSES),
  completedAt: ISO_TIME.nullable(),
  createdAt: ISO_TIME,
  updatedAt: ISO_TIME,
});

const DUE_DATE = z
  .string()
  .nullable()
  .optional()
  .describe('YYYY-MM-DD (midnight UTC) or an ISO 8601 timestamp with offset.');

/** Notes and tasks: reads, and the safe writes (a note, a task, a task's status). */
export const NOTE_TASK_TOOLS = [
  defineTool({
    name: 'list_notes',
    title: "List a lead's notes",
    description: 'Every note of a lead, newest first (`hasMore` false).',
    route: 'GET /v1/leads/{leadId}/notes',
    input: z.object({ leadId: LEAD_ID }),
    output: listOf(note),
    annotations: { readOnlyHint: true },
    run: ({ principal, input, get }) => get(NotesService).list(principal, input.leadId),
  }),
  defineTool({
    name: 'create_note',
    title: 'Add a note to a lead',
    description: "Adds a note authored by the key's person; answers the note.",
    route: 'POST /v1/leads/{leadId}/notes',
    input: z.object({ leadId: LEAD_ID, content: z.string().min(1).max(NOTE_MAX) }),
    output: note,
    annotations: { readOnlyHint: false, destructiveHint: false },
    run: ({ principal, input, get }) => get(NotesService).create(principal, input.leadId, input.content),
  }),
  defineTool({
    name: 'list_tasks',
    title: 'List tasks',
    description:
      "With `leadId`: the lead's tasks. Without: at most 500 tasks the key's person created or is on, " +
      'optionally by `status`. Soonest due first.',
    route: 'GET /v1/tasks',
    input: z.object({
      leadId: LEAD_ID.optional(),
      status: z.enum(TASK_STATUSES).optional().describe('Without leadId only.'),
    }),
    output: listOf(task),
    annotations: { readOnlyHint: true },
    run: ({ principal, input, get }) => get(TasksService).list(principal, input),
  }),
  defineTool({
    name: 'create_task',
    title: 'Create a task',
    description:
      "A task on a lead; its owner defaults to the key's person. `assigneeIds` and `teamIds` must be the " +
      "agency's members and live teams.",
    route: 'POST /v1/tasks',
    input: z.object({
      leadId: LEAD_ID,
      title: z.string().min(1).max(500),
      description: z.string().max(10_000).nullable().optional(),
      dueDate: DUE_DATE,
      assigneeIds: z.array(UUID_INPUT).max(50).optional(),
      teamIds: z.array(UUID_INPUT).max(50).optional(),
    }),
    output: task,
    annotations: { readOnlyHint: false, destructiveHint: false },
    run: ({ principal, input, get }) => get(TasksService).create(principal, input),
  }),
  defineTool({
    name: 'set_task_status',
    title: "Change a task's status",
    description:
      'Marks a task completed or pending again (its owner, someone on it, or an admin). Answers the task.',
    route: 'PATCH /v1/tasks/{taskId}',
    input: z.object({ taskId: UUID_INPUT, status: z.enum(TASK_STATUSES) }),
    output: task,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    run: ({ principal, input, get }) =>
      get(TasksService).change(principal, input.taskId, { status: input.status }),
  }),
];
