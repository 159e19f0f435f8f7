import type { DealDateRange } from './deal-list.sql';
import { parseDueDate } from './due-date';

const DAY_MS = 86_400_000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Spec (Deals list): a date pair's ends are both inclusive and a plain date `YYYY-MM-DD` covers
 * its whole UTC day, so a plain `To` date reaches up to (not including) the next midnight UTC.
 * A malformed value → 400 naming `<name>From`/`<name>To`.
 */
export function dateRange(name: string, from?: string, to?: string): DealDateRange | undefined {
  if (from === undefined && to === undefined) return undefined;
  const range: DealDateRange = {};
  if (from !== undefined) range.gte = parseDueDate(from, `${name}From`);
  if (to !== undefined) {
    const at = parseDueDate(to, `${name}To`);
    if (DATE_ONLY.test(to)) range.lt = new Date(at.getTime() + DAY_MS);
    else range.lte = at;
  }
  return range;
}
