import { parseQueueDefinition, type QueueDefinition } from './queue-definition';

/**
 * The system queue every organization has (issue 13 item 7, INTERFACES.md "Queues"): "My calls",
 * shared with everyone, built and checked through the same model as any queue.
 */
export const SYSTEM_QUEUE_NAME = 'My calls';

export const SYSTEM_QUEUE_DEFINITION: QueueDefinition = parseQueueDefinition({
  name: SYSTEM_QUEUE_NAME,
  icon: 'phone',
  scope: 'shared',
  root: {
    type: 'group',
    combinator: 'and',
    children: [
      {
        type: 'condition',
        field: 'assignee',
        operator: 'has_any_of',
        value: { kind: 'strings', values: ['$me'] },
      },
    ],
  },
  lanes: [
    {
      id: 'overdue',
      name: 'Overdue',
      when: {
        type: 'group',
        combinator: 'and',
        children: [
          {
            type: 'condition',
            field: 'taskOverdue',
            operator: 'is_true',
            value: { kind: 'boolean', value: true },
          },
        ],
      },
    },
    {
      id: 'due-today',
      name: 'Due today',
      when: {
        type: 'group',
        combinator: 'and',
        children: [
          {
            type: 'condition',
            field: 'nextTaskDueAt',
            operator: 'in_next_n_days',
            value: { kind: 'integer', value: 0 },
          },
        ],
      },
    },
    {
      id: 'new',
      name: 'New',
      when: {
        type: 'group',
        combinator: 'and',
        children: [
          {
            type: 'condition',
            field: 'crmStatus',
            operator: 'has_any_of',
            value: { kind: 'strings', values: ['lead'] },
          },
          { type: 'condition', field: 'callCount', operator: 'eq', value: { kind: 'integer', value: 0 } },
        ],
      },
    },
    {
      id: 'not-reached',
      name: 'Not reached',
      when: {
        type: 'group',
        combinator: 'and',
        children: [
          {
            type: 'condition',
            field: 'unansweredStreak',
            operator: 'gt',
            value: { kind: 'integer', value: 0 },
          },
        ],
      },
    },
  ],
  rest: 'last',
  sort: null,
  calling: { pool: 'owners', coolDownMinutes: 120 },
  rules: [],
});
