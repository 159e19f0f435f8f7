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

/** MikroORM settings shared by the API, the worker, the operator CLI and the tests. */
export const ormOptions = (clientUrl: string, poolSize = 10) =>
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
    pool: { min: 0, max: poolSize, acquireTimeoutMillis: 5000, idleTimeoutMillis: 30_000 },
    driverOptions: { connection: { connectionTimeoutMillis: 3000 }, log: knexLog },
    forceUtcTimezone: true,
    ensureDatabase: false,
    allowGlobalContext: false,
    discovery: { warnWhenNoEntities: false },
    debug: false,
  });
