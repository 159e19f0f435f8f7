import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { AppConfig, ConfigError } from '@app/platform';
import { WorkerModule } from './worker.module';

async function bootstrap(): Promise<void> {
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(AppConfig.fromEnv()), {
    bufferLogs: true,
    abortOnError: false,
  });
  app.useLogger(app.get(Logger));
  // SIGTERM lets running jobs finish, then closes queues, pool and the embedded database
  app.enableShutdownHooks();
  app.get(Logger).log('worker started');
}

bootstrap().catch((err: unknown) => {
  // a bad configuration (REDIS_URL missing included) is one line; anything else keeps its stack
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
