import { conflict, DomainError, validationFailed } from '../errors/domain-error';

/**
 * SQLSTATEs of a value the database cannot hold: text too long for its column, a number out of
 * its type's range, a malformed or overflowing date, a NUL or an invalid character, text that is
 * no uuid or number, a negative LIMIT or OFFSET, a null or a value its CHECK refuses, a value too
 * large for an index.
 */
const VALUE_REFUSED = new Set([
  '22001',
  '22003',
  '22007',
  '22008',
  '22021',
  '22P02',
  '22P05',
  '2201W',
  '2201X',
  '23502',
  '23514',
  '54000',
]);

/** A row named by the request deleted, or a unique value taken, by a request that committed first. */
const CHANGED_MEANWHILE = new Set(['23503', '23505']);

/**
 * The database's refusal of what a request sent, as the 4xx a rule in front of it would have
 * answered, else null: 400 VALIDATION_FAILED for a value its column cannot hold, 409 CONFLICT for
 * a race lost to another request (its foreign keys are checked at COMMIT). The last net, never the
 * rule: the filter logs each at warn, since each names a rule missing before the statement
 * (docs/security/headers-and-input.md).
 */
export function databaseRefusal(err: unknown): DomainError | null {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return null;
  if (VALUE_REFUSED.has(code))
    return validationFailed([{ path: '', message: 'a value is outside what its field can hold' }]);
  if (CHANGED_MEANWHILE.has(code))
    return conflict('A record this request names changed meanwhile; read it again before retrying.');
  return null;
}
