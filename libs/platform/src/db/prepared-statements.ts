import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { withPreparedStatement } from '../errors/loggable-error';
import { type KnexClient, knexPool, type PgConnection, type PgQuery } from './knex-pool';

/** A SQL text with `?` placeholders and its values, as the pure `*.sql.ts` modules build them. */
export interface Statement {
  sql: string;
  params: unknown[];
}

interface Prepared {
  name: string;
  text: string;
}

/** A hot read outside a transaction gives up sooner than a write (REQUEST_WAITS.queryMs). */
export const READ_QUERY_MS = 2_000;

export interface PreparedOptions {
  /**
   * How long the client waits for the answer (default: the connection's, READ_QUERY_MS outside a
   * transaction). For a read that sets its own longer `statement_timeout` in its transaction.
   */
  queryMs?: number;
  /**
   * `false` for a text built from a caller's input (a queue definition): it runs as pg's unnamed
   * statement, planned per call, so a pooled connection does not keep one prepared statement per
   * shape a user ever tried.
   */
  prepare?: boolean;
}

type NamedQuery = PgQuery & { values: unknown[] };

const SHAPES_KEPT = 2_000;
const shapes = new Map<string, Prepared>();

/**
 * The statement's named form: `$n` placeholders and a name derived from the text, so one text has
 * one name in every process and a name never stands for two texts (pg refuses that).
 */
function prepared(sql: string): Prepared {
  let shape = shapes.get(sql);
  if (!shape) {
    let n = 0;
    const text = sql.replace(/\?/g, () => `$${++n}`);
    shape = { name: `q${createHash('sha1').update(text).digest('base64url').slice(0, 24)}`, text };
    if (shapes.size >= SHAPES_KEPT) shapes.clear();
    shapes.set(sql, shape);
  }
  return shape;
}

/** The server dropped or invalidated the statement (DISCARD ALL, a schema change): prepare it again. */
const STALE_STATEMENT = new Set(['26000', '0A000']);
/** The connection itself is gone (a restart, a terminated backend): take another one. */
const isBrokenConnection = (err: { code?: string; message?: string }) =>
  err.code === '57P01' ||
  err.code === 'ECONNRESET' ||
  err.code === 'EPIPE' ||
  /^(Connection terminated|Client has encountered a connection error)/.test(err.message ?? '');
/** pg gave up waiting (a frozen server): the connection still waits for that answer, so drop it. */
const isReadTimeout = (err: { message?: string }) => err.message === 'Query read timeout';

/**
 * Runs a hot read as a named prepared statement, so PostgreSQL parses and plans it once per
 * connection instead of on every call (MikroORM's `execute` inlines the values, which makes every
 * call a new text). Inside the caller's transaction it runs on that transaction's connection, so a
 * create reads its own write. Outside one, a connection that died under it (a database restart) or
 * a statement the server no longer knows is retried once on a fresh connection or a fresh prepare:
 * reads are safe to repeat.
 */
export async function preparedRows<T>(
  em: EntityManager,
  statement: Statement,
  options: PreparedOptions = {},
): Promise<T[]> {
  const shape = prepared(statement.sql);
  const query: NamedQuery = { name: shape.name, text: shape.text, values: statement.params };
  if (options.prepare === false) delete query.name;
  if (options.queryMs !== undefined) query.query_timeout = options.queryMs;
  const transaction = em.getTransactionContext<{ client: KnexClient; isCompleted?(): boolean }>();
  if (transaction) {
    // its connection is back in the pool, maybe serving another request: never run on it
    if (transaction.isCompleted?.()) throw new Error('Transaction query already complete');
    const connection = await transaction.client.acquireConnection();
    try {
      return (await connection.query(query)).rows as T[];
    } catch (caught) {
      throw withPreparedStatement(caught, shape.name, shape.text);
    }
  }
  query.query_timeout ??= READ_QUERY_MS;
  const pool = knexPool(em);
  for (let attempt = 1; ; attempt++) {
    const connection = await pool.acquireConnection();
    try {
      const result = await connection.query(query);
      return result.rows as T[];
    } catch (caught) {
      const err = caught as { code?: string; message?: string };
      const stale = STALE_STATEMENT.has(err.code ?? '');
      const broken = !stale && isBrokenConnection(err);
      if (stale) await forget(connection, shape.name);
      // knex's pool validates on acquire and throws away a connection marked disposed
      if (broken || isReadTimeout(err)) connection.__knex__disposed ??= err.message ?? 'connection broken';
      // the log names the statement (pg's error carries neither its text nor its values)
      if (attempt > 1 || !(stale || broken)) throw withPreparedStatement(caught, shape.name, shape.text);
    } finally {
      await pool.releaseConnection(connection);
    }
  }
}

async function forget(connection: PgConnection, name: string): Promise<void> {
  delete connection.connection?.parsedStatements?.[name];
  await connection.query(`deallocate ${name}`).catch(() => undefined);
}
