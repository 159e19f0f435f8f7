import type { MikroORM } from '@mikro-orm/core';
import type { NextFunction, Request, Response } from 'express';
import { DependencyUnavailableError } from '../errors/domain-error';

/** Calls queued for a pooled connection, per connection, beyond which new requests are shed. */
export const SHED_QUEUE_PER_CONNECTION = 2;

/** Routes that must answer whatever the pool does. */
const NEVER_SHED = new Set(['/health/live', '/metrics']);

interface TarnPool {
  numPendingAcquires(): number;
}

/**
 * Sheds load while the database pool is saturated: when more calls wait for a connection than
 * the pool can serve within its wait, a new request answers 503 with `Retry-After` at once instead
 * of joining the queue. A fault (a frozen server, a held lock) then leaves no backlog of stale
 * requests behind it, so full service returns as soon as the database does.
 */
export function shedWhenPoolSaturated(orm: MikroORM, poolSize: number) {
  const limit = poolSize * SHED_QUEUE_PER_CONNECTION;
  const pool = (): TarnPool | undefined =>
    (orm.em.getConnection() as unknown as { getKnex(): { client?: { pool?: TarnPool } } }).getKnex().client
      ?.pool;
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (!NEVER_SHED.has(req.path) && (pool()?.numPendingAcquires() ?? 0) >= limit) {
      next(new DependencyUnavailableError('database pool saturated; request shed'));
      return;
    }
    next();
  };
}
