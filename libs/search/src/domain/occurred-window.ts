import { validationFailed } from '@app/platform/core';

const DAY_MS = 86_400_000;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** When the searched activity happened: `from` inclusive, `to` exclusive. */
export interface OccurredWindow {
  from?: Date;
  to?: Date;
}

/**
 * INTERFACES.md "Search": `occurredFrom`/`occurredTo` are dates or date-times; a date covers its
 * UTC day (from its midnight; to the next midnight); from after to → 400 VALIDATION_FAILED.
 */
export function occurredWindow(occurredFrom?: string, occurredTo?: string): OccurredWindow {
  const from = occurredFrom === undefined ? undefined : parse(occurredFrom, 'occurredFrom');
  const to = occurredTo === undefined ? undefined : parse(occurredTo, 'occurredTo');
  const end =
    to && DATE_ONLY.test(occurredTo!) ? new Date(to.getTime() + DAY_MS) : to && new Date(to.getTime() + 1);
  // against the window's end: a `to` date runs to its next midnight (a time inside that day is not after it)
  if (from && end && from.getTime() >= end.getTime())
    throw validationFailed([{ path: 'occurredFrom', message: 'occurredFrom must not be after occurredTo' }]);
  return { from, to: end };
}

function parse(value: string, path: string): Date {
  const day = DATE_ONLY.exec(value);
  const at = day
    ? new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3])))
    : DATE_TIME.test(value)
      ? new Date(value)
      : null;
  if (!at || Number.isNaN(at.getTime()) || (day && !at.toISOString().startsWith(value)))
    throw validationFailed([
      { path, message: `${path} must be a date YYYY-MM-DD or an ISO 8601 date-time with an offset` },
    ]);
  return at;
}
