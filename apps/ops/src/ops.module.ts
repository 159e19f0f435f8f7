import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig, ConfigModule, DatabaseModule } from '@app/platform';
import { LeadFactsService } from '@app/crm';
import { IdentityModule } from '@app/identity';
import { DemoSeeder } from './seed/demo-seeder';

/** What operator commands call: the database (migrated at start when embedded) and the contexts. */
@Module({})
export class OpsModule {
  static forRoot(config: AppConfig = AppConfig.fromEnv()): DynamicModule {
    return {
      module: OpsModule,
      imports: [ConfigModule.forRoot(config), DatabaseModule.forRoot(), IdentityModule],
      // the lead facts need only the database: the CRM's HTTP side stays out of the CLI
      providers: [DemoSeeder, LeadFactsService],
    };
  }
}
