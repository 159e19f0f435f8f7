import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { AppConfig } from '@app/platform';
import { ApiModule } from '../apps/api/src/api.module';
import { buildOpenApiDocument } from '../libs/platform/src/http/openapi';

/**
 * Writes the OpenAPI document `/v1/openapi.json` serves, for the linters (`npm run lint`). The
 * application is built in preview mode: modules are scanned but no provider is instantiated, so
 * no database is needed.
 */
async function main(): Promise<void> {
  const out = process.argv[2] ?? 'dist/openapi.json';
  const config = AppConfig.fromEnv({
    DATABASE_URL: 'postgres://openapi@127.0.0.1:1/openapi', // never connected to
    LOG_LEVEL: 'silent',
  });
  const app = await NestFactory.create(ApiModule.forRoot(config), { preview: true, logger: false });
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(buildOpenApiDocument(app), null, 2)}\n`);
  await app.close();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
