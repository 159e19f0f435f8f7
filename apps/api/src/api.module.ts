import { Module } from '@nestjs/common';
import {
  AppConfig,
  ConfigModule,
  DatabaseModule,
  HealthModule,
  HTTP_PLATFORM_PROVIDERS,
  IdempotencyModule,
  JobsModule,
  LoggingModule,
  MetricsModule,
  RateLimitModule,
  REQUEST_WAITS,
} from '@app/platform';
import { BrochuresModule } from '@app/brochures';
import { CrmModule } from '@app/crm';
import { DocumentsModule } from '@app/documents';
import { IdentityModule } from '@app/identity';
import { ListingsModule } from '@app/listings';
import { McpModule } from '@app/mcp';
import { NetworkModule } from '@app/network';
import { QueuesModule } from '@app/queues';
import { RoutingModule } from '@app/routing';
import { SearchModule } from '@app/search';
import { LifecycleLog } from './lifecycle-log';

/** The HTTP app: the platform pipeline and every context's controllers. */
@Module({})
export class ApiModule {
  static forRoot(config: AppConfig = AppConfig.fromEnv()) {
    return {
      module: ApiModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggingModule,
        MetricsModule,
        DatabaseModule.forRoot({ waits: REQUEST_WAITS }),
        RateLimitModule.forRoot(),
        IdempotencyModule,
        IdentityModule,
        CrmModule,
        NetworkModule,
        QueuesModule,
        RoutingModule,
        DocumentsModule,
        ListingsModule,
        BrochuresModule,
        SearchModule,
        McpModule,
        JobsModule.forRoot({ inProcess: !config.redisUrl }),
        HealthModule,
      ],
      providers: [...HTTP_PLATFORM_PROVIDERS, LifecycleLog],
    };
  }
}
