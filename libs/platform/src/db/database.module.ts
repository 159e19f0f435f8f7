import { MikroORM } from '@mikro-orm/core';
import { MikroOrmModule } from '@mikro-orm/nestjs';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { DynamicModule, Global, Injectable, Logger, Module, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { Clock, SystemClock } from './clock';
import { DatabaseLocation, DatabaseLocationModule } from './database-location';
import { ormOptions } from './orm-options';

/** Applies pending migrations at start: always on the embedded database, else behind MIGRATE_ON_START. */
@Injectable()
export class MigrateOnStart implements OnModuleInit {
  constructor(
    private readonly orm: MikroORM,
    private readonly location: DatabaseLocation,
    private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    if (!this.location.embedded && !this.config.migrateOnStart) return;
    const applied = await this.orm.getMigrator().up();
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
      providers: [MigrateOnStart, { provide: Clock, useClass: SystemClock }],
      exports: [Clock],
    };
  }
}
