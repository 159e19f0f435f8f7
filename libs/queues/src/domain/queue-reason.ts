import type { EffectiveOrder } from './queue-preview.sql';
import { CRM_STATUSES, type SortKey } from './queue-grammar';

/**
 * A preview row's `reason` (issue 13 item 4): the lane's description and the value the row is
 * ordered by, in words. `crmStatus` sorts by its position in the spec's list, mapped back to the
 * status; a timestamp reads as its UTC day and time. Clients branch on `laneId`, not on the words.
 */
const LABELS: Record<SortKey, string> = {
  purchasedAt: 'added',
  nextTaskDueAt: 'next task due',
  lastCallAt: 'last call',
  lastTouchAt: 'last contact',
  lastInboundAt: 'last inbound contact',
  totalCalls: 'calls',
  pendingTasks: 'pending tasks',
  firstName: 'first name',
  crmStatus: 'status',
};

const NEVER: Partial<Record<SortKey, string>> = {
  lastCallAt: 'never called',
  nextTaskDueAt: 'no task due',
  lastTouchAt: 'never contacted',
  lastInboundAt: 'never contacted by the lead',
};

export function sortValueText(key: SortKey, value: unknown): string {
  if (value === null || value === undefined) return NEVER[key] ?? `no ${LABELS[key]}`;
  if (key === 'crmStatus') {
    const status = typeof value === 'number' ? CRM_STATUSES[value - 1] : undefined;
    return `${LABELS[key]} ${status ?? String(value)}`;
  }
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value)) {
    return `${LABELS[key]} ${value.slice(0, 16).replace('T', ' ')} UTC`;
  }
  return `${LABELS[key]} ${String(value)}`;
}

/** `laneText` null: a rest row (no lane took the lead). */
export function reasonOf(laneText: string | null, order: EffectiveOrder, sortValue: unknown): string {
  const why = laneText === null ? 'In no lane' : laneText.charAt(0).toUpperCase() + laneText.slice(1);
  return `${why}; ${sortValueText(order.key, sortValue)}`;
}
