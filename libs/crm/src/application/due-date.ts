import { validationFailed } from '@app/platform';

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Spec: `YYYY-MM-DD` is midnight UTC of that date; a full ISO 8601 timestamp with an offset is
 * that exact moment. Anything else is 400 VALIDATION_FAILED naming `field`.
 */
export function parseDueDate(value: string, field = 'dueDate'): Date {
  const dateOnly = DATE_ONLY.exec(value);
  const at = dateOnly
    ? new Date(Date.UTC(Number(dateOnly[1]), Number(dateOnly[2]) - 1, Number(dateOnly[3])))
    : TIMESTAMP_WITH_OFFSET.test(value)
      ? new Date(value)
      : null;
  const validDay = !dateOnly || (at !== null && at.toISOString().startsWith(value));
  if (!at || Number.isNaN(at.getTime()) || !validDay) {
    throw validationFailed([
      { path: field, message: `${field} must be YYYY-MM-DD or an ISO 8601 timestamp with an offset` },
    ]);
  }
  return at;
}

/** An ISO 8601 timestamp with an offset (`2026-12-01T10:00:00+01:00`); else 400 naming `field`. */
export function parseInstant(value: string, field: string): Date {
  const at = TIMESTAMP_WITH_OFFSET.test(value) ? new Date(value) : null;
  if (!at || Number.isNaN(at.getTime())) {
    throw validationFailed([
      { path: field, message: `${field} must be an ISO 8601 timestamp with an offset` },
    ]);
  }
  return at;
}
