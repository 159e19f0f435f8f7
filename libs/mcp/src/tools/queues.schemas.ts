import { z } from 'zod';
import { CRM_STATUSES, FIELDS, OFFER_KINDS, OFFER_TRIGGERS, OPERATORS, SORT_KEYS } from '@app/queues';
import { ISO_TIME } from './schemas';
import { ID, INT } from './view-schemas';

/** Queues (INTERFACES.md "Queues"): the queue, its preview, and an offer, as zod. */

const VALUE_KINDS = [
  'strings',
  'integer',
  'integerRange',
  'boolean',
  'string',
  'empty',
  'date',
  'dateRange',
] as const;

export const conditionValue = z.object({
  kind: z.enum(VALUE_KINDS),
  values: z.array(z.string()).optional().describe('`strings`: ids, `$me`, set values.'),
  value: z.union([z.number(), z.boolean(), z.string()]).optional(),
  min: INT.optional(),
  max: INT.optional(),
  from: z.string().optional().describe('`dateRange`: YYYY-MM-DD.'),
  to: z.string().optional(),
});

export const condition = z.object({
  type: z.literal('condition'),
  field: z.enum(FIELDS),
  operator: z.enum(OPERATORS),
  value: conditionValue,
});

const innerGroup = z.object({
  type: z.literal('group'),
  combinator: z.enum(['and', 'or']),
  children: z.array(condition),
});

export const filterGroup = z.object({
  type: z.literal('group'),
  combinator: z.enum(['and', 'or']),
  children: z
    .array(z.union([condition, innerGroup]))
    .describe('Conditions, or groups of conditions (two levels at most).'),
});

const sort = z.object({ key: z.enum(SORT_KEYS), dir: z.enum(['asc', 'desc']) });
const people = z.object({ userIds: z.array(ID), teamIds: z.array(ID) });

export const queueOffer = z.object({
  kind: z.enum(OFFER_KINDS),
  status: z.enum(CRM_STATUSES).optional().describe('`set_status`'),
  tagId: ID.optional().describe('`add_tag`, `remove_tag`'),
  userId: ID.optional().describe('`assign`: a member'),
  inDays: INT.optional().describe('`follow_up`'),
});

const lane = z.object({
  id: z.string(),
  name: z.string(),
  when: filterGroup.describe('An empty group takes every lead no earlier lane took.'),
  sort: sort.nullable(),
});

const rule = z.object({
  id: z.string(),
  when: z.enum(OFFER_TRIGGERS),
  if: filterGroup.describe('An empty group offers to every lead of the queue.'),
  offer: queueOffer,
});

export const queueDescription = z
  .object({
    who: z.string(),
    lanes: z.array(z.object({ id: z.string(), name: z.string(), text: z.string() })),
    rest: z.string(),
    order: z.string(),
    calling: z.string(),
    rules: z.array(z.object({ id: z.string(), text: z.string() })),
  })
  .describe('Words built from the structure; they may change (branch on the structure, not the words).');

export const queue = z.object({
  id: ID,
  name: z.string(),
  icon: z.string(),
  scope: z.enum(['private', 'shared']),
  mine: z.boolean().describe('The caller created this queue.'),
  system: z.boolean().describe('The organization\'s system queue ("My calls").'),
  summary: z.string(),
  description: queueDescription,
  root: filterGroup,
  lanes: z.array(lane),
  rest: z.enum(['hide', 'last']),
  sort: sort.nullable(),
  calling: z.object({
    pool: z.enum(['owners', 'team']),
    coolDownMinutes: INT,
    people: people.nullable().describe('The team of a `team` pool; null otherwise.'),
  }),
  rules: z.array(rule),
  audience: people.describe('Who sees a shared queue besides its creator (empty lists: the whole agency).'),
  updatedAt: ISO_TIME,
});

/** `GET /v1/queues`. */
export const queueListOutput = z.object({
  queues: z
    .array(queue)
    .describe(
      'The system queue, then the caller’s own queues, then those shared with them, each group by name.',
    ),
});

/** `POST /v1/queues/preview`. */
export const queuePreviewOutput = z.object({
  summary: z.string(),
  description: queueDescription,
  lanes: z.array(z.object({ id: z.string(), name: z.string(), count: INT })),
  restCount: INT.describe('Leads no lane takes (cooling ones left out), whatever `rest` is.'),
  coolingDownCount: INT.describe('Leads left out because they were called within `coolDownMinutes`.'),
  offers: z.array(
    z.object({
      ruleId: z.string(),
      when: z.enum(OFFER_TRIGGERS),
      offer: queueOffer,
      count: INT.describe('Leads of the queue the rule’s `if` matches now.'),
    }),
  ),
  rows: z.array(
    z.object({
      id: INT.describe('The lead id.'),
      firstName: z.string(),
      lastName: z.string(),
      laneId: z.string().nullable().describe('Null for a rest row.'),
      laneName: z.string().nullable(),
      reason: z.string().describe('Why the lead is here and where.'),
    }),
  ),
  rowsPerLane: INT,
});

export const queuePreviewInput = {
  queueId: z.string().optional().describe('A stored queue the caller opens (UUID); or send `definition`.'),
  definition: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      'An unsaved definition (any of `root`, `lanes`, `rest`, `sort`, `calling`, `rules`, as `list_queues` shows ' +
        'them); or send `queueId`. Exactly one of the two, else VALIDATION_FAILED naming the path of each issue.',
    ),
};

/** An offer (`GET /v1/leads/{leadId}/offers`). */
export const offer = z.object({
  id: ID,
  leadId: INT,
  queueId: ID.describe('The queue whose rule made it.'),
  ruleId: z.string().describe("The rule's id in that queue."),
  when: z.enum(OFFER_TRIGGERS),
  offer: queueOffer,
  status: z.enum(['open', 'accepted', 'dismissed']),
  sentence: z.string().describe('The offer as a human sentence.'),
  createdAt: ISO_TIME,
  decidedAt: ISO_TIME.nullable(),
  decidedBy: ID.nullable().describe('Who accepted or dismissed it.'),
});

export const offerListOutput = z.object({
  data: z.array(offer).describe('Open offers and those decided in the last 7 days, newest first.'),
  hasMore: z.boolean().describe('More offers than the 100 listed.'),
});
