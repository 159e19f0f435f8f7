import { DynamicModule, Module } from '@nestjs/common';
import {
  AppConfig,
  BullmqJobsModule,
  ConfigError,
  ConfigModule,
  DatabaseModule,
  IdempotencyModule,
  LoggingModule,
  MetricsModule,
} from '@app/platform';
import { BrochureJobsModule } from '@app/brochures';
import { CrmJobsModule } from '@app/crm';
import { DocumentJobsModule } from '@app/documents';
import { EventJobsModule, WebhookJobsModule } from '@app/events';
import { IdentityModule } from '@app/identity';
import { ListingJobsModule } from '@app/listings';
import { FeedJobsModule, MediaCleanupModule } from '@app/listings';
import { QueueJobsModule } from '@app/queues';
import { RoutingJobsModule } from '@app/routing';
import { SearchJobsModule } from '@app/search';

/**
 * The job worker: no HTTP, BullMQ on REDIS_URL, and every module that holds `@Periodic` or
 * `@OnDelayedJob` work (IdempotencyModule too: the purge job is its store's, and the CRM that
 * routing's reassignment writes through declares idempotent routes).
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
        IdempotencyModule,
        IdentityModule,
        CrmJobsModule,
        DocumentJobsModule,
        ListingJobsModule,
        FeedJobsModule,
        MediaCleanupModule,
        QueueJobsModule,
        RoutingJobsModule,
        BrochureJobsModule,
        EventJobsModule,
        WebhookJobsModule,
        SearchJobsModule,
        BullmqJobsModule.forRoot({ prefix: options.queuePrefix }),
      ],
    };
  }
}
