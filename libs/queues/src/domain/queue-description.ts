import { effectiveLanes, type OfferRule, type QueueDefinition, type QueueOffer } from './queue-definition';
import { ME, isEmptyGroup, type Condition, type ConditionValue, type FilterGroup } from './queue-grammar';
import { DEFAULT_ORDER, orderOf } from './queue-preview.sql';

/**
 * The queue in words (issue 13 item 6): `summary` and `description {who, lanes[], rest, order,
 * calling, rules[]}`, built from the structure alone. The words may change; clients branch on
 * the structure (spec "Queue").
 */

export interface QueueDescription {
  who: string;
  lanes: { id: string; name: string; text: string }[];
  rest: string;
  order: string;
  calling: string;
  rules: { id: string; text: string }[];
}

const OPERATOR_WORDS: Record<Condition['operator'], string> = {
  has_any_of: 'is any of',
  has_all_of: 'has all of',
  has_none_of: 'is none of',
  is_unassigned: 'is nobody',
  is_present: 'is present',
  is_missing: 'is missing',
  in_last_n_days: 'in the last',
  not_in_last_n_days: 'not in the last',
  in_last_n_hours: 'in the last',
  not_in_last_n_hours: 'not in the last',
  in_next_n_days: 'within the next',
  is_on: 'on',
  is_before: 'before',
  is_after: 'after',
  is_between: 'between',
  is_never: 'never',
  is_true: 'is',
  is_false: 'is not',
  eq: 'is',
  lt: 'is below',
  gt: 'is above',
  between: 'is between',
  contains: 'contains',
};

/** camelCase field names as words: `lastCallAt` → "last call at". */
const words = (name: string) => name.replace(/([A-Z])/g, ' $1').toLowerCase();

function valueText(condition: Condition): string {
  const value: ConditionValue = condition.value;
  const unit = condition.operator.includes('hours') ? 'hours' : 'days';
  switch (value.kind) {
    case 'strings':
      return value.values.map((item) => (item === ME ? 'me' : item)).join(', ');
    case 'integer':
      return condition.operator.includes('_n_') ? `${value.value} ${unit}` : String(value.value);
    case 'integerRange':
      return `${value.min} and ${value.max}`;
    case 'string':
      return `"${value.value}"`;
    case 'date':
      return value.value;
    case 'dateRange':
      return `${value.from} and ${value.to}`;
    default:
      return '';
  }
}

export function conditionText(condition: Condition): string {
  const field = condition.field === 'notesContain' ? 'notes' : words(condition.field);
  if (condition.value.kind === 'boolean') {
    // `is_false {value: false}` means true: say the outcome, not the operator
    const holds = (condition.operator === 'is_true') === condition.value.value;
    return `${field}: ${holds ? 'yes' : 'no'}`;
  }
  return [field, OPERATOR_WORDS[condition.operator], valueText(condition)].filter(Boolean).join(' ');
}

export function groupText(group: FilterGroup): string {
  if (isEmptyGroup(group)) return 'every lead';
  return group.children
    .map((child) => (child.type === 'group' ? `(${groupText(child)})` : conditionText(child)))
    .join(` ${group.combinator} `);
}

function offerText(offer: QueueOffer): string {
  switch (offer.kind) {
    case 'set_status':
      return `set the status to ${offer.status}`;
    case 'add_tag':
      return `add the tag ${offer.tagId}`;
    case 'remove_tag':
      return `remove the tag ${offer.tagId}`;
    case 'assign':
      return `assign to ${offer.userId}`;
    case 'follow_up':
      return `plan a call back in ${offer.inDays} days`;
  }
}

const TRIGGER_WORDS: Record<OfferRule['when'], string> = {
  call_ended: 'When a call ends',
  task_completed: 'When a task is completed',
  time_passed: 'As time passes',
};

export function describeQueue(definition: QueueDefinition): {
  summary: string;
  description: QueueDescription;
} {
  const lanes = effectiveLanes(definition).map((lane) => ({
    id: lane.id,
    name: lane.name,
    text: isEmptyGroup(lane.when) ? 'every lead not in an earlier lane' : groupText(lane.when),
  }));
  const order = orderOf(null, definition.sort);
  const description: QueueDescription = {
    who: isEmptyGroup(definition.root) ? 'Every lead you reach' : `Leads where ${groupText(definition.root)}`,
    lanes,
    rest: definition.rest === 'last' ? 'Other leads come last' : 'Other leads are hidden',
    order:
      order.key === DEFAULT_ORDER.key && definition.sort === null
        ? 'Longest since the last call first, never-called leads first'
        : `By ${words(order.key)}, ${order.dir === 'asc' ? 'ascending' : 'descending'}`,
    calling:
      (definition.calling.pool === 'team'
        ? 'The team calls every lead'
        : 'Each owner calls their own leads') +
      (definition.calling.coolDownMinutes > 0
        ? `; a called lead rests ${definition.calling.coolDownMinutes} minutes`
        : ''),
    rules: definition.rules.map((rule) => ({
      id: rule.id,
      text: `${TRIGGER_WORDS[rule.when]}${isEmptyGroup(rule.if) ? '' : ` and ${groupText(rule.if)}`}: offer to ${offerText(rule.offer)}`,
    })),
  };
  const summary = `${description.who}, in ${lanes.length} lane${lanes.length === 1 ? '' : 's'}: ${lanes
    .map((lane) => lane.name)
    .join(', ')}`;
  return { summary, description };
}
