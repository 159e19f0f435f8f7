import { createHash } from 'node:crypto';

/**
 * Sync positions and cursors (INTERFACES.md "Reads and sync"), as pure functions.
 *
 * A position is `(updatedAt, id)` with `updatedAt` to the microsecond, as PostgreSQL keeps it:
 * the keyset compares exactly what the database compares, so rows changed within one millisecond
 * are neither skipped nor repeated. A cursor is the position after a row plus the list it walks
 * and a checksum, as base64url JSON; anything else sent as a cursor, a hand-edited or truncated
 * one included, is refused (400), never half-read. The checksum is no secret: a cursor opens
 * nothing (every read applies the caller's own reach), it only has to be one this API gave.
 */

/** The list a cursor walks. A cursor is refused on any other list (a reach change included). */
export type SyncList =
  { kind: 'leads'; reach: 'agency' | 'own' } | { kind: 'tasks' } | { kind: 'notes'; leadId: number };

/** `at`: UTC to the microsecond, `YYYY-MM-DDTHH:MM:SS.ffffffZ`; `id`: the row id as text. */
export interface SyncPosition {
  at: string;
  id: string;
}

/** Lowest ids: a position `(t, lowest)` is "everything changed at or after t". */
const LOWEST_ID = { leads: '0', tasks: '00000000-0000-0000-0000-000000000000' } as const;

const lowestId = (list: SyncList): string => (list.kind === 'leads' ? LOWEST_ID.leads : LOWEST_ID.tasks);

export const listName = (list: SyncList): string =>
  list.kind === 'leads' ? `leads/${list.reach}` : list.kind === 'notes' ? `notes/${list.leadId}` : 'tasks';

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|([+-])(\d{2})(?::?(\d{2}))?)$/;
const CANONICAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const LEAD_ID = /^(0|[1-9]\d{0,15})$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeap = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
const daysIn = (year: number, month: number) => (month === 2 && isLeap(year) ? 29 : DAYS[month - 1]);

/**
 * An ISO 8601 date-time with `Z` or an offset (`2026-11-24T09:30:00Z`, `…T10:30:00.5+01:00`;
 * seconds optional, up to nine decimals) as UTC to the microsecond, or null when it is not one
 * (no zone, an impossible date, a year outside 1-9999). Nanoseconds round up: rows are kept to
 * the microsecond, so "at or after" keeps its meaning.
 */
export function canonicalTimestamp(text: string): string | null {
  const match = DATE_TIME.exec(text);
  if (!match) return null;
  const [, y, mo, d, h, mi, s = '0', fraction = '', zone, sign, oh, om = '0'] = match;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  let offsetMinutes = 0;
  if (zone !== 'Z') {
    if (Number(oh) > 23 || Number(om) > 59) return null;
    offsetMinutes = (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om));
  }
  const nanos = Number(fraction.padEnd(9, '0'));
  let micros = Math.ceil(nanos / 1000);
  const local = new Date(0);
  local.setUTCFullYear(year, month - 1, day);
  local.setUTCHours(hour, minute, second, 0);
  let epochMs = local.getTime() - offsetMinutes * 60_000;
  if (micros === 1_000_000) {
    micros = 0;
    epochMs += 1000;
  }
  const iso = new Date(epochMs).toISOString(); // YYYY-MM-DDTHH:MM:SS.000Z for years 0-9999
  if (!/^\d{4}-/.test(iso) || iso.startsWith('0000')) return null;
  return `${iso.slice(0, 19)}.${String(micros).padStart(6, '0')}Z`;
}

/** The answer's `updatedAt` (milliseconds, as every other time the API answers) of a position's time. */
export const toMillis = (at: string): string => `${at.slice(0, 23)}Z`;

/** Where a sync starting at `updatedSince` begins: every row with `updatedAt` ≥ it. */
export function startOf(list: SyncList, updatedSince: string): SyncPosition | null {
  const at = canonicalTimestamp(updatedSince);
  return at === null ? null : { at, id: lowestId(list) };
}

/** The checksum of a cursor's fields. */
export const cursorChecksum = (l: string, t: string, i: string): string =>
  createHash('sha256').update(`${l}\n${t}\n${i}`).digest('base64url').slice(0, 12);

export function encodeCursor(list: SyncList, position: SyncPosition): string {
  const [l, t, i] = [listName(list), position.at, position.id];
  return Buffer.from(JSON.stringify({ l, t, i, c: cursorChecksum(l, t, i) })).toString('base64url');
}

export type DecodedCursor = { position: SyncPosition } | { problem: string };

/** The position in `cursor`, or why it is not a cursor of `list`. */
export function decodeCursor(list: SyncList, cursor: string): DecodedCursor {
  const malformed = { problem: 'cursor is not a nextCursor this API gave' };
  if (!/^[A-Za-z0-9_-]{1,512}$/.test(cursor)) return malformed;
  const bytes = Buffer.from(cursor, 'base64url');
  if (bytes.toString('base64url') !== cursor) return malformed;
  let body: unknown;
  try {
    body = JSON.parse(bytes.toString('utf8'));
  } catch {
    return malformed;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return malformed;
  const fields = body as Record<string, unknown>;
  if (Object.keys(fields).sort().join() !== 'c,i,l,t') return malformed;
  const { l, t, i, c } = fields;
  if (typeof l !== 'string' || typeof t !== 'string' || typeof i !== 'string') return malformed;
  if (c !== cursorChecksum(l, t, i)) return malformed;
  if (!CANONICAL.test(t) || canonicalTimestamp(t) !== t) return malformed;
  const idOk = list.kind === 'leads' ? LEAD_ID.test(i) && Number(i) <= Number.MAX_SAFE_INTEGER : UUID.test(i);
  if (!idOk) return malformed;
  if (l !== listName(list)) {
    return {
      problem:
        'cursor belongs to another list or to another reach (a role change): start again with updatedSince',
    };
  }
  return { position: { at: t, id: i } };
}
