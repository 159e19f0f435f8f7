import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig, BlobsModule, ConfigModule, DatabaseModule } from '@app/platform';
import { LeadFactsService, SearchDocuments } from '@app/crm';
import { IdentityModule } from '@app/identity';
import { MediaCleanupModule } from '@app/listings';
import { ChunkIndexer, SearchJobsModule } from '@app/search';
import { DemoSeeder } from './seed/demo-seeder';

/** What operator commands call: the database (migrated at start when embedded) and the contexts. */
@Module({})
export class OpsModule {
  static forRoot(config: AppConfig = AppConfig.fromEnv()): DynamicModule {
    return {
      module: OpsModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule.forRoot(),
        BlobsModule,
        IdentityModule,
        SearchJobsModule,
        MediaCleanupModule,
      ],
      // the lead facts, the CRM's searchable records, search's indexer and its recent indexes' roll
      // need only the database:
      // the CRM's HTTP side (SearchModule imports the whole CrmModule) stays out of the CLI
      providers: [DemoSeeder, LeadFactsService, SearchDocuments, ChunkIndexer],
    };
  }
}
