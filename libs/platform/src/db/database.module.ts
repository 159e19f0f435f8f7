import { MikroORM } from '@mikro-orm/core';
import type { EntityManager as SqlEntityManager } from '@mikro-orm/postgresql';
import { MikroOrmModule } from '@mikro-orm/nestjs';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { Client } from 'pg';
import { DynamicModule, Global, Injectable, Logger, Module, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { Clock, SystemClock } from '../clock/clock';
import { DatabaseLocation, DatabaseLocationModule } from './database-location';
import { closeUnusableOnRelease, DatabaseWaits, ormOptions } from './orm-options';
import { Outbox } from '../events/outbox';
import { BufferedWrites } from './buffered-writes';

/** The advisory lock key migrations run under (any fixed 64-bit number, the same in every process). */
const MIGRATION_LOCK = '7351949257280263168';

/** Applies pending migrations; remembers what this process applied, so `ops migrate` can report it. */
@Injectable()
export class DatabaseMigrations {
  private readonly appliedHere: string[] = [];

  constructor(private readonly orm: MikroORM) {}

  /**
   * `applied`: names this process applied, at start included (the embedded database migrates then).
   * Replicas started together queue on a PostgreSQL advisory lock, held on a connection of its own
   * (not the pool's, which the migrator uses), so one migrates and the others find nothing pending.
   */
  async applyPending(): Promise<{ applied: string[]; executed: number }> {
    const url = this.orm.config.get('clientUrl') as string;
    const lock = new Client({ connectionString: url });
    await lock.connect();
    // migrations run without the API's request waits (building an index may take minutes)
    const unbounded = await MikroORM.init({
      ...ormOptions(url, 1),
      entities: [],
      discovery: { warnWhenNoEntities: false },
    });
    try {
      await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
      const migrator = unbounded.getMigrator();
      this.appliedHere.push(...(await migrator.up()).map((m) => m.name));
      const executed = await migrator.getExecutedMigrations();
      return { applied: [...this.appliedHere], executed: executed.length };
    } finally {
      await unbounded.close().catch(() => undefined);
      // closing the session releases the lock too, should the unlock itself fail
      await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
      await lock.end().catch(() => undefined);
    }
  }

  /** Names of the migrations not applied yet (readiness). */
  async pending(): Promise<string[]> {
    return (await this.orm.getMigrator().getPendingMigrations()).map((m) => m.name);
  }
}

/** Applies pending migrations at start: always on the embedded database, else behind MIGRATE_ON_START. */
@Injectable()
export class MigrateOnStart implements OnModuleInit {
  constructor(
    private readonly migrations: DatabaseMigrations,
    private readonly location: DatabaseLocation,
    private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    if (!this.location.embedded && !this.config.migrateOnStart) return;
    const { applied } = await this.migrations.applyPending();
    if (applied.length > 0) new Logger('Database').log(`applied ${applied.length} migration(s)`);
  }
}

/** Every pool of the process closes the connections it cannot reuse as they come back. */
@Injectable()
export class PoolHygiene implements OnModuleInit {
  constructor(private readonly orm: MikroORM) {}

  onModuleInit(): void {
    const knex = (this.orm.em as SqlEntityManager).getConnection().getKnex() as unknown as {
      client: { pool?: Parameters<typeof closeUnusableOnRelease>[0] };
    };
    if (knex.client.pool) closeUnusableOnRelease(knex.client.pool);
  }
}

@Global()
@Module({})
export class DatabaseModule {
  /** `waits`: the API bounds every wait on PostgreSQL (REQUEST_WAITS); jobs and the CLI do not. */
  static forRoot(options: { waits?: DatabaseWaits } = {}): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        DatabaseLocationModule,
        MikroOrmModule.forRootAsync({
          driver: PostgreSqlDriver,
          inject: [DatabaseLocation, AppConfig],
          useFactory: (location: DatabaseLocation, config: AppConfig) => ({
            ...ormOptions(location.url, config.databasePoolSize, options.waits),
            autoLoadEntities: true,
            registerRequestContext: true,
          }),
        }),
      ],
      providers: [
        BufferedWrites,
        DatabaseMigrations,
        MigrateOnStart,
        Outbox,
        PoolHygiene,
        { provide: Clock, useClass: SystemClock },
      ],
      exports: [BufferedWrites, Clock, DatabaseMigrations, Outbox],
    };
  }
}
