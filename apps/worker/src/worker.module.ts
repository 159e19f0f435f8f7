import { DynamicModule, Module } from '@nestjs/common';
import {
  AppConfig,
  BullmqJobsModule,
  ConfigError,
  ConfigModule,
  DatabaseModule,
  IdempotencyStore,
  LoggingModule,
  MetricsModule,
} from '@app/platform';
import { IdentityModule } from '@app/identity';
import { QueueJobsModule } from '@app/queues';

/**
 * The job worker: no HTTP, BullMQ on REDIS_URL, and every module that holds `@Periodic` work
 * (IdempotencyStore sits with the HTTP pipeline in the API, so it is provided here directly).
 */
@Module({})
export class WorkerModule {
  static forRoot(
    config: AppConfig = AppConfig.fromEnv(),
    options: { queuePrefix?: string } = {},
  ): DynamicModule {
    if (!config.redisUrl) {
      throw new ConfigError(
        'REDIS_URL is not set: the worker needs Redis. Without REDIS_URL the API runs the jobs in-process.',
      );
    }
    return {
      module: WorkerModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggingModule,
        MetricsModule,
        DatabaseModule.forRoot(),
        IdentityModule,
        QueueJobsModule,
        BullmqJobsModule.forRoot({ prefix: options.queuePrefix }),
      ],
      providers: [IdempotencyStore],
    };
  }
}
