import { EVENT_TYPES, type EventType } from '@app/platform';

/** The kinds of the catalogue (`lead`, `note`, …): what `<kind>.*` may name. */
export const EVENT_KINDS: readonly string[] = [
  ...new Set(EVENT_TYPES.filter((type) => type.includes('.')).map((type) => type.split('.')[0])),
];

/**
 * `types` of `GET /v1/events` (comma-separated; each a catalogued type or `<kind>.*`) as the
 * catalogued types it selects, in catalogue order; `issues` names every entry that is neither.
 * Blanks around entries are ignored; an empty entry is an issue.
 */
export function parseEventTypes(raw: string): { types: EventType[]; issues: string[] } {
  const wanted = new Set<EventType>();
  const issues: string[] = [];
  for (const entry of raw.split(',').map((part) => part.trim())) {
    if (entry.endsWith('.*') && EVENT_KINDS.includes(entry.slice(0, -2))) {
      const kind = entry.slice(0, -2);
      EVENT_TYPES.filter((type) => type.startsWith(`${kind}.`)).forEach((type) => wanted.add(type));
    } else if ((EVENT_TYPES as readonly string[]).includes(entry)) {
      wanted.add(entry as EventType);
    } else {
      issues.push(entry === '' ? 'an empty entry' : `"${entry.slice(0, 60)}"`);
    }
  }
  return { types: EVENT_TYPES.filter((type) => wanted.has(type)), issues };
}
