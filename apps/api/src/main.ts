import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { AppConfig, ConfigError, configureHttpApp } from '@app/platform';
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
  app.get(LifecycleLog).started();
}

bootstrap().catch((err: unknown) => {
  // a bad configuration is one line naming the variable; anything else keeps its stack
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
