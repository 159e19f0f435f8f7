import {
  BeforeApplicationShutdown,
  DynamicModule,
  Injectable,
  Logger,
  Module,
  OnApplicationBootstrap,
  Optional,
} from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { AppConfig, ConfigError } from '../config/app-config';
import { Clock } from '../clock/clock';
import { BullmqDelayedJobs, DelayedJobs, InProcessDelayedJobs } from './delayed-jobs';
import { loggableError } from '../errors/loggable-error';
import { Metrics } from '../metrics/metrics';
import { PeriodicJob, PeriodicJobRegistry } from './periodic';

/**
 * Single-node mode (no REDIS_URL): the API runs every periodic job on its own timer. On shutdown
 * the timers stop and a job already running is awaited, before the pool closes under it.
 */
@Injectable()
export class InProcessJobRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly log = new Logger('Jobs');
  private timers: NodeJS.Timeout[] = [];
  private readonly running = new Set<Promise<unknown>>();

  constructor(
    private readonly registry: PeriodicJobRegistry,
    private readonly clock: Clock,
    @Optional() private readonly metrics?: Metrics,
  ) {}

  onApplicationBootstrap(): void {
    for (const job of this.registry.all()) {
      const timer = setInterval(() => void this.runOnce(job), job.everyMs);
      timer.unref();
      this.timers.push(timer);
    }
  }

  /** One run of `job`; a failure is logged (class, SQLSTATE, statement shape: no value). */
  runOnce(job: PeriodicJob): Promise<unknown> {
    const run = () => job.run(this.clock.now());
    const done = (this.metrics ? this.metrics.countJob(job.name, run) : run())
      .catch((err: unknown) => this.log.error({ job: job.name, err: loggableError(err) }, 'job failed'))
      .finally(() => this.running.delete(done));
    this.running.add(done);
    return done;
  }

  // before the ORM closes its pool (onApplicationShutdown), so a running job ends on its own terms
  async beforeApplicationShutdown(): Promise<void> {
    this.timers.forEach(clearInterval);
    this.timers = [];
    await Promise.all([...this.running]);
  }
}

/** Global: a context injects `DelayedJobs` without importing this module. */
@Module({})
export class JobsModule {
  /**
   * `inProcess` false (REDIS_URL set): apps/worker runs the jobs; the API only discovers them, and
   * its `DelayedJobs` adds to the maintenance queue (producer only). `queuePrefix` namespaces the
   * Redis keys (BullMQ's default `bull`); tests use one per run.
   */
  static forRoot(options: { inProcess: boolean; queuePrefix?: string }): DynamicModule {
    const delayedJobs = options.inProcess
      ? { provide: DelayedJobs, useClass: InProcessDelayedJobs }
      : {
          provide: DelayedJobs,
          inject: [AppConfig, Clock],
          useFactory: (config: AppConfig, clock: Clock) => {
            if (!config.redisUrl) throw new ConfigError('REDIS_URL is required for BullMQ jobs.');
            return new BullmqDelayedJobs(config.redisUrl, clock, options.queuePrefix);
          },
        };
    return {
      module: JobsModule,
      global: true,
      imports: [DiscoveryModule],
      providers: [PeriodicJobRegistry, delayedJobs, ...(options.inProcess ? [InProcessJobRunner] : [])],
      exports: [PeriodicJobRegistry, DelayedJobs],
    };
  }
}
