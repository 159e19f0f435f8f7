import { Global, Module } from '@nestjs/common';
import { Metrics } from './metrics';
import { MetricsServer } from './metrics-http';

/** The process's metrics (for every context to count into) and, with METRICS_PORT, their own port. */
@Global()
@Module({
  providers: [Metrics, MetricsServer],
  exports: [Metrics],
})
export class MetricsModule {}
