import { MikroORM } from '@mikro-orm/core';
import { MikroOrmModule } from '@mikro-orm/nestjs';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { Client } from 'pg';
import { DynamicModule, Global, Injectable, Logger, Module, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { Clock, SystemClock } from '../clock/clock';
import { DatabaseLocation, DatabaseLocationModule } from './database-location';
import { ormOptions } from './orm-options';

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
    const migrator = this.orm.getMigrator();
    const lock = new Client({ connectionString: this.orm.config.get('clientUrl') });
    await lock.connect();
    try {
      await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
      this.appliedHere.push(...(await migrator.up()).map((m) => m.name));
      const executed = await migrator.getExecutedMigrations();
      return { applied: [...this.appliedHere], executed: executed.length };
    } finally {
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

@Global()
@Module({})
export class DatabaseModule {
  static forRoot(): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        DatabaseLocationModule,
        MikroOrmModule.forRootAsync({
          driver: PostgreSqlDriver,
          inject: [DatabaseLocation, AppConfig],
          useFactory: (location: DatabaseLocation, config: AppConfig) => ({
            ...ormOptions(location.url, config.databasePoolSize),
            autoLoadEntities: true,
            registerRequestContext: true,
          }),
        }),
      ],
      providers: [DatabaseMigrations, MigrateOnStart, { provide: Clock, useClass: SystemClock }],
      exports: [Clock, DatabaseMigrations],
    };
  }
}
