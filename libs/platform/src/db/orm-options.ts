import { Migrator } from '@mikro-orm/migrations';
import { Logger } from '@nestjs/common';
import { defineConfig, PostgreSqlDriver } from '@mikro-orm/postgresql';
import { MIGRATIONS } from '@migrations';

const driverLog = new Logger('Database');

/**
 * knex prints its warnings with console.warn (`Connection Error: Connection ended unexpectedly`
 * when the server drops an idle connection); they go through the logger as structured entries.
 */
const knexLog = {
  warn: (message: unknown) => {
    const text = String(message);
    const reason = /^Connection Error: (.*)$/s.exec(text)?.[1];
    if (reason !== undefined) driverLog.warn({ reason }, 'database connection dropped; the pool replaces it');
    else driverLog.warn({ detail: text }, 'database driver warning');
  },
  error: (message: unknown) => driverLog.error({ detail: String(message) }, 'database driver error'),
  deprecate: (method: string, alternative: string) =>
    driverLog.debug({ method, alternative }, 'database driver deprecation'),
  debug: (message: unknown) => driverLog.debug({ detail: String(message) }, 'database driver'),
};

/**
 * How long a request may wait on PostgreSQL (issue "faults without loss"): a frozen server, a held
 * lock or a saturated pool ends the request with a 503 within 5 s instead of hanging it. The
 * server enforces the statement and lock limits; the client enforces the read limit too, since a
 * frozen server enforces nothing. Jobs, migrations and the operator CLI run unbounded.
 */
export interface DatabaseWaits {
  /** Waiting for a pooled connection; past it the call is shed (503), so no stale backlog builds. */
  acquireMs: number;
  /** Opening a connection. */
  connectMs: number;
  /** Server side: one statement; one lock wait. */
  statementMs: number;
  lockMs: number;
  /** Server side: a transaction left idle (its locks go with it). */
  idleInTransactionMs: number;
  /** Client side: an answer to any query (covers a server that does not run at all). */
  queryMs: number;
}

/**
 * An idempotent create may wait for a connection twice (the key's claim, then its transaction) and
 * then for a lock: 1.5 + 1.5 + 1.2 s stays under 5 s with the key's release (docs/reliability.md).
 */
export const REQUEST_WAITS: DatabaseWaits = {
  acquireMs: 1_500,
  // short: a connect whose SYN a frozen server's full backlog dropped is retried fresh at once
  // instead of waiting for TCP's own retransmission after the server is back
  connectMs: 1_000,
  statementMs: 2_500,
  lockMs: 1_200,
  idleInTransactionMs: 10_000,
  queryMs: 2_800,
};

/** The node-postgres client behind a pooled connection (what `reusable` reads of it). */
interface PooledClient {
  getTransactionStatus?(): string | null;
  _activeQuery?: unknown;
  _queryQueue?: unknown[];
  _ending?: boolean;
  _queryable?: boolean;
}

/**
 * Checked by the pool before it hands a connection out: only an idle one, with no transaction
 * left open (a ROLLBACK that failed or timed out) and no answer still awaited (a query a client-side
 * timeout gave up on). Anything else is closed and replaced, so one fault never poisons the next
 * request with "current transaction is aborted".
 */
export function reusable(connection: PooledClient): boolean {
  const status = connection.getTransactionStatus?.() ?? 'I';
  return (
    // one closed on release is still in the free list until it is borrowed
    !connection._ending &&
    connection._queryable !== false &&
    (status === 'I' || status === null) &&
    !connection._activeQuery &&
    (connection._queryQueue?.length ?? 0) === 0
  );
}

/** The pool's event for a connection given back (tarn). */
interface ReleasingPool {
  on(event: 'release', listener: (connection: PooledClient & { end?(): Promise<void> }) => void): void;
}

/**
 * A connection given back that cannot be reused (a statement a timeout gave up on, a transaction
 * left open) is closed there and then, not when the pool next picks it: its socket goes, so the
 * server ends that backend, and the row locks of its open transaction, as soon as it runs again,
 * instead of holding them for `idle_in_transaction_session_timeout` (docs/reliability.md,
 * "Recovery"). The pool's check on borrow then throws it away.
 */
export function closeUnusableOnRelease(pool: ReleasingPool): void {
  pool.on('release', (connection) => {
    if (!reusable(connection)) void connection.end?.().catch(() => undefined);
  });
}

/** MikroORM settings shared by the API, the worker, the operator CLI and the tests. */
/**
 * Every connection runs without JIT compilation: PostgreSQL compiles a statement whose estimated
 * cost passes `jit_above_cost` (a search over a large index does), which took 40-60 ms of a
 * 50-200 ms search; no statement of ours runs long enough to win that back.
 */
const NO_JIT = '-c jit=off';

export const ormOptions = (clientUrl: string, poolSize = 10, waits?: DatabaseWaits) =>
  defineConfig({
    driver: PostgreSqlDriver,
    clientUrl,
    extensions: [Migrator],
    migrations: {
      migrationsList: MIGRATIONS,
      tableName: 'mikro_orm_migrations',
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      silent: true,
    },
    // a saturated pool answers 503 quickly instead of hanging (pg waits forever by default)
    pool: {
      min: 0,
      max: poolSize,
      acquireTimeoutMillis: waits?.acquireMs ?? 5000,
      // knex passes it to its pool (tarn), which checks it on every acquire; MikroORM's type omits it
      ...({ validate: reusable } as object),
      idleTimeoutMillis: 30_000,
    },
    driverOptions: {
      connection: waits
        ? {
            options: NO_JIT,
            connectionTimeoutMillis: waits.connectMs,
            statement_timeout: waits.statementMs,
            lock_timeout: waits.lockMs,
            idle_in_transaction_session_timeout: waits.idleInTransactionMs,
            query_timeout: waits.queryMs,
          }
        : { options: NO_JIT, connectionTimeoutMillis: 3000 },
      log: knexLog,
    },
    forceUtcTimezone: true,
    ensureDatabase: false,
    allowGlobalContext: false,
    discovery: { warnWhenNoEntities: false },
    debug: false,
  });
