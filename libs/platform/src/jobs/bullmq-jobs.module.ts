import { BullModule, InjectQueue, OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import {
  BeforeApplicationShutdown,
  DynamicModule,
  Injectable,
  Logger,
  Module,
  OnApplicationBootstrap,
  Optional,
} from '@nestjs/common';
import type { Job, Queue, Worker } from 'bullmq';
import { AppConfig, ConfigError } from '../config/app-config';
import { Clock } from '../clock/clock';
import { loggableError } from '../errors/loggable-error';
import { Metrics } from '../metrics/metrics';
import { JobsModule } from './in-process-jobs';
import { PeriodicJobRegistry, QueueName } from './periodic';

/** A job that runs longer than this is logged at `info` with its duration: what a stall coincides with. */
export const SLOW_JOB_MS = 1_000;

/** BullMQ's workers block on Redis and retry themselves: ioredis must not give up on a command. */
export const bullmqConnection = (redisUrl: string) => ({ url: redisUrl, maxRetriesPerRequest: null });

/**
 * An adapter: the job name picks the `@Periodic` service method (run with now) or the
 * `@OnDelayedJob` one (run with the job's data and now); unknown names fail the job. On
 * shutdown it takes no new job and waits for the running one, before the pool and Redis close.
 */
@Processor(QueueName.Maintenance)
export class MaintenanceProcessor extends WorkerHost implements BeforeApplicationShutdown {
  private readonly log = new Logger('Jobs');

  constructor(
    private readonly registry: PeriodicJobRegistry,
    private readonly clock: Clock,
    @Optional() private readonly metrics?: Metrics,
  ) {
    super();
  }

  async process(job: Job): Promise<unknown> {
    const run = () =>
      this.registry.run(job.name, (job.data ?? {}) as Record<string, unknown>, this.clock.now());
    const started = performance.now();
    try {
      return await (this.metrics ? this.metrics.countJob(job.name, run) : run());
    } finally {
      const durationMs = Math.round(performance.now() - started);
      if (durationMs > SLOW_JOB_MS) this.log.log({ job: job.name, durationMs }, 'slow job');
    }
  }

  @OnWorkerEvent('failed')
  onFailed(job: Job | undefined, err: Error): void {
    this.log.error({ job: job?.name, id: job?.id, err: loggableError(err) }, 'job failed');
  }

  // Nest closes BullMQ's workers in onApplicationShutdown, alongside the ORM's pool: too late
  async beforeApplicationShutdown(): Promise<void> {
    let worker: Worker;
    try {
      worker = this.worker;
    } catch {
      return; // never started: the app stops before its bootstrap ended
    }
    await worker.close();
  }
}

/** Registers every `@Periodic` job as a BullMQ job scheduler when the worker starts. */
@Injectable()
export class PeriodicJobScheduler implements OnApplicationBootstrap {
  private readonly log = new Logger('Jobs');

  constructor(
    @InjectQueue(QueueName.Maintenance) private readonly queue: Queue,
    private readonly registry: PeriodicJobRegistry,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const jobs = this.registry.all();
    for (const job of jobs) {
      // the job name is the scheduler's fixed id: a restart updates it, never adds a second one
      await this.queue.upsertJobScheduler(
        job.name,
        { every: job.everyMs },
        { name: job.name, opts: { removeOnComplete: 100, removeOnFail: 500 } },
      );
    }
    // a job dropped from the code would otherwise fail on every tick
    const known = new Set<string>(jobs.map((job) => job.name));
    for (const scheduler of await this.queue.getJobSchedulers()) {
      if (!known.has(scheduler.key)) await this.queue.removeJobScheduler(scheduler.key);
    }
    this.log.log(`scheduled ${jobs.map((job) => job.name).join(', ') || 'no jobs'}`);
  }
}

/**
 * The worker's side of the jobs (REDIS_URL set): BullMQ on Redis, the maintenance queue, its
 * schedulers and processor. The API's side is `JobsModule.forRoot({ inProcess: false })`.
 */
@Module({})
export class BullmqJobsModule {
  /** `prefix` namespaces the Redis keys (BullMQ's default `bull`); tests use one per run. */
  static forRoot(options: { prefix?: string } = {}): DynamicModule {
    return {
      module: BullmqJobsModule,
      imports: [
        JobsModule.forRoot({ inProcess: false, queuePrefix: options.prefix }),
        BullModule.forRootAsync({
          inject: [AppConfig],
          useFactory: (config: AppConfig) => {
            if (!config.redisUrl) throw new ConfigError('REDIS_URL is required for BullMQ jobs.');
            return {
              connection: bullmqConnection(config.redisUrl),
              ...(options.prefix ? { prefix: options.prefix } : {}),
            };
          },
        }),
        BullModule.registerQueue({ name: QueueName.Maintenance }),
      ],
      providers: [MaintenanceProcessor, PeriodicJobScheduler],
      exports: [BullModule],
    };
  }
}
