import 'reflect-metadata';
import { Logger as NestLogger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { AppConfig, ConfigError, stopOnSignals } from '@app/platform';
import { WorkerModule } from './worker.module';

async function bootstrap(options: { queuePrefix?: string }): Promise<void> {
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(AppConfig.fromEnv(), options), {
    bufferLogs: true,
    abortOnError: false,
  });
  app.useLogger(app.get(Logger));
  const log = new NestLogger('Worker');
  // SIGTERM: no new job, the running one finishes, then queues, pool and Redis close; exit 0 (≤ 10 s)
  stopOnSignals(app, {
    stopping: (signal) => log.log({ signal }, 'worker stopping'),
    stopped: (report) => log.log(report, 'worker stopped'),
  });
  log.log('worker started');
}

/** Starts the worker; `queuePrefix` namespaces its BullMQ keys (tests on a shared Redis). */
export function startWorker(options: { queuePrefix?: string } = {}): void {
  bootstrap(options).catch((err: unknown) => {
    // a bad configuration (REDIS_URL missing included) is one line; anything else keeps its stack
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  });
}

if (require.main === module) startWorker();
