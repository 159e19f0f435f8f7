import { Migrator } from '@mikro-orm/migrations';
import { defineConfig, PostgreSqlDriver } from '@mikro-orm/postgresql';
import { MIGRATIONS } from '@migrations';

/** MikroORM settings shared by the API, the worker, the operator CLI and the tests. */
export const ormOptions = (clientUrl: string) =>
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
    pool: { min: 0, max: 10, acquireTimeoutMillis: 5000, idleTimeoutMillis: 30_000 },
    driverOptions: { connection: { connectionTimeoutMillis: 3000 } },
    forceUtcTimezone: true,
    ensureDatabase: false,
    allowGlobalContext: false,
    discovery: { warnWhenNoEntities: false },
    debug: false,
  });
