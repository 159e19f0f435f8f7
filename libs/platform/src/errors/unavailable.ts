/**
 * "Not now" from a dependency: the one table of errors that answer 503 with `Retry-After` (and
 * AUTH_UNAVAILABLE at the key door) instead of 500. Decided by SQLSTATE class and by the driver's
 * own error kinds, never by reading a server message.
 */

/** SQLSTATEs (https://www.postgresql.org/docs/current/errcodes-appendix.html) that mean "retry". */
const UNAVAILABLE_SQLSTATE_CLASSES = new Set([
  '08', // connection exception: refused, lost, rejected
  '53', // insufficient resources: too many clients, reserved slots, out of memory, disk full
]);
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01', // admin_shutdown: terminated by administrator, or the server is shutting down
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: the server is starting up or shutting down
  '57P05', // idle_session_timeout
  '57014', // query_canceled: statement_timeout (our bounded waits)
  '55P03', // lock_not_available: lock_timeout (our bounded waits)
  '25P03', // idle_in_transaction_session_timeout
  '40001', // serialization_failure: the transaction rolled back; a retry can succeed
  '40P01', // deadlock_detected: likewise
]);

/** Node's socket errors on the way to a dependency. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
]);

/** Error classes of the pool and the ORM that mean "no connection right now". */
const UNAVAILABLE_NAMES = new Set([
  'DependencyUnavailableError', // ours
  'KnexTimeoutError', // knex: no pooled connection within acquireTimeoutMillis
  'ConnectionException', // MikroORM: the driver could not connect
]);

/**
 * Errors node-postgres and knex raise without a SQLSTATE, by their fixed texts (the driver's own
 * constants, not server messages): a connection that died, a client that timed out waiting.
 */
const DRIVER_CONNECTION_ERRORS = [
  'Connection terminated', // pg: "…unexpectedly", "…due to connection timeout"
  'Client has encountered a connection error and is not queryable', // pg
  'Client was closed and is not queryable', // pg
  'timeout expired', // pg: connectionTimeoutMillis
  'Query read timeout', // pg: query_timeout (a server that does not answer at all)
  'Transaction query already complete', // knex: the transaction's connection died under it
  'Unable to acquire a connection', // knex: the pool is gone (shutdown)
  'Knex: Timeout acquiring a connection', // knex: acquireTimeoutMillis, when not wrapped
];

interface MaybeDriverError {
  name?: string;
  code?: unknown;
  message?: string;
}

export function isDependencyUnavailable(err: unknown): boolean {
  if (err === null || typeof err !== 'object') return false;
  const e = err as MaybeDriverError;
  if (e.name && UNAVAILABLE_NAMES.has(e.name)) return true;
  const code = typeof e.code === 'string' ? e.code : '';
  if (NETWORK_CODES.has(code)) return true;
  if (/^[0-9A-Z]{5}$/.test(code)) {
    return UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_SQLSTATE_CLASSES.has(code.slice(0, 2));
  }
  const message = e.message ?? '';
  // knex puts the statement before the driver's text: "<sql> - Connection terminated unexpectedly"
  return DRIVER_CONNECTION_ERRORS.some((text) => message.startsWith(text) || message.includes(` - ${text}`));
}
