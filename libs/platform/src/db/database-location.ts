import { Global, Injectable, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { startEmbeddedPostgres } from './embedded-postgres';

/** Where the database is: DATABASE_URL, or the embedded PostgreSQL this process started or reuses. */
@Injectable()
export class DatabaseLocation implements OnApplicationShutdown {
  constructor(
    readonly url: string,
    readonly embedded: boolean,
    private readonly stopEmbedded: () => Promise<void> = async () => undefined,
  ) {}

  static async resolve(config: AppConfig): Promise<DatabaseLocation> {
    if (config.databaseUrl) return new DatabaseLocation(config.databaseUrl, false);
    const started = Date.now();
    const db = await startEmbeddedPostgres(config.embeddedDataDir, config.embeddedPort);
    new Logger('Database').log(
      `embedded PostgreSQL on port ${config.embeddedPort} ready in ${Date.now() - started} ms`,
    );
    return new DatabaseLocation(db.url, true, db.stop);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stopEmbedded();
  }
}

@Global()
@Module({
  providers: [{ provide: DatabaseLocation, inject: [AppConfig], useFactory: DatabaseLocation.resolve }],
  exports: [DatabaseLocation],
})
export class DatabaseLocationModule {}
