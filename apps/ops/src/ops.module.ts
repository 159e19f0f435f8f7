import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig, ConfigModule, DatabaseModule } from '@app/platform';
import { LeadFactsService } from '@app/crm';
import { IdentityModule } from '@app/identity';
import { SearchModule } from '@app/search';
import { DemoSeeder } from './seed/demo-seeder';

/** What operator commands call: the database (migrated at start when embedded) and the contexts. */
@Module({})
export class OpsModule {
  static forRoot(config: AppConfig = AppConfig.fromEnv()): DynamicModule {
    return {
      module: OpsModule,
      // search (and the CRM it builds on) for `search:reindex`: its indexer and the CRM's records
      imports: [ConfigModule.forRoot(config), DatabaseModule.forRoot(), IdentityModule, SearchModule],
      // the lead facts need only the database
      providers: [DemoSeeder, LeadFactsService],
    };
  }
}
