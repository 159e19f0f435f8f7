import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import {
  AppConfig,
  ConfigError,
  configureHttpApp,
  DRAIN_BUDGET_MS,
  HttpDrain,
  ReadinessChecks,
  stopOnSignals,
} from '@app/platform';
import { ApiModule } from './api.module';
import { LifecycleLog } from './lifecycle-log';

async function bootstrap(): Promise<void> {
  const config = AppConfig.fromEnv();
  const app = await NestFactory.create<NestExpressApplication>(ApiModule.forRoot(config), {
    bodyParser: false,
    rawBody: true, // idempotency compares the exact body bytes
    bufferLogs: true,
  });
  app.useLogger(app.get(Logger));
  configureHttpApp(app);
  await app.listen(config.port);
  const lifecycle = app.get(LifecycleLog);
  const drain = HttpDrain.of(app);
  // SIGTERM: refuse new connections, answer what is in flight, then flush, close, exit 0 (≤ 10 s)
  stopOnSignals(app, {
    stopping: (signal) => {
      app.get(ReadinessChecks, { strict: false }).markStopping();
      lifecycle.stopping(signal, drain.inFlight);
    },
    drain: async () => ({ ...(await drain.drain(app.getHttpServer(), DRAIN_BUDGET_MS)) }),
    stopped: (report) => lifecycle.stopped(report),
  });
  lifecycle.started();
}

bootstrap().catch((err: unknown) => {
  // a bad configuration is one line naming the variable; anything else keeps its stack
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
