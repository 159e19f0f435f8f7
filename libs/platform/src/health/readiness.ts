import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import {
  HealthIndicatorService,
  MikroOrmHealthIndicator,
  type HealthIndicatorResult,
} from '@nestjs/terminus';
import Redis from 'ioredis';
import { AppConfig } from '../config/app-config';
import { DatabaseMigrations } from '../db/database.module';

const TIMEOUT_MS = 1000;

const within = <T>(ms: number, work: Promise<T>): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    work.then(resolve, reject).finally(() => clearTimeout(timer));
  });

/** The checks behind `GET /health/ready`: each answers up or down, never throws. */
@Injectable()
export class ReadinessChecks implements OnApplicationShutdown {
  private redis?: Redis;
  /** Once every migration is applied it stays so: later probes skip the query. */
  private migrated = false;
  /** Set at the stop signal: from then on the process is not ready, whatever else answers. */
  private stopping = false;

  constructor(
    private readonly config: AppConfig,
    private readonly indicators: HealthIndicatorService,
    private readonly database: MikroOrmHealthIndicator,
    private readonly migrations: DatabaseMigrations,
  ) {}

  /** The stop began: readiness answers 503 so a load balancer sends nothing new (docs/operations/health-and-shutdown.md). */
  markStopping(): void {
    this.stopping = true;
  }

  /** The checks that apply to this process: Redis only with REDIS_URL. */
  all(): (() => Promise<HealthIndicatorResult>)[] {
    if (this.stopping) return [async () => this.indicators.check('process').down('stopping')];
    return [
      () => this.databaseCheck(),
      () => this.migrationsCheck(),
      ...(this.config.redisUrl ? [() => this.redisCheck(this.config.redisUrl as string)] : []),
    ];
  }

  async onApplicationShutdown(): Promise<void> {
    this.redis?.disconnect();
  }

  private async databaseCheck(): Promise<HealthIndicatorResult> {
    try {
      return await this.database.pingCheck('database', { timeout: TIMEOUT_MS });
    } catch {
      return this.indicators.check('database').down('did not answer');
    }
  }

  private async migrationsCheck(): Promise<HealthIndicatorResult> {
    const check = this.indicators.check('migrations');
    try {
      if (!this.migrated) this.migrated = (await within(TIMEOUT_MS, this.migrations.pending())).length === 0;
      return this.migrated ? check.up() : check.down('migrations pending');
    } catch {
      return check.down('could not be read');
    }
  }

  private async redisCheck(url: string): Promise<HealthIndicatorResult> {
    const check = this.indicators.check('redis');
    // one long-lived client; it reconnects by itself, and a probe never waits for it
    this.redis ??= new Redis(url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: TIMEOUT_MS,
    }).on('error', () => undefined);
    try {
      if (this.redis.status === 'wait') await within(TIMEOUT_MS, this.redis.connect());
      await within(TIMEOUT_MS, this.redis.ping());
      return check.up();
    } catch {
      return check.down('did not answer');
    }
  }
}
