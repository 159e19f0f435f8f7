import type { EntityManager } from '@mikro-orm/postgresql';

/** A pg query as the platform sends it: named (prepared) or not, with its own client-side wait. */
export interface PgQuery {
  name?: string;
  text: string;
  values?: unknown[];
  query_timeout?: number;
}

/** The pg client knex pools (only what the platform uses of it). */
export interface PgConnection {
  query(config: PgQuery | string): Promise<{ rows: unknown[] }>;
  connection?: { parsedStatements?: Record<string, string> };
  /** Set to have knex's pool throw the connection away instead of reusing it. */
  __knex__disposed?: unknown;
}

/** Knex's client: its pool of pg connections. */
export interface KnexClient {
  acquireConnection(): Promise<PgConnection>;
  releaseConnection(connection: PgConnection): Promise<unknown>;
}

/** The pool behind an entity manager's connection (statements run on a pg connection of their own). */
export const knexPool = (em: EntityManager): KnexClient =>
  em.getConnection().getKnex().client as unknown as KnexClient;
