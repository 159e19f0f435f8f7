import {
  DynamicModule,
  Injectable,
  Logger,
  Module,
  OnApplicationBootstrap,
  OnApplicationShutdown,
  Optional,
} from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Clock } from '../clock/clock';
import { Metrics } from '../metrics/metrics';
import { PeriodicJobRegistry } from './periodic';

/** Single-node mode (no REDIS_URL): the API runs every periodic job on its own timer. */
@Injectable()
export class InProcessJobRunner implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger('Jobs');
  private timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly registry: PeriodicJobRegistry,
    private readonly clock: Clock,
    @Optional() private readonly metrics?: Metrics,
  ) {}

  onApplicationBootstrap(): void {
    for (const job of this.registry.all()) {
      const timer = setInterval(() => {
        const run = () => job.run(this.clock.now());
        (this.metrics ? this.metrics.countJob(job.name, run) : run()).catch((err: unknown) =>
          this.log.error({ job: job.name, err: String(err) }, 'job failed'),
        );
      }, job.everyMs);
      timer.unref();
      this.timers.push(timer);
    }
  }

  onApplicationShutdown(): void {
    this.timers.forEach(clearInterval);
    this.timers = [];
  }
}

@Module({})
export class JobsModule {
  /** `inProcess` false (REDIS_URL set): apps/worker runs the jobs; the API only discovers them. */
  static forRoot(options: { inProcess: boolean }): DynamicModule {
    return {
      module: JobsModule,
      imports: [DiscoveryModule],
      providers: [PeriodicJobRegistry, ...(options.inProcess ? [InProcessJobRunner] : [])],
      exports: [PeriodicJobRegistry],
    };
  }
}
