import { Module } from '@nestjs/common';
import {
  AppConfig,
  ConfigModule,
  DatabaseModule,
  HealthController,
  HTTP_PLATFORM_PROVIDERS,
  JobsModule,
  LoggingModule,
  RateLimitModule,
} from '@app/platform';
import { CrmModule } from '@app/crm';
import { IdentityModule } from '@app/identity';

/** The HTTP app: the platform pipeline and every context's controllers. */
@Module({})
export class ApiModule {
  static forRoot(config: AppConfig = AppConfig.fromEnv()) {
    return {
      module: ApiModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggingModule,
        DatabaseModule.forRoot(),
        RateLimitModule.forRoot(),
        IdentityModule,
        CrmModule,
        JobsModule.forRoot({ inProcess: !config.redisUrl }),
      ],
      controllers: [HealthController],
      providers: HTTP_PLATFORM_PROVIDERS,
    };
  }
}
