import { MikroORM } from '@mikro-orm/core';
import { MikroOrmModule } from '@mikro-orm/nestjs';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { DynamicModule, Global, Injectable, Logger, Module, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { Clock, SystemClock } from '../clock/clock';
import { DatabaseLocation, DatabaseLocationModule } from './database-location';
import { ormOptions } from './orm-options';

/** Applies pending migrations; remembers what this process applied, so `ops migrate` can report it. */
@Injectable()
export class DatabaseMigrations {
  private readonly appliedHere: string[] = [];

  constructor(private readonly orm: MikroORM) {}

  /** `applied`: names this process applied, at start included (the embedded database migrates then). */
  async applyPending(): Promise<{ applied: string[]; executed: number }> {
    const migrator = this.orm.getMigrator();
    this.appliedHere.push(...(await migrator.up()).map((m) => m.name));
    const executed = await migrator.getExecutedMigrations();
    return { applied: [...this.appliedHere], executed: executed.length };
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
          inject: [DatabaseLocation],
          useFactory: (location: DatabaseLocation) => ({
            ...ormOptions(location.url),
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
