import type { EntityManager } from '@mikro-orm/postgresql';
import { knexPool } from './knex-pool';

/** How long a maintenance statement waits for a lock (a concurrent build waits for older transactions). */
export const MAINTENANCE_LOCK_MS = 5 * 60_000;
/** The client's wait for a maintenance statement's answer (pg reads 0 as "the connection's own"). */
const MAINTENANCE_QUERY_MS = 6 * 3_600_000;

/**
 * Runs schema maintenance that may not run in a transaction (`create index concurrently`, `drop
 * index concurrently`), one statement after the other, on one pooled connection: no server-side
 * statement limit for its duration (the API's connections carry `REQUEST_WAITS`, and a periodic
 * job runs on the API's timer without Redis), lock waits bounded by `lockMs`, a client-side wait
 * of hours. The connection's own limits are restored after (RESET returns to the values it was
 * opened with); a connection whose reset failed is not reused.
 */
export async function runMaintenance(
  em: EntityManager,
  statements: string[],
  lockMs = MAINTENANCE_LOCK_MS,
): Promise<void> {
  if (em.getTransactionContext()) throw new Error('runMaintenance runs outside a transaction');
  const pool = knexPool(em);
  const connection = await pool.acquireConnection();
  try {
    await connection.query(
      `set statement_timeout = 0; set lock_timeout = ${Math.max(1, Math.round(lockMs))}`,
    );
    for (const text of statements) await connection.query({ text, query_timeout: MAINTENANCE_QUERY_MS });
  } finally {
    try {
      await connection.query('reset statement_timeout; reset lock_timeout');
    } catch (err) {
      connection.__knex__disposed ??= (err as Error).message ?? 'reset failed';
    }
    await pool.releaseConnection(connection);
  }
}
